import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { Clock } from "../clock.js";
import type { Logger } from "../logging/logger.js";
import { noopMetrics, type ServiceMetrics } from "../telemetry/service-metrics.js";
import { context, endRequestSpan, startRequestSpan, traceIdOf } from "../telemetry/tracing.js";

const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** What {@link requestLog} also reports besides the log line. */
export interface RequestTelemetry {
  readonly metrics: ServiceMetrics;
  /** The route pattern of a path (a bounded label: never a path with an id in it), `unmatched` for none. */
  readonly routeOf: (path: string) => string;
}

const untracked: RequestTelemetry = { metrics: noopMetrics, routeOf: () => "unmatched" };

/**
 * Gives each request its id (the client's `X-Request-Id` when it is a plain short token, else a new
 * UUID), echoes it in the `X-Request-Id` header, and logs one JSON line when the answer is ready: id,
 * method, path (never the query string), status, duration, tenant, and the trace id when tracing records.
 * Never a header value or a body.
 * Only a 500 is logged at `error` (a bug). Every other answer is `info`: a 503 is a refusal the service chose (its
 * store unreachable, a `/ready` probe saying so), a 502 or 504 a search whose sources failed (each failure is
 * logged once by the search, `search.source_failed`, and a search refused at no cost because every breaker was
 * open is no error of the service), a 429 a budget or admission control: what went wrong is logged once where it
 * happened, not once per request that hears of it.
 *
 * The request is also a span (child of the client's `traceparent`, in whose context the handlers run, so
 * a search it starts nests under it) and a metric (count and duration by route pattern and status).
 */
export const requestLog = (logger: Logger, clock: Clock, telemetry: RequestTelemetry = untracked): MiddlewareHandler<AppEnv> => async (c, next) => {
  const started = clock.now();
  c.set("receivedAt", started);
  const offered = c.req.header("x-request-id");
  const requestId = offered !== undefined && CLIENT_ID.test(offered) ? offered : crypto.randomUUID();
  c.set("requestId", requestId);
  // Set before the answer exists, so it is written with it (set after, it would make Hono copy the answer).
  c.header("X-Request-Id", requestId);
  const method = c.req.method;
  const route = telemetry.routeOf(c.req.path);
  const { span, ctx } = startRequestSpan(method, route, c.req.raw.headers);
  c.set("trace", ctx);
  let real = 500;
  try {
    await context.with(ctx, next);
    const res = c.res;
    // A legacy client's error goes out as 200: the log keeps the real status.
    real = c.get("realStatus") ?? res.status;
    const principal = c.get("principal");
    const durationMs = clock.now() - started;
    const traceId = traceIdOf(span);
    logger.log({
      level: real === 500 ? "error" : "info",
      msg: "request",
      requestId,
      method,
      path: c.req.path,
      status: real,
      ...(real === res.status ? {} : { sentStatus: res.status }),
      durationMs,
      ...(principal ? { tenant: principal.tenant } : {}),
      ...(traceId === undefined ? {} : { trace_id: traceId }),
    });
    telemetry.metrics.request(route, method, real, durationMs / 1_000);
  } finally {
    endRequestSpan(span, real);
  }
};
