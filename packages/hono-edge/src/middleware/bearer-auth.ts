import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { bearerToken, type Authenticator } from "../auth/authenticator.js";
import { RateLimitExceeded, Unauthorized } from "../errors/service-errors.js";
import { clientAddressOf, type ClientAddressSource } from "../http/client-address.js";
import type { TokenBuckets } from "../limits/token-bucket.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";

/** The budget of refused credentials per client address (see {@link bearerAuth}). */
export interface RefusedKeysBudget {
  /** A bucket per client address, taken by each refused credential (`limits.refusedKeys`). */
  readonly limiter: TokenBuckets;
  readonly clientAddress: ClientAddressSource;
  readonly metrics?: ServiceMetrics | undefined;
}

/**
 * Requires `Authorization: Bearer <token>` (an API key or an issued token) and sets the principal; 401 otherwise.
 * With `refused`, each refused credential (unknown, expired, malformed, missing) takes a token of its client
 * address's budget, and an address whose budget is spent is answered 429 `LIMITE_EXCEDIDO` (`Retry-After`)
 * before its credential is even looked at: guessing API keys from one address is slowed to the budget's refill.
 * Accepted credentials cost nothing.
 */
export const bearerAuth =
  (auth: Authenticator, refused?: RefusedKeysBudget): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const address = refused && clientAddressOf(c, refused.clientAddress);
    if (refused && address !== undefined) {
      const left = await refused.limiter.peek(address);
      if (!left.ok) {
        refused.metrics?.refused("refused_keys");
        throw new RateLimitExceeded(left.retryAfterSeconds);
      }
    }
    try {
      c.set("principal", await auth.authenticate(bearerToken(c.req.header("authorization"))));
    } catch (e) {
      if (refused && address !== undefined && e instanceof Unauthorized) await refused.limiter.take(address);
      throw e;
    }
    await next();
  };
