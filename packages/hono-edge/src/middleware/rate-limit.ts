import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { RateLimitExceeded } from "../errors/service-errors.js";
import type { RateLimiter } from "../limits/token-bucket.js";
import { noopMetrics, type ServiceMetrics } from "../telemetry/service-metrics.js";

/**
 * Counts each request against its tenant's budget (after authentication, so the key is the tenant, not
 * the token: issuing new tokens does not reset it); 429 `LIMITE_EXCEDIDO` with `Retry-After` when spent.
 */
export const rateLimit = (limiter: RateLimiter, metrics: ServiceMetrics = noopMetrics): MiddlewareHandler<AppEnv> => async (c, next) => {
  const decision = await limiter.take(c.get("principal").tenant);
  if (!decision.ok) {
    metrics.refused("tenant");
    throw new RateLimitExceeded(decision.retryAfterSeconds);
  }
  await next();
};
