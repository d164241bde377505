import * as z from "zod";

/**
 * How the service protects the upstream it pays for: a breaker per airline (and per OTA comparison) and a
 * budget of upstream requests per search. See the hono-edge README, "Upstream protection".
 */

/** A breaker per upstream source: after repeated failures the source is not asked for a cool-down, then probed. */
export const UpstreamBreakerSchema = z
  .strictObject({
    /** Breakers on. Off, every search asks every airline, however often it just failed. Default true. */
    enabled: z.boolean().default(true),
    /** Failed requests in a row (network errors, timeouts, 5xx, 429; not refusals) that open an airline's breaker. Default 3. */
    failureThreshold: z.int().min(1).max(100).default(3),
    /** How long an open breaker keeps its airline from being asked, in ms, before one probe goes. Default 30 000. */
    cooldownMs: z.int().min(1_000).max(3_600_000).default(30_000),
  })
  .default({ enabled: true, failureThreshold: 3, cooldownMs: 30_000 });

/** A budget of upstream requests per search, over all its airlines: past it, the sources still running stop. */
export const UpstreamBudgetSchema = z
  .strictObject({
    /** Budget on. Default true. */
    enabled: z.boolean().default(true),
    /** Requests one search may make in all, over its airlines (the OTA comparison has a budget of its own). Default: `requestsPerSource` times the airlines. */
    requestsPerSearch: z.int().min(1).max(100_000).optional(),
    /** Each source's share of the default budget. Default 32 (a search of a minute and a half, polled with backoff, makes about 15). */
    requestsPerSource: z.int().min(1).max(1_000).default(32),
  })
  .default({ enabled: true, requestsPerSource: 32 });

/** The breakers as configured (validated). */
export type UpstreamBreakerConfig = z.output<typeof UpstreamBreakerSchema>;
/** The budget as configured (validated). */
export type UpstreamBudgetConfig = z.output<typeof UpstreamBudgetSchema>;
