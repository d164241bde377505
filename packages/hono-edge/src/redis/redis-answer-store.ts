/**
 * The answer cache's store in Redis, shared by every instance of the deployment: each answer a key of its
 * own under the deployment's prefix (`<prefix>answer:<key>`), JSON, expiring by itself (`PX`), and an index
 * of them by time of storing that keeps their number bounded (the oldest go first). Calls go through the
 * connection's guard: while Redis is unreachable a lookup fails at once and the cache asks the source.
 *
 * On a Redis Cluster an answer and its index must share a slot: the answers are spread over up to 16 buckets,
 * each with its own hash tag and index (`<prefix>answer:{a<n>}:<key>`, `<prefix>answers:{a<n>}`), each bounding
 * its share of `maxEntries` (together exactly `maxEntries`), so the cache spreads over the primaries.
 */
import { createHash } from "node:crypto";
import type { AnswerStore, CachedAnswer } from "../sources/answer-store.js";
import { luaScript } from "./lua-runner.js";
import type { RedisConnection } from "./redis-connection.js";

/** Options of {@link createRedisAnswerStore}. */
export interface RedisAnswerStoreOptions {
  readonly redis: RedisConnection;
  /** Prefix of the keys: the deployment's (its fingerprint in it), so that other deployments' answers are never read. Default `voar:`. */
  readonly keyPrefix?: string | undefined;
  /** Answers kept at most; beyond it the oldest are deleted. */
  readonly maxEntries: number;
  /** An answer larger than this (JSON bytes) is not stored. Default 4 MiB. */
  readonly maxEntryBytes?: number | undefined;
}

/** Stores an answer with its TTL, indexes it, and deletes the oldest beyond the bound, in one step. */
const SET_ANSWER = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
  for _, k in ipairs(old) do redis.call('DEL', k) end
end
return 1
`;

/**
 * The answers in Redis.
 *
 * @example
 * const answers = createRedisAnswerStore({ redis: connection, keyPrefix, maxEntries: 2_000 });
 */
export const createRedisAnswerStore = (o: RedisAnswerStoreOptions): AnswerStore => {
  const client = o.redis.client;
  const setAnswer = luaScript(client, SET_ANSWER);
  const prefix = o.keyPrefix ?? "voar:";
  const buckets = o.redis.topology === "cluster" ? Math.min(16, o.maxEntries) : 1;
  /** The bucket of a key, its index and its bound (the first `maxEntries % buckets` buckets hold one more). */
  const bucketOf = (key: string) => {
    if (buckets === 1) return { tag: "", index: `${prefix}answers`, max: o.maxEntries };
    const n = createHash("sha1").update(key).digest().readUInt16BE(0) % buckets;
    return { tag: `{a${n}}:`, index: `${prefix}answers:{a${n}}`, max: Math.floor(o.maxEntries / buckets) + (n < o.maxEntries % buckets ? 1 : 0) };
  };
  const keyOf = (key: string) => `${prefix}answer:${bucketOf(key).tag}${key}`;
  const maxBytes = o.maxEntryBytes ?? 4 * 1024 * 1024;
  return {
    get: async (key) => {
      const text = await o.redis.guard.run(() => client.get(keyOf(key)));
      return text === null ? undefined : (JSON.parse(text) as CachedAnswer);
    },
    set: async (key, answer, ttlMs) => {
      const text = JSON.stringify(answer);
      if (Buffer.byteLength(text) > maxBytes) return;
      const bucket = bucketOf(key);
      await o.redis.guard.run(() => setAnswer.run([keyOf(key), bucket.index], [text, Math.max(1, Math.round(ttlMs)), answer.storedAt, bucket.max]));
    },
  };
};
