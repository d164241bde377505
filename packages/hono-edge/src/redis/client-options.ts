import type { RedisOptions } from "ioredis";

/**
 * The ioredis settings of every client the service opens on a Redis, so that a Redis that is down costs a
 * request milliseconds, not the default's endless queueing and retrying: while disconnected, commands fail
 * at once instead of waiting in the offline queue; a dropped connection fails its pending commands instead
 * of replaying them; the client reconnects in the background every half second at most (never giving up),
 * and a connection attempt lasts 1 s at most. The request path's timeout is the guard's (`commandTimeoutMs`,
 * judged apart from this process's own event-loop delay); ioredis's own `commandTimeout` is only a backstop,
 * 20 times longer, so that no command of a Redis that froze for good is held forever.
 */
export const redisClientOptions = (commandTimeoutMs: number): RedisOptions => ({
  commandTimeout: Math.max(10_000, 20 * commandTimeoutMs),
  connectTimeout: 1_000,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: (times) => Math.min(50 * times, 500),
});
