/**
 * Faults the fake upstream injects into its search answers, by the number of the request: the failures a
 * real upstream shows (refusals with HTTP 200, 5xx with stack traces, 429, tokens revoked mid-search,
 * slow answers, truncated bodies, dropped connections, an upstream that dies for good).
 */
import { businessErrorBody, rateLimitedBody, serverErrorBody, tokenErrorBody, unauthorizedBody } from "./real-shapes.js";
import type { UpstreamReply } from "./upstream-reply.js";

/** One kind of fault. */
export type Fault =
  /** HTTP 5xx with an ASP.NET exception body. */
  | { readonly kind: "status"; readonly status: number }
  /** HTTP 429 with `Retry-After` in seconds. */
  | { readonly kind: "rate-limit"; readonly retryAfterS: number }
  /** HTTP 200, `Success: false`, the message and .NET exception objects with a stack trace. */
  | { readonly kind: "business-error"; readonly message: string }
  /** Every issued token is revoked: this request and later ones with an old token get 401. */
  | { readonly kind: "revoke-tokens" }
  /** The connection drops before any answer. */
  | { readonly kind: "reset" }
  /** The real answer, cut halfway through its body. */
  | { readonly kind: "truncate" }
  /** The real answer, late. */
  | { readonly kind: "slow"; readonly delayMs: number }
  /** HTTP 400 `{"error": "invalid_grant"}`: the credentials refused (a login's fault). */
  | { readonly kind: "invalid-grant" };

/**
 * A fault on search requests number `at` (1-based, counting authenticated `Consultar` requests; or logins,
 * counting `POST /Token` requests, in `loginFaults`) through `through` (default `at`; `"end"` for every later
 * one: the upstream dies).
 */
export interface FaultRule {
  readonly at: number;
  readonly through?: number | "end" | undefined;
  readonly fault: Fault;
}

/** The fault for request number `n`, if any (the first matching rule). */
export const faultAt = (rules: readonly FaultRule[], n: number): Fault | undefined =>
  rules.find((r) => n >= r.at && (r.through === "end" || n <= (r.through ?? r.at)))?.fault;

/** Whether a fault replaces the answer entirely (the search is not consulted). */
export const replacesAnswer = (fault: Fault): boolean =>
  fault.kind === "status" || fault.kind === "rate-limit" || fault.kind === "business-error" || fault.kind === "revoke-tokens" || fault.kind === "invalid-grant";

/** The reply of a fault that replaces the answer. */
export const faultReply = (fault: Fault): UpstreamReply => {
  switch (fault.kind) {
    case "status":
      return { status: fault.status, json: serverErrorBody(fault.status) };
    case "rate-limit":
      return { status: 429, headers: { "retry-after": String(fault.retryAfterS) }, json: rateLimitedBody };
    case "business-error":
      return { status: 200, json: businessErrorBody(fault.message) };
    case "revoke-tokens":
      return { status: 401, headers: { "www-authenticate": "Bearer" }, json: unauthorizedBody, revokeTokens: true };
    case "invalid-grant":
      return { status: 400, json: tokenErrorBody("invalid_grant", "O nome de usuário ou a senha está incorreto.") };
    case "reset":
    case "truncate":
    case "slow":
      throw new RangeError(`fault ${fault.kind} changes the real answer; it does not replace it`);
  }
};

/** Applies a fault that changes the real answer (reset, truncate, slow). */
export const alterReply = (fault: Fault, reply: UpstreamReply): UpstreamReply => {
  switch (fault.kind) {
    case "reset":
      return { ...reply, fault: "reset" };
    case "truncate":
      return { ...reply, fault: "truncated" };
    case "slow":
      return { ...reply, delayMs: (reply.delayMs ?? 0) + fault.delayMs };
    default:
      return faultReply(fault);
  }
};
