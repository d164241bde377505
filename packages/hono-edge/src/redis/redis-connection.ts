import { Redis, type RedisOptions } from "ioredis";
import { isStoreUnavailable } from "../errors/service-errors.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";
import { createStoreGuard, redisClientOptions, type StoreGuard } from "./store-guard.js";

/** Options of {@link openRedisConnection}. */
export interface RedisConnectionOptions {
  /**
   * How long one Redis command may wait for its answer before the request gets 503 `INDISPONIVEL` (or a
   * rate limit its in-memory fallback). This process's own event-loop delay does not count. Default 500.
   */
  readonly commandTimeoutMs?: number | undefined;
  /** Commands in a row without an answer that declare Redis unavailable (open the breaker). Default 1. */
  readonly breakerThreshold?: number | undefined;
  /** The least time Redis stays declared unavailable, and the pause between background probes. Default 1000. */
  readonly breakerCooldownMs?: number | undefined;
  /** @deprecated Ignored: Redis is judged by probes of its own, not by this process's event-loop delay. */
  readonly load?: unknown;
  /** Times every call (`voar_store_command_duration_seconds`) and follows the breaker (`voar_store_breaker_state`). */
  readonly metrics?: ServiceMetrics | undefined;
}

/** The guard with every call timed by outcome, and its breaker's state followed, in `metrics`. */
const measuredGuard = (guard: StoreGuard, metrics: ServiceMetrics): StoreGuard => {
  guard.onChange((available) => metrics.storeBreakerState(available ? "closed" : "open"));
  return {
    async run(call) {
      const started = performance.now();
      try {
        const result = await guard.run(call);
        metrics.storeCommand("ok", (performance.now() - started) / 1_000);
        return result;
      } catch (e) {
        metrics.storeCommand(isStoreUnavailable(e) ? "unavailable" : "error", (performance.now() - started) / 1_000);
        throw e;
      }
    },
    available: () => guard.available(),
    onChange: (listener) => guard.onChange(listener),
  };
};

/**
 * One Redis as the service uses it: a command client, the one availability view ({@link StoreGuard}) that
 * every user of this Redis shares (the session store, its pub/sub, the rate limits), and how to open more
 * connections to it with the same settings.
 */
export interface RedisConnection {
  /** The command client. Give it no ioredis `keyPrefix`: keys are built by their users. */
  readonly client: Redis;
  /** Whether Redis answers now; every call on it goes through `guard.run`. */
  readonly guard: StoreGuard;
  /** A new connection to the same Redis with the same settings, `override` aside (e.g. the pub/sub subscriber); the caller closes it. */
  duplicate(override?: Partial<RedisOptions>): Redis;
  /** Closes the command client if this connection opened it (from a URL). */
  close(): Promise<void>;
}

/** True for a {@link RedisConnection} (as opposed to a bare ioredis client). */
export const isRedisConnection = (u: unknown): u is RedisConnection => typeof u === "object" && u !== null && "guard" in u && "client" in u;

/**
 * Opens a Redis for the service: from a URL, a client with {@link redisClientOptions} (fast failures,
 * background reconnection; the connection owns and closes it), or over an ioredis client the caller keeps.
 * Make one per Redis and give it to the session store and the rate limiters alike, so that they share one
 * view of its availability (`guard`) and one connection.
 *
 * @example
 * const redis = openRedisConnection("redis://127.0.0.1:6379", { metrics });
 * const store = createRedisSessionStore({ redis, ttlMs: config.search.ttlMs });
 * const rateLimiters = redisRateLimiters({ redis, fallback: memoryRateLimiters(systemClock) });
 * // at shutdown, after the app and the store: await redis.close();
 */
export const openRedisConnection = (redis: string | Redis, o: RedisConnectionOptions = {}): RedisConnection => {
  const commandTimeoutMs = o.commandTimeoutMs ?? 500;
  const owned = typeof redis === "string";
  const client = typeof redis === "string" ? new Redis(redis, redisClientOptions(commandTimeoutMs)) : redis;
  // The guard's probes on a connection of their own: a PING there is answered when Redis answers it, not after
  // the replies queued on the command connection that this process has not read yet (a busy instance is not a
  // Redis outage). Its errors are the command connection's to report.
  const probe = client.duplicate({ connectionName: "voar-probe" });
  probe.on("error", () => undefined);
  const bare = createStoreGuard(client, {
    commandTimeoutMs,
    startupWaitMs: commandTimeoutMs,
    failureThreshold: o.breakerThreshold ?? 1,
    cooldownMs: o.breakerCooldownMs ?? 1_000,
    retryAfterSeconds: 1,
    probe,
  });
  const guard = o.metrics ? measuredGuard(bare, o.metrics) : bare;
  return {
    client,
    guard,
    duplicate: (override) => client.duplicate(override),
    async close() {
      probe.disconnect();
      if (!owned || client.status === "end") return;
      // QUIT waits for Redis's answer: a frozen Redis would hold the shutdown, so it gets one second.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([client.quit().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
      clearTimeout(timer);
      client.disconnect();
    },
  };
};
