import type { Redis, RedisOptions } from "ioredis";
import { StoreUnavailable } from "../errors/service-errors.js";
import type { Unwatch } from "../search/session-store.js";

/**
 * The ioredis settings of a client the store opens from a URL, so that a Redis that is down costs a
 * request milliseconds, not the default's endless queueing and retrying: commands time out after
 * `commandTimeoutMs`; while disconnected they fail at once instead of waiting in the offline queue; a
 * dropped connection fails its pending commands instead of replaying them; the client reconnects in the
 * background every half second at most (never giving up), and a connection attempt lasts 1 s at most.
 */
export const redisClientOptions = (commandTimeoutMs: number): RedisOptions => ({
  commandTimeout: commandTimeoutMs,
  connectTimeout: 1_000,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: (times) => Math.min(50 * times, 500),
});

/** Settings of {@link createStoreGuard}. */
export interface StoreGuardOptions {
  /** How long the first calls wait for a client that has never been connected yet (startup). */
  readonly startupWaitMs: number;
  /** Consecutive failures (timeouts, dropped connections) that open the breaker. */
  readonly failureThreshold: number;
  /** How long an open breaker refuses calls before letting them try again (half-open). */
  readonly cooldownMs: number;
  /** `Retry-After` of the `StoreUnavailable` it throws, in seconds. */
  readonly retryAfterSeconds: number;
}

/** The circuit breaker in front of one Redis client. */
export interface StoreGuard {
  /** Runs a call on the client; rejects at once with `StoreUnavailable` while the store is unreachable. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** True while the client is connected and the breaker closed (or half-open). */
  available(): boolean;
  /** Called on every change of {@link available}. */
  onChange(listener: (available: boolean) => void): Unwatch;
}

/**
 * Redis error replies that mean "not now" rather than "wrong command": Redis loading its data after a
 * restart, a busy script, a replica without its master. Any other `ReplyError` is the caller's bug.
 */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY)\b/;

const isBugReply = (e: unknown): boolean => e instanceof Error && e.name === "ReplyError" && !TRANSIENT_REPLY.test(e.message);

/**
 * A circuit breaker over an ioredis client, so no request waits on a store that is down. The client does
 * the connection work (its `commandTimeout`, `enableOfflineQueue: false`, `retryStrategy` reconnecting in
 * the background); the guard adds what it lacks:
 * - while the client is not connected (`close` seen, `ready` not yet again), calls reject at once;
 * - after `failureThreshold` consecutive failures of a connected client (commands timing out on a Redis
 *   that accepts connections but does not answer), calls reject at once for `cooldownMs`, then may try
 *   again; one success closes the breaker;
 * - before the client was ever ready (startup), a call waits up to `startupWaitMs` for it.
 * Every failure that is not a Redis error reply becomes a `StoreUnavailable` (503, retryable).
 */
export const createStoreGuard = (redis: Redis, o: StoreGuardOptions): StoreGuard => {
  let connected = redis.status === "ready";
  let everReady = connected;
  let failures = 0;
  let openUntil = 0;
  // Reported as available until seen otherwise: the first connection at startup is no "store.up".
  let reported = true;
  const listeners = new Set<(available: boolean) => void>();

  const available = () => connected && Date.now() >= openUntil;
  const report = (now: boolean) => {
    if (now === reported) return;
    reported = now;
    for (const listener of [...listeners]) listener(now);
  };
  const unavailable = (detail: string) => new StoreUnavailable(detail, o.retryAfterSeconds);

  redis.on("ready", () => {
    connected = everReady = true;
    failures = 0;
    openUntil = 0;
    report(true);
  });
  redis.on("close", () => {
    connected = false;
    report(false);
  });
  // The client reports connection errors as events too; the guard turns them into state and the callers'
  // StoreUnavailable, and the availability listeners log the transitions. Without a listener ioredis
  // would print every reconnection attempt's error.
  redis.on("error", () => undefined);

  const waitForFirstConnection = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, o.startupWaitMs);
      function done() {
        clearTimeout(timer);
        redis.off("ready", done);
        resolve();
      }
      redis.on("ready", done);
    });

  return {
    async run(call) {
      if (!everReady && redis.status !== "end") await waitForFirstConnection();
      if (!connected) throw unavailable(`redis ${redis.status}`);
      if (Date.now() < openUntil) throw unavailable("circuit open");
      try {
        const result = await call();
        failures = 0;
        report(available());
        return result;
      } catch (e) {
        if (isBugReply(e)) throw e;
        failures += 1;
        if (failures >= o.failureThreshold) {
          openUntil = Date.now() + o.cooldownMs;
          report(false);
        }
        throw unavailable(e instanceof Error ? e.message : String(e));
      }
    },
    available,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
};
