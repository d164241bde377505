/**
 * What a recorded search answer means to a source: offers, or the tagged error a client would have met.
 */
import {
  AuthError,
  HttpStatusError,
  MalformedPayload,
  RateLimited,
  TransportError,
  readUpstreamAnswer,
  upstreamFailure,
  type ReadContext,
  type SourceError,
  type UpstreamAnswer,
} from "@voar/core";
import type { RecordedResponse } from "../fixtures/fixture-schema.js";

/** A recorded answer, read: offers and completion, or a failure. */
export type RecordedOutcome = { readonly kind: "answer"; readonly answer: UpstreamAnswer } | { readonly kind: "failure"; readonly error: SourceError };

const retryAfterMs = (value: string | undefined): number | undefined => {
  const seconds = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
};

/** Reads one recorded search answer into an outcome. */
export const recordedOutcome = (r: RecordedResponse, ctx: ReadContext): RecordedOutcome => {
  const fail = (error: SourceError): RecordedOutcome => ({ kind: "failure", error });
  if (r.fault === "reset") return fail(new TransportError({ detail: "conexão encerrada pelo fornecedor" }));
  if (r.fault === "truncated") return fail(new TransportError({ detail: "resposta truncada" }));
  if (r.status === 401) return fail(new AuthError({ detail: "token recusado" }));
  if (r.status === 429) return fail(new RateLimited({ retryAfterMs: retryAfterMs(r.headers["retry-after"]) }));
  if (r.status < 200 || r.status >= 300) return fail(new HttpStatusError({ status: r.status }));
  if (r.json === undefined) return fail(new MalformedPayload({ detail: "a resposta não é JSON" }));
  const read = readUpstreamAnswer(r.json, ctx);
  if (read instanceof MalformedPayload) return fail(read);
  const refused = upstreamFailure(read);
  return refused ? fail(refused) : { kind: "answer", answer: read };
};
