import { context, SpanStatusCode, trace, type Context, type Span } from "@opentelemetry/api";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
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
const nextBatch = <T>(iterator: AsyncIterator<T>, timeoutMs: number, traced: Context): Effect.Effect<IteratorResult<T>, SourceError> =>
  Effect.async<IteratorResult<T>, SourceError>((resume) => {
    const timer = setTimeout(() => resume(Effect.fail(new SourceTimeout({ afterMs: timeoutMs }))), timeoutMs);
    // The source's work for this batch (its HTTP calls) runs in the attempt's trace context.
    context.with(traced, () => iterator.next()).then(
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
 * The engine's tracer, looked up at each use: an SDK registered after this module loaded (or through another
 * copy of `@opentelemetry/api`, CommonJS beside ESM) is then found.
 */
const tracer = () => trace.getTracer("@voar/core");

/** Ends an attempt's span with how the attempt ended: its offers, and the error's tag when it failed. */
const endSpan = (span: Span, offers: number, exit: Exit.Exit<unknown, SourceError>): void => {
  span.setAttribute("voar.source.offers", offers);
  if (Exit.isFailure(exit)) {
    const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined;
    if (failure) {
      span.setAttribute("error.type", failure._tag);
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure._tag });
    } else span.setAttribute("voar.source.interrupted", true);
  }
  span.end();
};

/**
 * One attempt of a source: iterates its batches, each within the timeout. The source gets its own
 * AbortSignal, aborted when the attempt ends for any reason (done, failure, timeout, interruption).
 * The attempt is a span (`voar.source`, child of `parent`: the search's); the source's own work runs in
 * its context, so an HTTP source's calls nest under it. Without an OpenTelemetry SDK, spans are no-ops.
 */
const attempt = (
  source: SearchSource,
  query: SearchQuery,
  timeoutMs: number,
  attemptNo: number,
  parent: Context,
  emit: (offers: readonly Offer[]) => void,
): Effect.Effect<void, SourceError> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const controller = new AbortController();
      const span = tracer().startSpan(
        "voar.source",
        { attributes: { "voar.source.id": source.id, "voar.source.kind": source.kind, "voar.source.attempt": attemptNo } },
        parent,
      );
      const traced = trace.setSpan(parent, span);
      const iterator = context.with(traced, () => source.search(query, controller.signal)[Symbol.asyncIterator]());
      return { controller, iterator, span, traced, offers: { count: 0 } };
    }),
    ({ iterator, traced, offers }) =>
      Effect.gen(function* () {
        for (;;) {
          const step = yield* nextBatch(iterator, timeoutMs, traced);
          if (step.done) return;
          if (step.value.length > 0) {
            offers.count += step.value.length;
            emit(step.value);
          }
        }
      }),
    ({ controller, span, offers }, exit) =>
      Effect.sync(() => {
        controller.abort(new DOMException("search ended", "AbortError"));
        endSpan(span, offers.count, exit);
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
    // The trace context of whoever subscribed (the search's span): the attempts' spans are its children.
    const parent = context.active();
    const oneAttempt = Effect.suspend(() => {
      attempts++;
      return attempt(source, query, policy.timeoutMs, attempts, parent, (offers) => emit({ type: "batch", sourceId: source.id, offers }));
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
