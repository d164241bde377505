import type { Clock } from "../clock.js";

/** The verdict of a rate limiter on one request. */
export type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/** Counts requests per key (a tenant); async so that a shared implementation (e.g. Redis) fits the same port. */
export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
}

/** Options of {@link createTokenBucketLimiter}. */
export interface TokenBucketOptions {
  /** Requests allowed in a burst (bucket size). */
  readonly capacity: number;
  /** Tokens added back per second. */
  readonly refillPerSecond: number;
  readonly clock: Clock;
  /** Keys remembered at once; the least recently seen is forgotten beyond it (it then starts full). Default 10 000. */
  readonly maxKeys?: number | undefined;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * An in-memory token bucket per key, on an injected clock: each request takes one token, tokens come
 * back at a steady rate up to the capacity, and an empty bucket answers how many whole seconds until the
 * next token (`Retry-After`, at least 1).
 *
 * @example
 * const limiter = createTokenBucketLimiter({ capacity: 60, refillPerSecond: 5, clock: systemClock });
 * const d = await limiter.take("apikey:acme");
 */
export const createTokenBucketLimiter = (options: TokenBucketOptions): RateLimiter => {
  const buckets = new Map<string, Bucket>();
  const maxKeys = options.maxKeys ?? 10_000;
  return {
    take(key) {
      const now = options.clock.now();
      const prior = buckets.get(key);
      const bucket: Bucket = prior
        ? { tokens: Math.min(options.capacity, prior.tokens + (Math.max(0, now - prior.at) / 1000) * options.refillPerSecond), at: now }
        : { tokens: options.capacity, at: now };
      // Re-inserting keeps the map in least-recently-seen order, so the oldest key is the first one.
      buckets.delete(key);
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return Promise.resolve({ ok: true });
      }
      const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / options.refillPerSecond));
      return Promise.resolve({ ok: false, retryAfterSeconds: seconds });
    },
  };
};

/** Which budget a limiter counts: the tenants' requests, or login attempts per client / per account. */
export type LimitName = "tenant" | "login-client" | "login-account" | "login-account-sustained";

/** Size and refill of one budget. */
export interface BucketSettings {
  readonly capacity: number;
  readonly refillPerSecond: number;
}

/**
 * Makes the limiter of each budget. Each budget has its own keys, so that one kind of key can never evict
 * another's (unauthenticated login attempts cannot reset a tenant's budget).
 */
export type RateLimiterFactory = (name: LimitName, settings: BucketSettings) => RateLimiter;

/**
 * In-memory token buckets, one set of keys per budget (this instance only). Login budgets remember more keys
 * (100 000), as their keys come from unauthenticated callers; forgetting one only lets that key start full.
 */
export const memoryRateLimiters =
  (clock: Clock): RateLimiterFactory =>
  (name, settings) =>
    createTokenBucketLimiter({ ...settings, clock, maxKeys: name === "tenant" ? 10_000 : 100_000 });
