import * as Effect from "effect/Effect";
import type { Offer } from "../domain/offer.js";
import type { SearchQuery } from "../query/query.js";
import { retriesWithinSearch, SourceTimeout, toSourceError, type SourceError } from "../errors/source-errors.js";
import { effectToObservable } from "./effect-bridge.js";
import type { SearchEvent } from "./events.js";
import type { SourcePolicy } from "./source-policy.js";
import { retrySchedule } from "./source-policy.js";
import type { SearchSource } from "./source.js";
import type { Observable } from "rxjs";

/**
 * The source's next batch, failing with {@link SourceTimeout} when none comes within `timeoutMs`. The timer
 * is a plain one, cleared when the batch comes or the fiber is interrupted: `Effect.timeoutFail` forks a
 * racing fiber per batch (about 50 µs a step, against a few µs for this).
 */
const nextBatch = <T>(iterator: AsyncIterator<T>, timeoutMs: number): Effect.Effect<IteratorResult<T>, SourceError> =>
  Effect.async<IteratorResult<T>, SourceError>((resume) => {
    const timer = setTimeout(() => resume(Effect.fail(new SourceTimeout({ afterMs: timeoutMs }))), timeoutMs);
    iterator.next().then(
      (step) => {
        clearTimeout(timer);
        resume(Effect.succeed(step));
      },
      (error: unknown) => {
        clearTimeout(timer);
        resume(Effect.fail(toSourceError(error)));
      },
    );
    return Effect.sync(() => clearTimeout(timer));
  });

/**
 * One attempt of a source: iterates its batches, each within the timeout. The source gets its own
 * AbortSignal, aborted when the attempt ends for any reason (done, failure, timeout, interruption).
 */
const attempt = (
  source: SearchSource,
  query: SearchQuery,
  timeoutMs: number,
  emit: (offers: readonly Offer[]) => void,
): Effect.Effect<void, SourceError> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const controller = new AbortController();
      return { controller, iterator: source.search(query, controller.signal)[Symbol.asyncIterator]() };
    }),
    ({ iterator }) =>
      Effect.gen(function* () {
        for (;;) {
          const step = yield* nextBatch(iterator, timeoutMs);
          if (step.done) return;
          if (step.value.length > 0) emit(step.value);
        }
      }),
    ({ controller }) =>
      Effect.sync(() => {
        controller.abort(new DOMException("search ended", "AbortError"));
      }),
  );

/** One failed attempt of a source, as `SearchOptions.onSourceError` hears it. */
export interface SourceFailure {
  readonly sourceId: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly error: SourceError;
  /** True when no other attempt follows: the source is failed. */
  readonly final: boolean;
}

/**
 * The events of one source over a whole search, as an Observable: batches, retries, then `done` or
 * `failed`. The source's failures never escape as errors: they become `failed` events, visible in the
 * progress. Unsubscribing interrupts the Effect, which aborts the source's signal.
 */
export const sourceEvents = (
  source: SearchSource,
  query: SearchQuery,
  policy: SourcePolicy,
  onError?: ((failure: SourceFailure) => void) | undefined,
): Observable<SearchEvent> =>
  effectToObservable<SearchEvent>((emit) => {
    let attempts = 0;
    const oneAttempt = Effect.suspend(() => {
      attempts++;
      return attempt(source, query, policy.timeoutMs, (offers) => emit({ type: "batch", sourceId: source.id, offers }));
    }).pipe(
      // Reported only when another attempt will follow: the schedule below decides that.
      Effect.tapError((error) =>
        Effect.sync(() => {
          const again = attempts < policy.maxAttempts && retriesWithinSearch(error);
          try {
            onError?.({ sourceId: source.id, attempt: attempts, error, final: !again });
          } catch {
            // A failing listener (a log sink) must not change the search.
          }
          if (again) emit({ type: "retry", sourceId: source.id, attempt: attempts, error });
        }),
      ),
    );
    return oneAttempt.pipe(
      Effect.retry(retrySchedule(policy)),
      Effect.match({
        onSuccess: () => emit({ type: "done", sourceId: source.id }),
        onFailure: (error) => emit({ type: "failed", sourceId: source.id, error }),
      }),
    );
  });
