/**
 * Reads the service's answers for the client: a success envelope, or the core tagged error an error answer
 * stands for (401 `AuthError`, 403 / `SEM_PERMISSAO` `PermissionDenied`, 429 `RateLimited` with `Retry-After`,
 * 5xx `HttpStatusError`, a refusal `BusinessError` with the clean `MensagemErro`, an unreadable body
 * `MalformedPayload`).
 */
import {
  AuthError,
  BusinessError,
  HttpStatusError,
  MalformedPayload,
  PermissionDenied,
  RateLimited,
  readUpstreamAnswer,
  type AirportDirectory,
  type SourceError,
} from "@voar/core";
import { retryAfterMs } from "../upstream/retry-after.js";
import type { Envelope } from "./client-options.js";
import { SEARCH_ROUTE, type ProgressiveRoute } from "./progressive-route.js";

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u);

/** Error answers need no airports; an empty directory keeps the airport table out of browser bundles. */
const noAirports: AirportDirectory = { get: () => undefined, search: () => [] };

/** The clean message of an error answer, if it has one (never a stack trace). */
const messageOf = (json: unknown): string | undefined => {
  const read = readUpstreamAnswer(json, { airports: noAirports, sourceId: "client" });
  return read instanceof MalformedPayload ? undefined : read.errorMessage;
};

/** The tagged error of an answer that is not a success. */
export const answerError = (status: number, json: unknown, retryAfter: string | undefined): SourceError => {
  const message = messageOf(json);
  if (status === 401) return new AuthError({ detail: message ?? "HTTP 401" });
  const codigo = isRecord(json) && isRecord(json.Erro) ? json.Erro.Codigo : undefined;
  if (status === 403 || codigo === "SEM_PERMISSAO") return new PermissionDenied({ detail: message ?? "HTTP 403" });
  if (status === 429) return new RateLimited({ retryAfterMs: retryAfterMs(retryAfter) });
  if (status >= 500 || status === 408) return new HttpStatusError({ status });
  return message ? new BusinessError({ detail: message }) : new HttpStatusError({ status });
};

/** Parses a body as JSON, or a `MalformedPayload`. */
export const parseJson = (text: string, what: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new MalformedPayload({ detail: `${what} não é JSON` });
  }
};

/**
 * The envelope of an answer (status and parsed body), or throws its tagged error. With `validate`, the
 * envelope must match core's strict schemas (the route's: a search's, or a calendar's).
 */
export const envelopeOf = <E = Envelope>(status: number, json: unknown, retryAfter: string | undefined, validate: boolean, route: ProgressiveRoute = SEARCH_ROUTE): E => {
  if (status < 200 || status >= 300 || (isRecord(json) && json.Success === false)) throw answerError(status, json, retryAfter);
  if (!isRecord(json) || typeof json.Completed !== "boolean") throw new MalformedPayload({ detail: "a resposta não é um envelope ConsultaAereo" });
  const outside = validate ? route.check(json) : undefined;
  if (outside !== undefined) throw new MalformedPayload({ detail: `envelope fora do contrato em ${outside}` });
  return json as unknown as E;
};
