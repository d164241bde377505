/**
 * `@voar/hono-edge/redis`: the Redis session store, for several instances of the service sharing their
 * searches. Node-only (ioredis), so it lives apart from the main entry, which stays runtime-neutral.
 *
 * @example
 * import { createApp } from "@voar/hono-edge";
 * import { createRedisSessionStore } from "@voar/hono-edge/redis";
 *
 * const store = createRedisSessionStore({ redis: process.env.REDIS_URL ?? "redis://127.0.0.1:6379", ttlMs: config.search.ttlMs });
 * const app = createApp({ config, sources, store, instanceId: process.env.HOSTNAME });
 */
export { createRedisSessionStore, type RedisSessionStore, type RedisSessionStoreOptions } from "./redis-session-store.js";
export { redisKeys, type RedisKeys } from "./redis-keys.js";
export { createRedisAnswerStore, type RedisAnswerStoreOptions } from "./redis-answer-store.js";
export { redisRateLimiters, type RedisRateLimitersOptions } from "./redis-rate-limiter.js";
export { openRedisConnection, type RedisConnection, type RedisConnectionOptions } from "./redis-connection.js";
export { describeTarget, redisTargetOf, type HostPort, type NodeAuth, type RedisTarget, type RedisTopology } from "./topology/redis-target.js";
export type { RedisClient } from "./topology/open-client.js";
export type { StoreGuard } from "./store-guard.js";
export { redisBreakerStore, type RedisBreakerStoreOptions } from "./redis-breaker-store.js";
export { redisPaganteSettings, type RedisPaganteSettings, type RedisPaganteSettingsOptions } from "./redis-pagante-settings.js";
export { redisLoginStore, type RedisLoginStoreOptions } from "./redis-login-store.js";
export { redisPacingStore, type RedisPacingStoreOptions } from "./redis-pacing-store.js";
