import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { createRedisSessionStore, type RedisSessionStore } from "../../../src/redis/index.js";
import type { StoreHarness, StoreSettings } from "../../contract/session-store-contract.js";

/** The Redis of the integration tier. */
export const REDIS_URL = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";

/** A fresh key prefix, so that each test has its own keys and leaves none behind. */
export const testPrefix = (): string => `voar-test:${randomUUID()}:`;

/** A client that fails at once, with the reason, when Redis is not there (no endless reconnecting). */
export const connectRedis = async (): Promise<Redis> => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    redis.disconnect();
    throw new Error(`the integration tier needs Redis at ${REDIS_URL} (set REDIS_URL): ${e instanceof Error ? e.message : String(e)}`);
  }
  return redis;
};

/** Deletes every key under `prefix`. */
export const deleteKeys = async (redis: Redis, prefix: string): Promise<void> => {
  let cursor = "0";
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    if (found.length > 0) await redis.del(...found);
    cursor = next;
  } while (cursor !== "0");
};

/** Keys under `prefix` still in Redis. */
export const countKeys = async (redis: Redis, prefix: string): Promise<number> => {
  let cursor = "0";
  let n = 0;
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    n += found.length;
    cursor = next;
  } while (cursor !== "0");
  return n;
};

/** A Redis store under a fresh prefix, as a contract harness: real time, keys deleted on close. */
export const redisHarness = async (settings: StoreSettings): Promise<StoreHarness & { readonly store: RedisSessionStore; readonly prefix: string }> => {
  const redis = await connectRedis();
  const prefix = testPrefix();
  const store = createRedisSessionStore({ redis, keyPrefix: prefix, ...settings });
  return {
    store,
    prefix,
    now: () => Date.now(),
    elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    close: async () => {
      await store.close();
      await deleteKeys(redis, prefix);
      await redis.quit();
    },
  };
};
