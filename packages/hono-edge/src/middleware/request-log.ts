import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { Clock } from "../clock.js";
import type { Logger } from "../logging/logger.js";

const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives each request its id (the client's `X-Request-Id` when it is a plain short token, else a new
 * UUID), echoes it in the `X-Request-Id` header, and logs one JSON line when the answer is ready: id,
 * method, path (never the query string), status, duration, tenant. Never a header value or a body.
 * A 500 is logged at `error` (a bug); a 503 is a refusal the service chose (its store unreachable, a
 * `/ready` probe saying so) and is logged as any answer, at `info`: the outage itself is logged once, when
 * it starts and when it ends, not once per request.
 */
export const requestLog = (logger: Logger, clock: Clock): MiddlewareHandler<AppEnv> => async (c, next) => {
  const started = clock.now();
  const offered = c.req.header("x-request-id");
  const requestId = offered !== undefined && CLIENT_ID.test(offered) ? offered : crypto.randomUUID();
  c.set("requestId", requestId);
  // Set before the answer exists, so it is written with it (set after, it would make Hono copy the answer).
  c.header("X-Request-Id", requestId);
  await next();
  const res = c.res;
  // A legacy client's error goes out as 200: the log keeps the real status.
  const real = c.get("realStatus") ?? res.status;
  const principal = c.get("principal");
  logger.log({
    level: real >= 500 && real !== 503 ? "error" : "info",
    msg: "request",
    requestId,
    method: c.req.method,
    path: c.req.path,
    status: real,
    ...(real === res.status ? {} : { sentStatus: res.status }),
    durationMs: clock.now() - started,
    ...(principal ? { tenant: principal.tenant } : {}),
  });
};
