import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";

/** The header that carries the real status of an answer sent as 200 to a legacy client. */
export const REAL_STATUS_HEADER = "X-Voar-Status";

/**
 * For a caller whose `compat` is `"legacy"`: every answer is HTTP 200, errors included, as the legacy API
 * answered. Its clients (axios, which rejects any non-2xx) read `Success: false` and `Erro` in the body, and
 * would otherwise lose the body of a 400 or 429. The envelope is unchanged; the real status goes in
 * `X-Voar-Status` (and `Retry-After` stays). Placed after authentication: a request whose credential fails
 * has no known caller, so it still answers 401 (as the legacy API did; axios interceptors renew the token on it).
 */
export const legacyStatus = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  const status = c.res.status;
  // A 304 is no error: it answers a client that asked for it (If-None-Match), legacy or not.
  if (c.get("principal").compat !== "legacy" || status === 200 || status === 304) return;
  const res = new Response(c.res.body, { status: 200, headers: c.res.headers });
  res.headers.set(REAL_STATUS_HEADER, String(status));
  c.res = res;
  c.set("realStatus", status);
};
