import { defer, merge, of, scan, startWith, switchMap, takeWhile, timer, distinctUntilChanged, type Observable, type SchedulerLike } from "rxjs";
import type { SearchQuery } from "../query/query.js";
import type { SearchEvent } from "./events.js";
import { reduce } from "./reduce.js";
import { sourceEvents, type SourceFailure } from "./run-source.js";
import { initialSnapshot, type SearchSnapshot } from "./snapshot.js";
import { defaultSourcePolicy, type SourcePolicy } from "./source-policy.js";
import { sourcesFor, type SearchSource } from "./source.js";

/** Options of {@link search}. */
export interface SearchOptions extends Partial<SourcePolicy> {
  /** The search completes with what it has after this long. Default 60 000 ms. */
  readonly deadlineMs?: number | undefined;
  /**
   * At the deadline, a source still receiving an answer (see `SearchSource.answerDueMs`: an upstream answering slowly)
   * is waited for, up to this long in all past the deadline, so the answer it is being sent is not thrown away.
   * Default 0: the deadline is final.
   */
  readonly deadlineHoldMs?: number | undefined;
  /** Airlines (Companhia ids) whose Pagante switch is off: their cash offers are left out. */
  readonly hiddenCashAirlines?: Iterable<number> | undefined;
  /**
   * Hears every failure of a source as the tagged error itself, with its detail (the upstream's message, a
   * network error code...), which snapshots never carry: for the caller's log. `final` is false when another
   * attempt follows. Never called for an aborted source after the search ended.
   */
  readonly onSourceError?: ((failure: SourceFailure) => void) | undefined;
  /** RxJS scheduler of the deadline timer (tests may pass a TestScheduler). */
  readonly scheduler?: SchedulerLike | undefined;
}

/**
 * Runs a flight search as an Observable of snapshots. Every source that serves the query's mode starts
 * at once; a snapshot follows each change (a batch, a retry, a source done or failed), built by the pure
 * {@link reduce}. The last snapshot has `completed: true`. Unsubscribing aborts every source in flight.
 *
 * @example
 * search(query, createSimulator().sources).subscribe((s) => console.log(s.version, s.completed));
 */
export const search = (
  query: SearchQuery,
  sources: readonly SearchSource[],
  options: SearchOptions = {},
): Observable<SearchSnapshot> =>
  defer(() => {
    const active = sourcesFor(query, sources);
    const initial = initialSnapshot(query, active, { hiddenCashAirlines: options.hiddenCashAirlines });
    if (initial.completed) return of(initial);
    const policy: SourcePolicy = {
      timeoutMs: options.timeoutMs ?? defaultSourcePolicy.timeoutMs,
      maxAttempts: options.maxAttempts ?? defaultSourcePolicy.maxAttempts,
      baseDelayMs: options.baseDelayMs ?? defaultSourcePolicy.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? defaultSourcePolicy.maxDelayMs,
    };
    const holdMs = options.deadlineHoldMs ?? 0;
    const due = () => active.reduce((most, s) => Math.max(most, s.answerDueMs?.(query) ?? 0), 0);
    // The deadline, then (while some source is still being answered) the wait for that answer, within the hold.
    const deadline = (afterMs: number, heldMs: number): Observable<SearchEvent> =>
      timer(afterMs, options.scheduler).pipe(
        switchMap(() => {
          const wait = Math.min(holdMs - heldMs, due());
          return wait > 0 ? deadline(wait, heldMs + wait) : of<SearchEvent>({ type: "deadline" });
        }),
      );
    const deadline$ = deadline(options.deadlineMs ?? 60_000, 0);
    return merge(...active.map((s) => sourceEvents(s, query, policy, options.onSourceError)), deadline$).pipe(
      scan(reduce, initial),
      distinctUntilChanged(),
      startWith(initial),
      takeWhile((s) => !s.completed, true),
    );
  });
