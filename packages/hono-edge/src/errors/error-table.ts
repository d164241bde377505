import { errorEnvelope, toWireProgress, type ErrorCode, type ErrorEnvelope, type ErrorStatus, type FieldError } from "@voar/core";
import type { ServiceError, ServiceErrorTag } from "./service-errors.js";

/**
 * HTTP statuses of the service's error answers: the catalogue's, plus 404, 405 and 415 for a request to fix,
 * and 408 and 431 for what the Node server refuses before any route runs.
 */
export type ServiceErrorStatus = ErrorStatus | 404 | 405 | 408 | 415 | 417 | 431;

/** How one service error is answered. */
export interface ErrorMapping {
  /** `Erro.Codigo`, from core's catalogue. */
  readonly codigo: ErrorCode;
  /** HTTP status; the catalogue's status for the code, except where a row says why not. */
  readonly status: ServiceErrorStatus;
}

/**
 * The one typed table from a service error to its HTTP status and `Erro.Codigo` (tRPC style): a new error
 * class does not compile until it has a row here.
 *
 * `RouteNotFound` answers 404 with `REQUISICAO_INVALIDA`: the catalogue (decisions.md) has no "not found"
 * code, and a request to a route that does not exist is a request the client must fix, not a retryable
 * condition. `UnknownSearch` (a well-formed poll of a search that is gone) is 404 `BUSCA_EXPIRADA`, `Campos`
 * naming `Token`/`LeaseId`; `StoreUnavailable` is 503 `INDISPONIVEL` with `Retry-After`.
 *
 * The Node server's own refusals, written before any route runs (`node-rejections.ts`): headers over the
 * limit are 431 `REQUISICAO_INVALIDA` (the same request fails again); a request that did not arrive in time
 * is 408 `TEMPO_ESGOTADO` (the code of running out of time, retryable: sent again, and faster, it may pass);
 * a connection over the per-address cap is 429 `LIMITE_EXCEDIDO` with `Retry-After`; an `Expect` the server does
 * not meet is 417 `REQUISICAO_INVALIDA`. Malformed framing, a bad request target and an HTTP/1.1 request without
 * `Host` are `InvalidRequest` (400); `CONNECT` is `MethodNotAllowed` (405).
 */
export const ERROR_TABLE: { readonly [T in ServiceErrorTag]: ErrorMapping } = {
  InvalidRequest: { codigo: "REQUISICAO_INVALIDA", status: 400 },
  UnknownSearch: { codigo: "BUSCA_EXPIRADA", status: 404 },
  Unauthorized: { codigo: "NAO_AUTORIZADO", status: 401 },
  PayloadTooLarge: { codigo: "CORPO_GRANDE_DEMAIS", status: 413 },
  RateLimitExceeded: { codigo: "LIMITE_EXCEDIDO", status: 429 },
  SearchCapacityReached: { codigo: "LIMITE_EXCEDIDO", status: 429 },
  InstanceOverloaded: { codigo: "LIMITE_EXCEDIDO", status: 429 },
  RouteNotFound: { codigo: "REQUISICAO_INVALIDA", status: 404 },
  StoreUnavailable: { codigo: "INDISPONIVEL", status: 503 },
  MethodNotAllowed: { codigo: "REQUISICAO_INVALIDA", status: 405 },
  UnsupportedMediaType: { codigo: "REQUISICAO_INVALIDA", status: 415 },
  HeadersTooLarge: { codigo: "REQUISICAO_INVALIDA", status: 431 },
  RequestTimeout: { codigo: "TEMPO_ESGOTADO", status: 408 },
  TooManyConnections: { codigo: "LIMITE_EXCEDIDO", status: 429 },
  ExpectationFailed: { codigo: "REQUISICAO_INVALIDA", status: 417 },
  UnknownAlert: { codigo: "REQUISICAO_INVALIDA", status: 404 },
  AlertQuotaReached: { codigo: "LIMITE_EXCEDIDO", status: 429 },
  InternalError: { codigo: "ERRO_INTERNO", status: 500 },
};

/** An error answer ready to send: status, extra headers and the envelope. */
export interface ErrorResponse {
  readonly status: ServiceErrorStatus;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ErrorEnvelope;
}

const detailsOf = (e: ServiceError): { readonly campos?: readonly FieldError[]; readonly mensagem?: string | undefined; readonly retentavel?: boolean } => {
  switch (e._tag) {
    case "UnknownAlert":
      return { campos: e.campos };
    case "AlertQuotaReached":
      // The same request keeps failing until a watch is removed: not retryable, and no Retry-After.
      return { mensagem: e.mensagem, retentavel: false };
    case "InvalidRequest":
      return { campos: e.campos, mensagem: e.mensagem };
    case "UnknownSearch":
    case "UnsupportedMediaType":
      return { campos: e.campos };
    case "ExpectationFailed":
      return { campos: [{ Campo: "Expect", Mensagem: "Só 100-continue é aceito." }], mensagem: e.mensagem };
    case "Unauthorized":
    case "PayloadTooLarge":
    case "RateLimitExceeded":
    case "SearchCapacityReached":
    case "InstanceOverloaded":
    case "RouteNotFound":
    case "MethodNotAllowed":
    case "HeadersTooLarge":
    case "RequestTimeout":
    case "TooManyConnections":
      return { mensagem: e.mensagem };
    case "StoreUnavailable":
    case "InternalError":
      return {};
  }
};

const headersOf = (e: ServiceError): Record<string, string> => {
  switch (e._tag) {
    case "RateLimitExceeded":
    case "StoreUnavailable":
    case "SearchCapacityReached":
    case "TooManyConnections":
    case "InstanceOverloaded":
      return { "Retry-After": String(e.retryAfterSeconds) };
    case "MethodNotAllowed":
      return { Allow: e.allowed.join(", ") };
    case "Unauthorized":
      // RFC 6750: no error code when the request carried no credential at all.
      return { "WWW-Authenticate": e.reason === "missing" ? `Bearer realm="voar"` : `Bearer realm="voar", error="invalid_token"` };
    default:
      return {};
  }
};

/**
 * Writes a service error as the wire's failure envelope (with an empty `Progresso`: no search ran) through {@link ERROR_TABLE} and core's
 * `errorEnvelope` (which supplies `Retentavel` and the default pt-BR message of the code).
 *
 * @example
 * const { status, headers, body } = toErrorResponse(new RateLimitExceeded(3), requestId);
 */
export const toErrorResponse = (e: ServiceError, requestId: string): ErrorResponse => {
  const row = ERROR_TABLE[e._tag];
  const { campos, mensagem, retentavel } = detailsOf(e);
  // `Progresso` is always present (the rule): a request refused before any search has no sources.
  const { body } = errorEnvelope(row.codigo, { requestId, campos, mensagem, retentavel, progresso: toWireProgress(0, [], 0) });
  return { status: row.status, headers: headersOf(e), body };
};
