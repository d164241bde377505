import type { Clock } from "../clock.js";

/** The verdict of a rate limiter on one request. */
export type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/** Counts requests per key (a tenant); async so that a shared implementation (e.g. Redis) fits the same port. */
export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
}

/**
 * Token buckets per key with every operation the login limits need besides `take`: counting only failed
 * logins means looking before the password is checked, counting after it, and giving back what a success
 * does not owe. Every operation is atomic per key (one Lua script on Redis).
 */
export interface TokenBuckets extends RateLimiter {
  /** What `take` would answer now, without taking a token. */
  peek(key: string): Promise<RateDecision>;
  /** Gives one token back (up to the capacity): a taken token the request turned out not to owe. */
  refund(key: string): Promise<void>;
  /** Empties the bucket: it fills again at the refill rate, from now (a mark that lasts `1 / refillPerSecond`). */
  drain(key: string): Promise<void>;
}

/** One operation on a bucket: see {@link TokenBuckets}. */
export type BucketOperation = "take" | "peek" | "refund" | "drain";

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

/** A bucket's state: its tokens at a time (ms). */
export interface Bucket {
  readonly tokens: number;
  readonly at: number;
}

/**
 * One operation on a bucket at `now`, pure: the decision, and the bucket after it (`undefined` when unchanged, for
 * `peek`). An absent bucket is a full one. The same arithmetic as the Redis script (`TAKE_TOKEN`).
 */
export const stepBucket = (prior: Bucket | undefined, op: BucketOperation, settings: BucketSettings, now: number): { readonly decision: RateDecision; readonly after: Bucket | undefined } => {
  const tokens = prior ? Math.min(settings.capacity, prior.tokens + (Math.max(0, now - prior.at) / 1000) * settings.refillPerSecond) : settings.capacity;
  const ok = tokens >= 1;
  const after = op === "peek" ? undefined : { tokens: op === "take" ? (ok ? tokens - 1 : tokens) : op === "refund" ? Math.min(settings.capacity, tokens + 1) : 0, at: now };
  const decision: RateDecision = ok ? { ok: true } : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / settings.refillPerSecond)) };
  return { decision, after };
};

/**
 * An in-memory token bucket per key, on an injected clock: each request takes one token, tokens come
 * back at a steady rate up to the capacity, and an empty bucket answers how many whole seconds until the
 * next token (`Retry-After`, at least 1).
 *
 * @example
 * const limiter = createTokenBucketLimiter({ capacity: 60, refillPerSecond: 5, clock: systemClock });
 * const d = await limiter.take("apikey:acme");
 */
export const createTokenBucketLimiter = (options: TokenBucketOptions): TokenBuckets => {
  const buckets = new Map<string, Bucket>();
  const maxKeys = options.maxKeys ?? 10_000;
  const apply = (key: string, op: BucketOperation): RateDecision => {
    const { decision, after } = stepBucket(buckets.get(key), op, options, options.clock.now());
    if (after) {
      // Re-inserting keeps the map in least-recently-seen order, so the oldest key is the first one.
      buckets.delete(key);
      buckets.set(key, after);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
    }
    return decision;
  };
  return {
    take: (key) => Promise.resolve(apply(key, "take")),
    peek: (key) => Promise.resolve(apply(key, "peek")),
    refund: (key) => Promise.resolve(void apply(key, "refund")),
    drain: (key) => Promise.resolve(void apply(key, "drain")),
  };
};

/**
 * Which budget a limiter counts: the tenants' requests; failed logins per client address, per username and
 * address (short-term and sustained) and per username from every address (short-term and sustained);
 * successful logins per username and address; and the mark of an address a username logged in from.
 */
export type LimitName =
  | "tenant"
  | "login-client"
  | "login-account"
  | "login-account-sustained"
  | "login-account-all"
  | "login-account-all-sustained"
  | "login-success"
  | "login-known"
  // Refused credentials per client address (`limits.refusedKeys`).
  | "refused-keys"
  // The price watches' (`alerts/`): a tenant's checks per hour, and the upstream requests their checks may spend.
  | "alert-checks"
  | "alert-budget";

/** Size and refill of one budget. */
export interface BucketSettings {
  readonly capacity: number;
  readonly refillPerSecond: number;
}

/**
 * Makes the limiter of each budget. Each budget has its own keys, so that one kind of key can never evict
 * another's (unauthenticated login attempts cannot reset a tenant's budget).
 */
export type RateLimiterFactory = (name: LimitName, settings: BucketSettings) => TokenBuckets;

/**
 * In-memory token buckets, one set of keys per budget (this instance only). Login budgets remember more keys
 * (100 000), as their keys come from unauthenticated callers; forgetting one only lets that key start full.
 */
export const memoryRateLimiters =
  (clock: Clock): RateLimiterFactory =>
  (name, settings) =>
    createTokenBucketLimiter({ ...settings, clock, maxKeys: name === "tenant" ? 10_000 : 100_000 });
