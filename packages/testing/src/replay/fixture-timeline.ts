/**
 * A fixture on a virtual clock: its answers as an Observable scheduled on any RxJS scheduler, so a test can
 * replay minutes of recorded search in a `TestScheduler.run` callback, with marble assertions.
 */
import type { ReadContext } from "@voar/core";
import { airports } from "@voar/core/airports";
import { map, merge, timer, type Observable, type SchedulerLike } from "rxjs";
import { isConsultar, type Exchange, type Fixture } from "../fixtures/fixture-schema.js";
import { recordedOutcome, type RecordedOutcome } from "./recorded-outcome.js";

/** One recorded search answer, at the virtual time it arrived. */
export interface TimedAnswer {
  /** Arrival, in ms from the start of the recording (`atMs + delayMs`). */
  readonly atMs: number;
  readonly exchange: Exchange;
  /** The answer read by core's tolerant reader, or the tagged error it stands for. */
  readonly outcome: RecordedOutcome;
}

/**
 * The search answers of a fixture, each emitted at its recorded arrival time on `scheduler` (RxJS's
 * `TestScheduler` in tests: one frame is one millisecond), then complete.
 *
 * @example
 * testScheduler.run(({ expectObservable }) => {
 *   expectObservable(fixtureTimeline$(fixture).pipe(map((a) => a.outcome.kind[0]))).toBe("a 999ms a 999ms (a|)");
 * });
 */
export const fixtureTimeline$ = (
  fixture: Fixture,
  scheduler?: SchedulerLike,
  ctx: ReadContext = { airports, sourceId: `replay:${fixture.scenario}` },
): Observable<TimedAnswer> =>
  merge(
    ...fixture.exchanges.filter(isConsultar).map((exchange) => {
      const atMs = exchange.atMs + exchange.response.delayMs;
      return timer(atMs, scheduler).pipe(map((): TimedAnswer => ({ atMs, exchange, outcome: recordedOutcome(exchange.response, ctx) })));
    }),
  );
