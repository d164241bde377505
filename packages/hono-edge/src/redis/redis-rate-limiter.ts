import type { Redis } from "ioredis";
import type { BucketOperation, RateDecision, RateLimiterFactory } from "../limits/token-bucket.js";
import { isStoreUnavailable } from "../errors/service-errors.js";
import { silentLogger, type Logger } from "../logging/logger.js";
import { luaScript } from "./lua-runner.js";
import { isRedisConnection, openRedisConnection, type RedisConnection } from "./redis-connection.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";

/**
 * A token bucket in one Redis hash per key (`t` tokens, `at` last update), on the server's clock, so every
 * instance sharing the Redis counts against the same budget. KEYS: the bucket. ARGV: capacity, tokens per
 * second, and the operation (`take` when absent; `peek`, `refund`, `drain`: see `TokenBuckets`). Returns
 * `{1}` when a token is there (taken by `take`), `{0, ms}` with the wait until the next one. The bucket
 * expires once it would be full again (an absent bucket is a full one); `peek` writes nothing.
 */
export const TAKE_TOKEN = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2]) / 1000
local f = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = capacity
if f[1] then tokens = math.min(capacity, tonumber(f[1]) + math.max(0, now - tonumber(f[2])) * rate) end
local op = ARGV[3] or 'take'
local ok = 0
if tokens >= 1 then ok = 1 end
local after = tokens
if op == 'take' and ok == 1 then after = tokens - 1
elseif op == 'refund' then after = math.min(capacity, tokens + 1)
elseif op == 'drain' then after = 0 end
if op ~= 'peek' then
  redis.call('HSET', KEYS[1], 't', tostring(after), 'at', now)
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - after) / rate) + 1000)
end
if ok == 1 then return {1} end
return {0, math.ceil((1 - tokens) / rate)}`;

/** Options of {@link redisRateLimiters}. */
export interface RedisRateLimitersOptions {
  /**
   * The Redis: the {@link RedisConnection} the session store runs on (`openRedisConnection`, or the store's
   * `connection`), so that both share one view of Redis's availability; or an ioredis client (the caller
   * keeps and closes it), which then gets an availability view of its own.
   */
  readonly redis: Redis | RedisConnection;
  /** Prefix of the buckets' keys (the deployment's, e.g. `voar:`); buckets live under `<prefix>rate:<budget>:`. */
  readonly keyPrefix?: string | undefined;
  /**
   * The limiters used while Redis cannot answer (e.g. in-memory ones): the limits then hold per instance
   * instead of failing every request. Default: none (the `StoreUnavailable` propagates: 503).
   */
  readonly fallback?: RateLimiterFactory | undefined;
  /** Where the switches to and from the fallback are reported. Default: nowhere. */
  readonly logger?: Logger | undefined;
  /** Counts each decision taken by the fallback (`voar_store_fallbacks_total{kind="rate_limit"}`). */
  readonly metrics?: ServiceMetrics | undefined;
}

/**
 * Rate limiters on Redis, shared by every instance of the service: one token bucket per budget and key,
 * taken (or looked at, refunded, drained) atomically by a Lua script on the server's clock. Each budget has its own keys, and Redis expires
 * a bucket once it is full again, so no kind of key can push another out.
 *
 * Every take goes through the Redis's availability view: while Redis is down or frozen it goes to the
 * fallback at once (no request waits on Redis for its limits), and a take that gets no answer in time does
 * too. The switch is logged once (`rate_limit.fallback`, warn) and so is the way back (`rate_limit.shared`,
 * info, with the takes counted meanwhile), never once per request.
 *
 * @example
 * const app = createApp({ config, sources, store, rateLimiters: redisRateLimiters({ redis: store.connection, fallback: memoryRateLimiters(systemClock) }) });
 */
export const redisRateLimiters = (options: RedisRateLimitersOptions): RateLimiterFactory => {
  const connection = isRedisConnection(options.redis) ? options.redis : openRedisConnection(options.redis);
  const script = luaScript(connection.client, TAKE_TOKEN);
  const prefix = `${options.keyPrefix ?? "voar:"}rate:`;
  const logger = options.logger ?? silentLogger;
  /** Takes answered by the fallback since the switch; undefined while Redis answers them. */
  let fallbackTakes: number | undefined;
  return (name, settings) => {
    const fallback = options.fallback?.(name, settings);
    const run = async (op: BucketOperation, key: string): Promise<RateDecision> => {
      let reply: [number, number?];
      try {
        reply = (await connection.guard.run(() => script.run([`${prefix}${name}:${key}`], [settings.capacity, settings.refillPerSecond, op]))) as [number, number?];
      } catch (e) {
        if (!fallback || !isStoreUnavailable(e)) throw e;
        if (fallbackTakes === undefined) {
          fallbackTakes = 0;
          logger.log({ level: "warn", msg: "rate_limit.fallback", budget: name, error: e.message, detail: "limits count per instance until Redis answers" });
        }
        fallbackTakes += 1;
        options.metrics?.storeFallback("rate_limit");
        return op === "take" || op === "peek" ? fallback[op](key) : fallback[op](key).then(() => ({ ok: true }) as const);
      }
      if (fallbackTakes !== undefined) {
        logger.log({ level: "info", msg: "rate_limit.shared", fallbackTakes });
        fallbackTakes = undefined;
      }
      if (reply[0] === 1) return { ok: true };
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(reply[1] ?? 1_000) / 1_000)) };
    };
    return {
      take: (key) => run("take", key),
      peek: (key) => run("peek", key),
      refund: async (key) => void (await run("refund", key)),
      drain: async (key) => void (await run("drain", key)),
    };
  };
};
