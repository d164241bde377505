import type { VoarClient, Envelope, SearchRequest } from "@voar/http-adapter/fetch";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Subscription } from "rxjs";
import { describeSearchError } from "../api/voar-client.js";

/** Where a search stands on the page. */
export type RunStatus = "running" | "done" | "failed";

/** One search as the page follows it: one run per request (a new page of the same search is a new run). */
export interface SearchRun {
  /** Grows with every run, so that a late answer of an abandoned run is ignored. */
  readonly id: number;
  /** Grows with every new search (not with a page change): views reset their filters on it. */
  readonly searchId: number;
  readonly request: SearchRequest;
  readonly status: RunStatus;
  /** The last envelope received; on a page change, the previous page's until the new one arrives. */
  readonly envelope?: Envelope | undefined;
  /** Whether `envelope` belongs to this run's request (false while a page change waits for its first answer). */
  readonly current: boolean;
  /** Snapshots received by this run. */
  readonly updates: number;
  readonly error?: string | undefined;
}

/** What {@link useSearch} gives the page. */
export interface SearchControls {
  readonly run: SearchRun | undefined;
  /** Starts a new search, dropping the one on screen. */
  search(request: SearchRequest): void;
  /** Asks another page (or page size) of the search on screen, keeping its rows until the new page arrives. */
  page(request: SearchRequest): void;
}

/**
 * Follows searches through the SDK's `search$`: each envelope replaces the one on screen as it arrives, and
 * starting another run unsubscribes from the previous one, which aborts its request.
 */
export const useSearch = (client: VoarClient | undefined): SearchControls => {
  const [run, setRun] = useState<SearchRun | undefined>(undefined);
  const subscription = useRef<Subscription | undefined>(undefined);
  const counter = useRef(0);
  const searches = useRef(0);

  const start = useCallback(
    (request: SearchRequest, keep: boolean) => {
      if (!client) return;
      subscription.current?.unsubscribe();
      const id = ++counter.current;
      if (!keep) searches.current++;
      const searchId = searches.current;
      const update = (f: (r: SearchRun) => SearchRun) => setRun((r) => (r?.id === id ? f(r) : r));
      setRun((previous) => ({
        id,
        searchId,
        request,
        status: "running",
        envelope: keep ? previous?.envelope : undefined,
        current: false,
        updates: 0,
      }));
      subscription.current = client.search$(request).subscribe({
        next: (envelope) => update((r) => ({ ...r, envelope, current: true, updates: r.updates + 1 })),
        error: (error: unknown) => update((r) => ({ ...r, status: "failed", error: describeSearchError(error) })),
        complete: () => update((r) => ({ ...r, status: "done" })),
      });
    },
    [client],
  );

  useEffect(() => () => subscription.current?.unsubscribe(), []);
  return { run, search: useCallback((r: SearchRequest) => start(r, false), [start]), page: useCallback((r: SearchRequest) => start(r, true), [start]) };
};
