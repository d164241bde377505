import type { RedisOptions } from "ioredis";
import { isStoreUnavailable } from "../errors/service-errors.js";
import type { Logger } from "../logging/logger.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";
import { createStoreGuard, type StoreGuard } from "./store-guard.js";
import { clusterGuardView } from "./topology/cluster-guard-view.js";
import { keepConnecting } from "./topology/keep-connecting.js";
import { duplicateClient, isCluster, openClient, subscriberClient, type RedisClient } from "./topology/open-client.js";
import type { RedisTarget, RedisTopology } from "./topology/redis-target.js";

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
  /** Where a client started again after it gave up is told (`store.client_restarted`). Default: nowhere. */
  readonly logger?: Logger | undefined;
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
  /** The command client (a cluster's, on a cluster). Give it no ioredis `keyPrefix`: keys are built by their users. */
  readonly client: RedisClient;
  /** One Redis (a URL or a client), a Sentinel primary, or a Redis Cluster: how keys and pub/sub are laid out. */
  readonly topology: RedisTopology;
  /** Whether Redis answers now; every call on it goes through `guard.run`. */
  readonly guard: StoreGuard;
  /** A new connection to the same Redis with the same settings, `override` aside; the caller closes it. */
  duplicate(override?: Partial<RedisOptions>): RedisClient;
  /** A new connection for pub/sub (sharded subscriptions on a cluster); the caller closes it. */
  subscriber(): RedisClient;
  /** Closes the command client if this connection opened it (from a URL). */
  close(): Promise<void>;
}

/** True for a {@link RedisConnection} (as opposed to a bare ioredis client). */
export const isRedisConnection = (u: unknown): u is RedisConnection => typeof u === "object" && u !== null && "guard" in u && "client" in u;

/**
 * Opens a Redis for the service: from a URL or a {@link RedisTarget} (Sentinel, Cluster), a client with
 * `redisClientOptions` (fast failures, background reconnection; the connection owns and closes it), or over an
 * ioredis client the caller keeps.
 * Make one per Redis and give it to the session store and the rate limiters alike, so that they share one
 * view of its availability (`guard`) and one connection.
 *
 * @example
 * const redis = openRedisConnection("redis://127.0.0.1:6379", { metrics });
 * const store = createRedisSessionStore({ redis, ttlMs: config.search.ttlMs });
 * const rateLimiters = redisRateLimiters({ redis, fallback: memoryRateLimiters(systemClock) });
 * // at shutdown, after the app and the store: await redis.close();
 */
export const openRedisConnection = (redis: string | RedisTarget | RedisClient, o: RedisConnectionOptions = {}): RedisConnection => {
  const commandTimeoutMs = o.commandTimeoutMs ?? 500;
  const given = typeof redis === "string" ? ({ kind: "single", url: redis } as const) : redis;
  const owned = "kind" in given;
  // A client that gave up connecting (ioredis `end`, e.g. a Sentinel failover announced mid-attempt) is started
  // again, whoever opened it: no instance stays unavailable while its peers are served.
  const revive = { onRevive: (times: number) => o.logger?.log({ level: "warn", msg: "store.client_restarted", attempt: times }) };
  const client = "kind" in given ? openClient(given, commandTimeoutMs, revive) : keepConnecting(given, revive);
  const topology: RedisTopology = isCluster(client) ? "cluster" : "kind" in given ? given.kind : "single";
  // The guard's probes on a connection of their own: a PING there is answered when Redis answers it, not after
  // the replies queued on the command connection that this process has not read yet (a busy instance is not a
  // Redis outage). Its errors are the command connection's to report. A cluster is probed through its own
  // client, every primary at once (a second cluster client would connect to its nodes only at its first probe).
  const probe = isCluster(client) ? undefined : duplicateClient(client, { connectionName: "voar-probe" });
  probe?.on("error", () => undefined);
  const bare = createStoreGuard(isCluster(client) ? clusterGuardView(client, commandTimeoutMs) : client, {
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
    topology,
    guard,
    duplicate: (override) => duplicateClient(client, override),
    subscriber: () => subscriberClient(client),
    async close() {
      probe?.disconnect();
      if (!owned || client.status === "end") return;
      // QUIT waits for Redis's answer: a frozen Redis would hold the shutdown, so it gets one second.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([client.quit().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
      clearTimeout(timer);
      client.disconnect();
    },
  };
};
