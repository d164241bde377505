import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../app/app-env.js";
import type { ServiceConfig } from "../config/config-schema.js";
import { writeAnswerHeaders } from "../http/answer-headers.js";
import { REAL_STATUS_HEADER } from "./legacy-status.js";

/** Request headers a page of another origin may send: what polling, streaming and the admin routes read. */
const ALLOW_HEADERS = ["Authorization", "Content-Type", "If-None-Match", "Last-Event-ID", "X-Admin-Key", "X-Request-Id"];
/** Answer headers its scripts may read. */
const EXPOSE_HEADERS = ["ETag", "Retry-After", "X-Request-Id", "WWW-Authenticate", REAL_STATUS_HEADER];

/**
 * Cross-origin access for the configured origins (`config.cors.origins`: a list, or `"*"`), or `undefined`
 * when none is configured (same-origin only). Preflights (`OPTIONS`) are answered by Hono's `cors`
 * middleware. Any other request gets its CORS headers once its answer exists (`writeAnswerHeaders`): Hono's
 * middleware sets them on a provisional answer before the route runs, and Hono then copies the route's answer
 * into a new one to merge them, its body through a Web stream: with CORS on, a cached poll took about twice
 * as long on Node.
 */
export const corsPolicy = (config: ServiceConfig["cors"]): MiddlewareHandler<AppEnv> | undefined => {
  const { origins } = config;
  if (origins !== "*" && origins.length === 0) return undefined;
  const preflight = cors({
    origin: origins === "*" ? "*" : [...origins],
    allowMethods: ["GET", "POST", "PUT", "OPTIONS"],
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: config.maxAgeSeconds,
  });
  const expose = EXPOSE_HEADERS.join(",");
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return preflight(c, next);
    await next();
    const origin = c.req.header("origin");
    const allowed = origins === "*" ? "*" : origin !== undefined && origins.includes(origin) ? origin : undefined;
    writeAnswerHeaders(c, (headers) => {
      if (allowed !== undefined) headers.set("Access-Control-Allow-Origin", allowed);
      headers.set("Access-Control-Expose-Headers", expose);
      // The answer depends on the Origin asked (another origin gets no Allow-Origin): caches must keep them apart.
      if (origins !== "*") headers.append("Vary", "Origin");
    });
  };
};
