/**
 * A fixture played back as a core {@link SearchSource}: the recorded answers arrive at their recorded times
 * (on `setTimeout`, so fake timers drive them), each as a batch of offers; a recorded failure is thrown as
 * the tagged error a client would have met. A retry (the next call of `search`) resumes after the failure.
 * A recorded 401 is skipped: logging in again is the HTTP client's business, invisible to a source.
 */
import type { AirportDirectory, SearchSource, SourceError } from "@voar/core";
import { airports as defaultAirports } from "@voar/core/airports";
import { sleep } from "../fake-upstream/upstream-reply.js";
import { isConsultar, type Exchange, type Fixture } from "../fixtures/fixture-schema.js";
import { recordedOutcome } from "./recorded-outcome.js";

/** Options of {@link replaySource}. */
export interface ReplaySourceOptions {
  /** Source id; prefixes offer ids. Default `replay:<scenario>`. */
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly kind?: "airline" | "ota" | undefined;
  readonly airlineId?: number | undefined;
  readonly airports?: AirportDirectory | undefined;
}

/**
 * A source that replays a fixture. It serves every query (it plays what was recorded, whatever is asked).
 *
 * @example
 * search(query, [replaySource(loadFixture("mode-a-one-way"))]).subscribe(render);
 */
export const replaySource = (fixture: Fixture, options: ReplaySourceOptions = {}): SearchSource => {
  const id = options.id ?? `replay:${fixture.scenario}`;
  const steps: readonly Exchange[] = fixture.exchanges.filter(isConsultar);
  const airports = options.airports ?? defaultAirports;
  let cursor = 0;
  let lastFailure: SourceError | undefined;
  return {
    id,
    name: options.name ?? fixture.scenario,
    kind: options.kind ?? "airline",
    ...(options.airlineId === undefined ? {} : { airlineId: options.airlineId }),
    serves: () => true,
    async *search(query, signal) {
      // A recording that ends failing (the upstream died) keeps failing on every retry.
      if (cursor >= steps.length && lastFailure) throw lastFailure;
      let clock = steps[cursor]?.atMs ?? 0;
      while (cursor < steps.length) {
        const step = steps[cursor]!;
        const due = step.atMs + step.response.delayMs;
        if (due > clock) await sleep(due - clock, signal);
        clock = due;
        cursor++;
        const outcome = recordedOutcome(step.response, { airports, sourceId: id, query });
        if (outcome.kind === "failure") {
          if (outcome.error._tag === "AuthError") continue;
          lastFailure = outcome.error;
          throw outcome.error;
        }
        lastFailure = undefined;
        yield outcome.answer.offers;
        if (outcome.answer.completed) return;
      }
    },
  };
};
