/**
 * What the service says of its logins to the upstream: one log line per change of their state, and the
 * `upstream` member of `/ready`. A refused credential is a configuration problem: said loudly (`error`, and
 * `/ready` answering 503 so that a rollout with a wrong password stops there); a failing `/Token` is the
 * upstream's passing trouble (`warn`, `/ready` still 200, saying when the next login may go).
 */
import type { LoginState, PaceState } from "@voar/http-adapter/fetch";
import type { Logger } from "../logging/logger.js";

/** Where an operator fixes a refused credential. */
const FIX = "configuração: verifique upstream.username e upstream.password (VOAR_UPSTREAM_USERNAME, VOAR_UPSTREAM_PASSWORD) ou a conta no fornecedor";

/** Logs each change of the logins' state once: `upstream.credentials_refused` (error), `upstream.login_failing` (warn), `upstream.login_ok` (info). */
export const logLoginState =
  (logger: Logger) =>
  (s: LoginState): void => {
    if (s.state === "refused") logger.log({ level: "error", msg: "upstream.credentials_refused", detail: s.detail, fix: FIX });
    else if (s.state === "failing") logger.log({ level: "warn", msg: "upstream.login_failing", detail: s.detail, ...(s.retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(s.retryAfterMs / 1000) }) });
    else logger.log({ level: "info", msg: "upstream.login_ok" });
  };

/** The `upstream` member of `/ready`, when the logins are not fine; and whether the instance is still ready. */
export const loginReadiness = (s: LoginState): { readonly ready: boolean; readonly upstream?: Readonly<Record<string, unknown>> } => {
  switch (s.state) {
    case "ok":
      return { ready: true };
    case "failing":
      return { ready: true, upstream: { login: "failing", detail: s.detail, ...(s.retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(s.retryAfterMs / 1000) }) } };
    case "refused":
      return { ready: false, upstream: { login: "refused", detail: s.detail, fix: FIX } };
  }
};

/**
 * The `upstream` member of `/ready` for an upstream slower than the plain client's pace (its answers take over 10 s):
 * still ready (every instance asks the same upstream; taking one out of rotation would not help), but said, with how
 * long its answers take.
 */
export const paceReadiness = (p: PaceState): Readonly<Record<string, unknown>> | undefined =>
  p.slow ? { pace: "slow", answerMs: p.answerMs, detail: "o fornecedor leva mais de 10 s para responder" } : undefined;
