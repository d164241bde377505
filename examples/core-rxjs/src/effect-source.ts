import {
  failedSources,
  PermissionDenied,
  RateLimited,
  search,
  SOURCE_FAILURE,
  type Offer,
  type SearchQuery,
  type SearchSource,
  type SourceError,
  type SourceFailure,
} from "@voar/core";
import { simulateOffers } from "@voar/testing/simulator";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { lastValueFrom } from "rxjs";
import { expect } from "./observed-sources.js";
import { daysAhead, queryOf } from "./query.js";

/**
 * A source written as an Effect: the program fails with core's tagged errors, and the engine reads their tag
 * (RateLimited is retried after its `retryAfterMs`, PermissionDenied never is). The engine's AbortSignal
 * interrupts the program.
 */
const effectSource = (
  id: string,
  name: string,
  program: (query: SearchQuery) => Effect.Effect<readonly Offer[], SourceError>,
): SearchSource => ({
  id,
  name,
  kind: "airline",
  async *search(query, signal) {
    const exit = await Effect.runPromiseExit(program(query), { signal });
    // Throw the tagged error itself (not Effect's FiberFailure wrapper), so that the engine can classify it.
    if (Exit.isFailure(exit)) throw Cause.squash(exit.cause);
    yield exit.value;
  },
});

let calls = 0;
const partner = effectSource("partner", "Partner Air", (query) =>
  Effect.gen(function* () {
    calls++;
    if (calls === 1) return yield* Effect.fail(new RateLimited({ retryAfterMs: 50 }));
    yield* Effect.sleep("20 millis");
    return simulateOffers(query).slice(0, 5);
  }),
);
const charter = effectSource("charter", "Charter Co", () => Effect.fail(new PermissionDenied({ detail: "agency 42 may not sell charter seats" })));

const heard: SourceFailure[] = [];
const final = await lastValueFrom(search(queryOf({ Origem: "CNF", Destino: "REC", Ida: daysAhead(40) }), [partner, charter], { onSourceError: (f) => heard.push(f) }));

console.log("sources as Effects, errors as tagged classes:");
const partnerProgress = final.sources.find((s) => s.id === "partner");
expect(partnerProgress?.state === "done" && partnerProgress.attempts === 2 && partnerProgress.items > 0, "RateLimited was retried: the partner answered on its second attempt");
const [failed] = failedSources(final);
expect(failed?.id === "charter" && failed.attempts === 1 && failed.error?.tag === "PermissionDenied", "PermissionDenied was not retried and shows in the progress");
expect(failed?.error?.message === SOURCE_FAILURE.PermissionDenied.mensagem, `the progress carries the catalogue's sentence ("${failed?.error?.message}"), not the detail`);
expect(heard.some((f) => f.error._tag === "PermissionDenied" && f.error.detail.includes("agency 42") && f.final), "onSourceError heard the detail, for the log");
