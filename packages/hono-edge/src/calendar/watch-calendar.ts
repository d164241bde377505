import type { CalendarSnapshot } from "@voar/core";

/**
 * What a watcher of a calendar receives: a snapshot; the snapshot the client already has (`known`: a resume
 * at the current version, the base of what changes next); or a sign of life while nothing changes.
 */
export type CalendarUpdate =
  | { readonly kind: "snapshot"; readonly snapshot: CalendarSnapshot }
  | { readonly kind: "known"; readonly snapshot: CalendarSnapshot }
  | { readonly kind: "keep-alive" };

/** What {@link watchCalendar} needs. */
export interface WatchCalendarOptions {
  /** The calendar's latest snapshot (its record read again, its days' searches rebuilt). */
  readonly latest: () => Promise<CalendarSnapshot>;
  /** Calls `listener` at every change of a search (the session store's watch); resolves to its removal. */
  readonly watch: (searchId: string, listener: () => void) => Promise<() => void>;
  /** The last version the client received (`Last-Event-ID`); undefined for a new stream. */
  readonly lastVersion: number | undefined;
  /** A keep-alive update after this long without a change. */
  readonly keepAliveMs: number;
  /** How often the calendar is read when no day's search announced a change (a day just started). */
  readonly tickMs: number;
  /**
   * The least time between two snapshots: the changes of several days within it go out as one (a traveller's
   * screen needs no more). Default 0.
   */
  readonly gapMs?: number | undefined;
  /** Aborting ends the watch at once (the client went away). */
  readonly signal: AbortSignal;
}

/**
 * A day's watch, or, when it is not confirmed within `ms` (a subscriber connection still reconnecting after a
 * failover), none for now: the calendar is read at every tick anyway, and the watch is removed once it comes.
 */
const watchWithin = async (watching: Promise<() => void>, ms: number): Promise<() => void> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const first = await Promise.race([watching, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]).finally(() => clearTimeout(timer));
  if (first) return first;
  let gone = false;
  let unwatch: (() => void) | undefined;
  watching.then(
    (u) => (gone ? u() : (unwatch = u)),
    () => undefined,
  );
  return () => {
    gone = true;
    unwatch?.();
  };
};

/**
 * Every new snapshot of a calendar, ending with the completed one: the latest at once (as `known` when the
 * client has it: `lastVersion` is its version), then a new one whenever a running day's search changes (each
 * watched as it starts) or, failing any, at the next tick, at most one per `gapMs`. A resume at the completed
 * version ends at once; a `lastVersion` ahead of the calendar's (another instance's numbering, a calendar
 * searched again) is no version the client can build on: it gets the latest as a new watch does.
 */
export async function* watchCalendar(o: WatchCalendarOptions): AsyncGenerator<CalendarUpdate> {
  const watched = new Map<string, () => void>();
  let wake: (() => void) | undefined;
  let pending = false;
  const notify = () => {
    pending = true;
    wake?.();
  };
  o.signal.addEventListener("abort", notify);
  // Resolves after `ms`, or at once on a change (`early`; an abort always wakes it).
  const rest = (ms: number, early = true) =>
    new Promise<void>((resolve) => {
      if (early && pending) return resolve();
      if (o.signal.aborted) return resolve();
      const timer = setTimeout(() => (wake = undefined, resolve()), ms);
      wake = () => {
        if (!early && !o.signal.aborted) return;
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });
  try {
    let last = o.lastVersion ?? -1;
    let first = true;
    let quietSince = Date.now();
    while (!o.signal.aborted) {
      pending = false;
      const c = await o.latest();
      for (const d of c.days) {
        if (d.searchId !== undefined && d.state === "searching" && !watched.has(d.searchId)) watched.set(d.searchId, await watchWithin(o.watch(d.searchId, notify), o.tickMs));
      }
      if (first && c.version < last) last = -1;
      if (first && c.version === last) yield { kind: "known", snapshot: c };
      first = false;
      if (c.version > last) {
        last = c.version;
        quietSince = Date.now();
        yield { kind: "snapshot", snapshot: c };
        if (!c.completed && o.gapMs) await rest(o.gapMs, false);
      }
      if (c.completed || o.signal.aborted) return;
      if (Date.now() - quietSince >= o.keepAliveMs) {
        quietSince = Date.now();
        yield { kind: "keep-alive" };
      }
      await rest(o.tickMs);
    }
  } finally {
    o.signal.removeEventListener("abort", notify);
    for (const unwatch of watched.values()) unwatch();
  }
}
