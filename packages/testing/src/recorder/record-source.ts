/**
 * The source recorder: wraps a core {@link SearchSource} and notes what it does over time (batches, the end,
 * failures), then writes it as a fixture in the wire format: the answers a progressive upstream serving that
 * source would have given, one per change, each with the time it came.
 */
import {
  initialSnapshot,
  reduce,
  snapshotToEnvelope,
  type AirportDirectory,
  type Offer,
  type SearchQuery,
  type SearchSnapshot,
  type SearchSource,
  type SourceError,
  toSourceError,
} from "@voar/core";
import { airports as defaultAirports } from "@voar/core/airports";
import { businessErrorBody, serverErrorBody, unauthorizedBody } from "../fake-upstream/real-shapes.js";
import { FIXTURE_FORMAT, type Exchange, type Fixture, type RecordedResponse } from "../fixtures/fixture-schema.js";
import { wireRequestOf } from "./wire-request.js";

type SourceEvent =
  | { readonly atMs: number; readonly type: "batch"; readonly offers: readonly Offer[] }
  | { readonly atMs: number; readonly type: "done" }
  | { readonly atMs: number; readonly type: "failed"; readonly error: SourceError };

/** What a fixture is about. */
export interface FixtureMeta {
  readonly scenario: string;
  readonly description: string;
  readonly recordedFrom?: string | undefined;
}

/** A recording source and what it recorded. */
export interface SourceRecorder {
  /** Use this source instead of the wrapped one. */
  readonly source: SearchSource;
  /** The recording as a fixture (needs at least one call of `search`). */
  toFixture(meta: FixtureMeta): Fixture;
}

/** The recorded answer standing for a source failure. */
const failureResponse = (error: SourceError): RecordedResponse => {
  switch (error._tag) {
    case "TransportError":
      return { delayMs: 0, status: 0, headers: {}, fault: "reset" };
    case "SourceTimeout":
      return { delayMs: 0, status: 504, headers: {}, json: serverErrorBody(504) };
    case "HttpStatusError":
      return { delayMs: 0, status: error.status, headers: {}, json: serverErrorBody(error.status) };
    case "RateLimited":
      return { delayMs: 0, status: 429, headers: { "retry-after": String(Math.ceil((error.retryAfterMs ?? 1000) / 1000)) }, json: {} };
    case "BusinessError":
    case "PermissionDenied":
      // Real upstreams refuse permission with HTTP 200 and Success false; the message tells it apart on replay.
      return { delayMs: 0, status: 200, headers: {}, json: businessErrorBody(error.detail) };
    case "AuthError":
      return { delayMs: 0, status: 401, headers: {}, json: unauthorizedBody };
    case "MalformedPayload":
      return { delayMs: 0, status: 200, headers: { "content-type": "text/html" }, text: "<html>resposta inesperada</html>" };
    case "SourceUnavailable":
    case "RequestBudgetExhausted":
      // The source declined to ask (breaker open, budget spent): replayed as an upstream that is not available.
      return { delayMs: 0, status: 503, headers: {}, json: serverErrorBody(503) };
  }
};

/**
 * Wraps a source to record it.
 *
 * @example
 * const recorder = recordSource(simulator.sources[0]);
 * await lastValueFrom(search(query, [recorder.source]));
 * const fixture = recorder.toFixture({ scenario: "latam-only", description: "LATAM alone" });
 */
export const recordSource = (
  inner: SearchSource,
  options: { readonly airports?: AirportDirectory | undefined; readonly now?: (() => number) | undefined } = {},
): SourceRecorder => {
  const now = options.now ?? Date.now;
  const airports = options.airports ?? defaultAirports;
  let started: number | undefined;
  let query: SearchQuery | undefined;
  const events: SourceEvent[] = [];
  const at = () => now() - (started ?? now());

  const source: SearchSource = {
    ...inner,
    async *search(q, signal) {
      started ??= now();
      query ??= q;
      try {
        for await (const offers of inner.search(q, signal)) {
          events.push({ atMs: at(), type: "batch", offers });
          yield offers;
        }
        events.push({ atMs: at(), type: "done" });
      } catch (error) {
        if (!signal.aborted) events.push({ atMs: at(), type: "failed", error: toSourceError(error) });
        throw error;
      }
    },
  };

  const toFixture = (meta: FixtureMeta): Fixture => {
    if (!query) throw new RangeError("nothing recorded: the source was never searched");
    const q = query;
    const leaseId = "lease-1";
    let snapshot: SearchSnapshot = initialSnapshot(q, [inner]);
    const answer = (n: number): RecordedResponse => ({
      delayMs: 0,
      status: 200,
      headers: { "content-type": "application/json; charset=utf-8" },
      json: snapshotToEnvelope(snapshot, { searchId: leaseId, requestId: `req-${n}`, page: 1, pageSize: 100, airports }).body,
    });
    const exchanges: Exchange[] = [{ atMs: 0, request: { method: "POST", path: "/api/ConsultaAereo/Consultar", headers: {}, json: wireRequestOf(q) }, response: answer(1) }];
    for (const e of events) {
      const n = exchanges.length + 1;
      let response: RecordedResponse;
      if (e.type === "failed") {
        response = failureResponse(e.error);
      } else {
        snapshot = reduce(snapshot, e.type === "batch" ? { type: "batch", sourceId: inner.id, offers: e.offers } : { type: "done", sourceId: inner.id });
        response = answer(n);
      }
      exchanges.push({ atMs: e.atMs, request: { method: "POST", path: "/api/ConsultaAereo/Consultar", headers: {}, json: { LeaseId: leaseId } }, response });
    }
    return {
      format: FIXTURE_FORMAT,
      scenario: meta.scenario,
      description: meta.description,
      recordedFrom: meta.recordedFrom ?? `source ${inner.id} through recordSource`,
      query: wireRequestOf(q),
      exchanges,
    };
  };

  return { source, toFixture };
};
