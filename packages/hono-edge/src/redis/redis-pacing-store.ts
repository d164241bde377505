import type { Redis } from "ioredis";
import { memoryPacingStore, type PacingEntry, type PacingStore } from "@voar/http-adapter/fetch";
import { isStoreUnavailable } from "../errors/service-errors.js";
import { silentLogger, type Logger } from "../logging/logger.js";
import { isRedisConnection, openRedisConnection, type RedisConnection } from "./redis-connection.js";

/** Options of {@link redisPacingStore}. */
export interface RedisPacingStoreOptions {
  /** The Redis: the {@link RedisConnection} the session store runs on (one availability view), or an ioredis client. */
  readonly redis: Redis | RedisConnection;
  /** Prefix of the keys (the deployment's, its fingerprint in it): `<prefix>{pacing}:<list>`. */
  readonly keyPrefix?: string | undefined;
  /** Where the lists live while Redis cannot answer. Default: this process's memory. */
  readonly fallback?: PacingStore | undefined;
  /** Where the switches to and from the fallback are reported. Default: nowhere. */
  readonly logger?: Logger | undefined;
}

/** A list not written for this long is forgotten (a route nobody searches any more). */
const LIST_TTL_MS = 7 * 24 * 3_600_000;

/**
 * What the upstream adapter learns to pace its polls (each airline's times and yields per route, the upstream's
 * answer times), on Redis, shared by every instance of the deployment: a new instance (a deploy, an autoscaled one)
 * paces a route another instance learned from its first search, instead of paying a cold search. Short lists
 * (`LPUSH` + `LTRIM`, forgotten after a week unwritten), under one hash tag so that a Redis Cluster keeps them in one
 * slot and a search reads them in one round trip.
 *
 * While Redis is down or frozen each instance learns on its own (the `fallback`); the switch is logged once
 * (`pacing.fallback`, warn) and so is the way back (`pacing.shared`, info).
 *
 * @example
 * const pacing = redisPacingStore({ redis: connection, keyPrefix });
 * const upstream = upstreamSourcesFor(config.upstream, await import("@voar/http-adapter"), { pacingStore: pacing });
 */
export const redisPacingStore = (options: RedisPacingStoreOptions): PacingStore => {
  const connection = isRedisConnection(options.redis) ? options.redis : openRedisConnection(options.redis);
  const redis = connection.client;
  const key = (list: string) => `${options.keyPrefix ?? "voar:"}{pacing}:${list}`;
  const fallback = options.fallback ?? memoryPacingStore();
  const logger = options.logger ?? silentLogger;
  let fallingBack = false;

  const onRedis = async <T>(call: () => Promise<T>, instead: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await connection.guard.run(call);
    } catch (e) {
      if (!isStoreUnavailable(e)) throw e;
      if (!fallingBack) {
        fallingBack = true;
        logger.log({ level: "warn", msg: "pacing.fallback", error: e.message, detail: "each instance learns the upstream's pace on its own until Redis answers" });
      }
      return instead();
    }
    if (fallingBack) {
      fallingBack = false;
      logger.log({ level: "info", msg: "pacing.shared" });
    }
    return result;
  };

  return {
    push: (entries: readonly PacingEntry[]) =>
      onRedis(
        async () => {
          if (entries.length === 0) return;
          const multi = redis.multi();
          for (const e of entries) multi.lpush(key(e.key), e.value).ltrim(key(e.key), 0, e.max - 1).pexpire(key(e.key), LIST_TTL_MS);
          await multi.exec();
        },
        () => fallback.push(entries),
      ),
    read: (keys: readonly string[]) =>
      onRedis(
        async () => {
          if (keys.length === 0) return [];
          const pipeline = redis.pipeline();
          for (const k of keys) pipeline.lrange(key(k), 0, -1);
          const replies = (await pipeline.exec()) ?? [];
          return keys.map((_, i) => {
            const [error, list] = replies[i] ?? [null, []];
            if (error) throw error;
            return Array.isArray(list) ? list.map(String) : [];
          });
        },
        () => fallback.read(keys),
      ),
  };
};
