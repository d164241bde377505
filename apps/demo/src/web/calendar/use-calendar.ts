import type { CalendarEnvelope } from "@voar/core";
import type { CalendarRequest, VoarClient } from "@voar/http-adapter/fetch";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Subscription } from "rxjs";
import { describeSearchError } from "../api/voar-client.js";

/** A price calendar as the page follows it. */
export interface CalendarRun {
  /** Grows with every calendar, so that a late answer of an abandoned one is ignored. */
  readonly id: number;
  readonly request: CalendarRequest;
  /** The last answer received; undefined before the first. */
  readonly envelope?: CalendarEnvelope | undefined;
  readonly error?: string | undefined;
}

/** What {@link useCalendar} gives the page. */
export interface CalendarControls {
  readonly calendar: CalendarRun | undefined;
  /** Starts a calendar, dropping the one on screen. */
  start(request: CalendarRequest): void;
  /** Drops the calendar on screen (a search that has none, like the OTA comparison). */
  clear(): void;
}

/** Follows price calendars through the SDK's `calendar$`: each answer replaces the one on screen as its days fill in. */
export const useCalendar = (client: VoarClient | undefined): CalendarControls => {
  const [calendar, setCalendar] = useState<CalendarRun | undefined>(undefined);
  const subscription = useRef<Subscription | undefined>(undefined);
  const counter = useRef(0);

  const clear = useCallback(() => {
    subscription.current?.unsubscribe();
    counter.current++;
    setCalendar(undefined);
  }, []);

  const start = useCallback(
    (request: CalendarRequest) => {
      if (!client) return;
      subscription.current?.unsubscribe();
      const id = ++counter.current;
      const update = (f: (r: CalendarRun) => CalendarRun) => setCalendar((r) => (r?.id === id ? f(r) : r));
      setCalendar({ id, request });
      subscription.current = client.calendar$(request).subscribe({
        next: (envelope) => update((r) => ({ ...r, envelope })),
        error: (error: unknown) => update((r) => ({ ...r, error: describeSearchError(error) })),
      });
    },
    [client],
  );

  useEffect(() => () => subscription.current?.unsubscribe(), []);
  return { calendar, start, clear };
};
