import type { Redis } from "ioredis";
import { memoryBreakerStore, type Admission, type BreakerSettings, type BreakerState, type BreakerStore, type RequestOutcome } from "@voar/http-adapter/fetch";
import { isStoreUnavailable } from "../errors/service-errors.js";
import { silentLogger, type Logger } from "../logging/logger.js";
import { luaScript } from "./lua-runner.js";
import { isRedisConnection, openRedisConnection, type RedisConnection } from "./redis-connection.js";

/**
 * Admits a request of one source: the adapter's `admitTransition` (`@voar/http-adapter`, breaker-state.ts)
 * as one atomic step on the breaker's hash (`s` state, `f` failures in a row, `o` opened at, `p` probe let
 * through at). KEYS: the hash. ARGV: cool-down, probe timeout, now (ms), time to live. Returns
 * `{allowed 1|0, state, retry after ms}`.
 */
export const ADMIT = `local h = redis.call('HMGET', KEYS[1], 's', 'o', 'p')
local s = h[1] or 'closed'
if s == 'closed' then return {1, s, 0} end
local now = tonumber(ARGV[3])
if s == 'open' then
  local left = tonumber(h[2] or '0') + tonumber(ARGV[1]) - now
  if left > 0 then return {0, s, left} end
  redis.call('HSET', KEYS[1], 's', 'half-open', 'p', now)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {1, 'half-open', 0}
end
local p = tonumber(h[3] or '0')
local left = 0
if p ~= 0 then left = p + tonumber(ARGV[2]) - now end
if left > 0 then return {0, s, left} end
redis.call('HSET', KEYS[1], 'p', now)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, s, 0}`;

/**
 * Records how an admitted request ended: the adapter's `recordTransition` as one atomic step. KEYS: the
 * hash. ARGV: outcome (`success`, `failure`, `cancelled`), failure threshold, now (ms), time to live.
 * Returns the state after it. A breaker closed without failures is no key at all.
 */
export const RECORD = `local h = redis.call('HMGET', KEYS[1], 's', 'f')
local s = h[1] or 'closed'
if ARGV[1] == 'success' then
  redis.call('DEL', KEYS[1])
  return 'closed'
end
if ARGV[1] == 'cancelled' then
  if s == 'half-open' then redis.call('HSET', KEYS[1], 'p', 0) end
  return s
end
if s == 'open' then return s end
local f = tonumber(h[2] or '0') + 1
if s == 'half-open' or f >= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 's', 'open', 'f', 0, 'o', ARGV[3], 'p', 0)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return 'open'
end
redis.call('HSET', KEYS[1], 's', 'closed', 'f', f)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 'closed'`;

/** Options of {@link redisBreakerStore}. */
export interface RedisBreakerStoreOptions {
  /** The Redis: the {@link RedisConnection} the session store runs on (one availability view), or an ioredis client. */
  readonly redis: Redis | RedisConnection;
  /** Prefix of the breakers' keys (the deployment's, its fingerprint in it); breakers live under `<prefix>breaker:<source id>`. */
  readonly keyPrefix?: string | undefined;
  /** The store used while Redis cannot answer. Default: breakers in this process's memory. */
  readonly fallback?: BreakerStore | undefined;
  /** Where the switches to and from the fallback are reported. Default: nowhere. */
  readonly logger?: Logger | undefined;
}

/**
 * The breakers of the upstream's sources on Redis, shared by every instance of the deployment: an airline
 * one instance found down is not asked by the others either, and only one of them probes it when the
 * cool-down is over. Each step is one Lua script on the breaker's hash, so instances never race.
 *
 * Every call goes through the Redis's availability view: while Redis is down or frozen the breakers live
 * in this process's memory (the `fallback`) instead of holding up an upstream request; the switch is logged
 * once (`breaker.fallback`, warn) and so is the way back (`breaker.shared`, info).
 *
 * @example
 * const breakers = redisBreakerStore({ redis: store.connection, keyPrefix });
 * const upstream = upstreamSourcesFor(config.upstream, await import("@voar/http-adapter"), { breakerStore: breakers });
 */
export const redisBreakerStore = (options: RedisBreakerStoreOptions): BreakerStore => {
  const connection = isRedisConnection(options.redis) ? options.redis : openRedisConnection(options.redis);
  const admitScript = luaScript(connection.client, ADMIT);
  const recordScript = luaScript(connection.client, RECORD);
  const prefix = `${options.keyPrefix ?? "voar:"}breaker:`;
  const fallback = options.fallback ?? memoryBreakerStore();
  const logger = options.logger ?? silentLogger;
  let fallingBack = false;
  // An open breaker outlives its cool-down (a half-open one its probe) long enough to be read; a closed one
  // with a few failures is forgotten after that too.
  const ttlOf = (s: BreakerSettings) => 2 * (s.cooldownMs + s.probeTimeoutMs) + 60_000;

  const onRedis = async <T>(call: () => Promise<T>, instead: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await connection.guard.run(call);
    } catch (e) {
      if (!isStoreUnavailable(e)) throw e;
      if (!fallingBack) {
        fallingBack = true;
        logger.log({ level: "warn", msg: "breaker.fallback", error: e.message, detail: "upstream breakers are kept per instance until Redis answers" });
      }
      return instead();
    }
    if (fallingBack) {
      fallingBack = false;
      logger.log({ level: "info", msg: "breaker.shared" });
    }
    return result;
  };

  return {
    admit: (key, settings, now) =>
      onRedis(
        async (): Promise<Admission> => {
          const [allowed, state, left] = (await admitScript.run([`${prefix}${key}`], [settings.cooldownMs, settings.probeTimeoutMs, now, ttlOf(settings)])) as [number, BreakerState, number];
          return allowed === 1 ? { allowed: true, state } : { allowed: false, state, retryAfterMs: Number(left) };
        },
        () => fallback.admit(key, settings, now),
      ),
    record: (key, outcome: RequestOutcome, settings, now) =>
      onRedis(
        async () => (await recordScript.run([`${prefix}${key}`], [outcome, settings.failureThreshold, now, ttlOf(settings)])) as BreakerState,
        () => fallback.record(key, outcome, settings, now),
      ),
  };
};
