import * as Data from "effect/Data";

/** A source did not produce its next batch in time. Retryable. */
export class SourceTimeout extends Data.TaggedError("SourceTimeout")<{
  readonly afterMs: number;
}> {
  override get message() {
    return `sem resposta em ${this.afterMs} ms`;
  }
}

/** The connection failed (refused, reset, DNS, TLS, truncated body). Retryable. */
export class TransportError extends Data.TaggedError("TransportError")<{
  readonly detail: string;
}> {
  override get message() {
    return `falha de comunicação: ${this.detail}`;
  }
}

/** The upstream answered with an HTTP error status. Retryable for 408 and 5xx. */
export class HttpStatusError extends Data.TaggedError("HttpStatusError")<{
  readonly status: number;
}> {
  override get message() {
    return `o fornecedor respondeu HTTP ${this.status}`;
  }
}

/** The upstream asked us to slow down (HTTP 429). Retryable after `retryAfterMs`. */
export class RateLimited extends Data.TaggedError("RateLimited")<{
  readonly retryAfterMs?: number | undefined;
}> {
  override get message() {
    return this.retryAfterMs === undefined
      ? "limite de requisições do fornecedor excedido"
      : `limite de requisições do fornecedor excedido; tentar de novo em ${Math.ceil(this.retryAfterMs / 1000)} s`;
  }
}

/** The answer could not be read as the contract says. Not retryable. */
export class MalformedPayload extends Data.TaggedError("MalformedPayload")<{
  readonly detail: string;
}> {
  override get message() {
    return `resposta inválida do fornecedor: ${this.detail}`;
  }
}

/** The upstream answered `Success: false` with a message of its own. Not retryable. */
export class BusinessError extends Data.TaggedError("BusinessError")<{
  readonly detail: string;
}> {
  override get message() {
    return this.detail;
  }
}

/** The upstream refused our credentials even after a fresh login. Not retryable. */
export class AuthError extends Data.TaggedError("AuthError")<{
  readonly detail: string;
}> {
  override get message() {
    return `credenciais recusadas pelo fornecedor: ${this.detail}`;
  }
}

/**
 * The upstream refused the search because the agency (our credentials) is not allowed to make it: a 403,
 * or `Success: false` with a message about permission. Not retryable: the same request is refused again
 * until someone grants the permission. `detail` is the upstream's clean message, for the service's log only.
 */
export class PermissionDenied extends Data.TaggedError("PermissionDenied")<{
  readonly detail: string;
}> {
  override get message() {
    return `permissão negada pelo fornecedor: ${this.detail}`;
  }
}

/**
 * The source was not asked: its upstream failed repeatedly and its breaker is open for a cool-down (shared by
 * every search, and by every instance when the breaker's state is shared). Retryable later, not at once: the
 * engine does not retry it within the search (see {@link retriesWithinSearch}); `retryAfterMs` is what is
 * left of the cool-down when it is known.
 */
export class SourceUnavailable extends Data.TaggedError("SourceUnavailable")<{
  readonly retryAfterMs?: number | undefined;
}> {
  override get message() {
    return this.retryAfterMs === undefined
      ? "fornecedor indisponível: não consultado (disjuntor aberto)"
      : `fornecedor indisponível: não consultado (disjuntor aberto por mais ${Math.ceil(this.retryAfterMs / 1000)} s)`;
  }
}

/**
 * The search spent its budget of upstream requests (`limit`): the source stopped before it finished. A new
 * search has a budget of its own, so it is retryable later, never within the search. `scope` says whose
 * budget it was: the search's own (default), or that of the price calendar the search is a day of.
 */
export class RequestBudgetExhausted extends Data.TaggedError("RequestBudgetExhausted")<{
  readonly limit: number;
  readonly scope?: "search" | "calendar" | undefined;
}> {
  override get message() {
    return `limite de ${this.limit} requisições ao fornecedor por ${this.scope === "calendar" ? "calendário" : "busca"} atingido`;
  }
}

/** Every way a source can fail. */
export type SourceError =
  | SourceTimeout
  | TransportError
  | HttpStatusError
  | RateLimited
  | MalformedPayload
  | BusinessError
  | AuthError
  | PermissionDenied
  | SourceUnavailable
  | RequestBudgetExhausted;

/** The tag of a {@link SourceError}. */
export type SourceErrorTag = SourceError["_tag"];

const TAGS: ReadonlySet<string> = new Set<SourceErrorTag>([
  "SourceTimeout",
  "TransportError",
  "HttpStatusError",
  "RateLimited",
  "MalformedPayload",
  "BusinessError",
  "AuthError",
  "PermissionDenied",
  "SourceUnavailable",
  "RequestBudgetExhausted",
]);

/** True when a value is one of the tagged {@link SourceError}s. */
export const isSourceError = (u: unknown): u is SourceError =>
  typeof u === "object" && u !== null && "_tag" in u && TAGS.has((u as { _tag: string })._tag);

/** Whether a retry may succeed: decided from the tag and fields, never from message text. */
export const isRetryable = (e: SourceError): boolean => {
  switch (e._tag) {
    case "SourceTimeout":
    case "TransportError":
    case "RateLimited":
    case "SourceUnavailable":
    case "RequestBudgetExhausted":
      return true;
    case "HttpStatusError":
      return e.status === 408 || e.status >= 500;
    case "MalformedPayload":
    case "BusinessError":
    case "AuthError":
    case "PermissionDenied":
      return false;
  }
};

/**
 * Whether to try again within the same search: a retryable failure, unless the source itself declined to be
 * asked (its breaker is open, or the search's budget of upstream requests is spent): asking again at once
 * would only be declined again, or spend what the budget is there to save.
 */
export const retriesWithinSearch = (e: SourceError): boolean =>
  isRetryable(e) && e._tag !== "SourceUnavailable" && e._tag !== "RequestBudgetExhausted";

/**
 * Turns anything a source threw into a {@link SourceError}. A source should throw tagged errors;
 * anything else is a bug in the source, reported as a transport failure without its stack.
 */
export const toSourceError = (u: unknown): SourceError => {
  if (isSourceError(u)) return u;
  const detail = u instanceof Error ? `${u.name}: ${u.message}` : String(u);
  return new TransportError({ detail: detail.split("\n")[0]!.slice(0, 200) });
};
