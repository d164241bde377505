import type { RedisOptions } from "ioredis";
import { StoreUnavailable } from "../errors/service-errors.js";
import type { LoadSignal } from "../limits/load-signal.js";
import type { Unwatch } from "../search/session-store.js";

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

/** What the guard needs of an ioredis client: its state, its connection events and a PING. */
export interface GuardedClient {
  readonly status: string;
  on(event: "ready" | "close" | "end" | "error", listener: () => void): unknown;
  off(event: "ready" | "close" | "end" | "error", listener: () => void): unknown;
  ping(): Promise<unknown>;
}

/** Settings of {@link createStoreGuard}. */
export interface StoreGuardOptions {
  /** How long a call may wait for Redis's answer, this process's own loop delay apart. */
  readonly commandTimeoutMs: number;
  /** How long calls wait for the client's first connection attempt (startup); never once it failed. */
  readonly startupWaitMs: number;
  /** Consecutive failures (timeouts, transient errors) that open the breaker. */
  readonly failureThreshold: number;
  /** The least time an open breaker stays open, and the pause between its probes. */
  readonly cooldownMs: number;
  /** `Retry-After` of the `StoreUnavailable` it throws, in seconds. */
  readonly retryAfterSeconds: number;
  /** The instance's event-loop delay (see `LoadSignal`): a reply read late because the loop was busy is no timeout. */
  readonly load?: LoadSignal | undefined;
}

/** The availability view of one Redis, shared by everything the service does on it. */
export interface StoreGuard {
  /** Runs a call on the client; rejects at once with `StoreUnavailable` while Redis is unreachable or not answering. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** True while the client is connected and the breaker closed. */
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
 * The one availability view of a Redis: every client the service has on it (the store's commands, its
 * pub/sub, the rate limits) runs its calls through it, so a Redis that is down or frozen is seen once, by
 * everyone, and no request waits on it.
 * - While the client is not connected (`close` seen, `ready` not yet again), calls reject at once.
 * - A call that gets no answer within `commandTimeoutMs` fails, and after `failureThreshold` such failures
 *   in a row the breaker opens: calls reject at once, and every call still waiting is answered at once too.
 *   The timeout is Redis's, not the loop's: when its timer fires late, or the load signal says the loop lags,
 *   the call gets one more `commandTimeoutMs`; and the verdict waits for the loop's next I/O phase, so a reply
 *   already in the socket is read before anyone calls Redis silent.
 * - An open breaker is probed in the background (a PING, one at a time, every `cooldownMs` at most): it
 *   closes once Redis answers and `cooldownMs` has passed. No request pays for a probe.
 * - Before the client's first connection attempt ends (startup), a call waits for it, `startupWaitMs` at most.
 * Every failure that is not a Redis error reply of the caller's own making becomes a `StoreUnavailable`.
 */
export const createStoreGuard = (client: GuardedClient, o: StoreGuardOptions): StoreGuard => {
  let connected = client.status === "ready";
  // A client still making its first connection is worth a short wait at startup; one that failed it, or was
  // closed for good, is not.
  let firstAttemptOver = !["wait", "connecting", "connect"].includes(client.status);
  let failures = 0;
  let openedAt: number | undefined;
  let probing = false;
  let probeTimer: ReturnType<typeof setTimeout> | undefined;
  // Reported as available until seen otherwise: the first connection at startup is no "store.up".
  let reported = true;
  const listeners = new Set<(available: boolean) => void>();
  /** Calls in flight, told when Redis is declared unavailable so that none waits for its own timeout. */
  const waiting = new Set<(e: StoreUnavailable) => void>();

  const available = () => connected && openedAt === undefined;
  const unavailable = (detail: string) => new StoreUnavailable(detail, o.retryAfterSeconds);
  const report = () => {
    const now = available();
    if (now === reported) return;
    reported = now;
    if (!now) for (const fail of [...waiting]) fail(unavailable("redis is not answering"));
    for (const listener of [...listeners]) listener(now);
  };

  const close = () => {
    openedAt = undefined;
    failures = 0;
    clearTimeout(probeTimer);
    report();
  };
  const probe = () => {
    if (probing || openedAt === undefined || !connected) return;
    probing = true;
    client.ping().then(
      () => {
        probing = false;
        if (openedAt === undefined) return;
        const left = openedAt + o.cooldownMs - Date.now();
        if (left <= 0) close();
        else probeTimer = setTimeout(() => (openedAt === undefined ? undefined : close()), left);
      },
      () => {
        probing = false;
        probeTimer = setTimeout(probe, o.cooldownMs);
      },
    );
  };
  const fail = () => {
    failures += 1;
    if (failures < o.failureThreshold || openedAt !== undefined) return;
    openedAt = Date.now();
    report();
    probe();
  };

  client.on("ready", () => {
    connected = firstAttemptOver = true;
    close();
  });
  client.on("close", () => {
    connected = false;
    firstAttemptOver = true;
    clearTimeout(probeTimer);
    probing = false;
    openedAt = undefined;
    report();
  });
  // The client reports connection errors as events too; the guard turns them into state and the callers'
  // StoreUnavailable, and the availability listeners log the transitions. Without a listener ioredis would
  // print every reconnection attempt's error.
  client.on("error", () => void (firstAttemptOver = true));

  const waitForFirstAttempt = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, o.startupWaitMs);
      function done() {
        clearTimeout(timer);
        for (const event of ["ready", "close", "end", "error"] as const) client.off(event, done);
        resolve();
      }
      for (const event of ["ready", "close", "end", "error"] as const) client.on(event, done);
    });

  /** Waits for the call's answer; a timeout only once Redis had its whole time with the loop free to read it. */
  const answered = <T>(call: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      let settled = false;
      let extended = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        waiting.delete(onDown);
        f();
      };
      const onDown = (e: StoreUnavailable) => settle(() => reject(e));
      const due = () => {
        const late = Date.now() - dueAt;
        if (!extended && Math.max(late, o.load?.loopDelayMs() ?? 0) >= o.commandTimeoutMs / 2) {
          // The loop itself was late: what looks like Redis's silence may be our own backlog.
          extended = true;
          dueAt = Date.now() + o.commandTimeoutMs;
          timer = setTimeout(due, o.commandTimeoutMs);
          return;
        }
        // After the loop's next I/O phase: a reply already in the socket settles the call first.
        setImmediate(() =>
          settle(() => {
            fail();
            reject(unavailable(`no answer within ${o.commandTimeoutMs} ms`));
          }),
        );
      };
      let dueAt = Date.now() + o.commandTimeoutMs;
      waiting.add(onDown);
      timer = setTimeout(due, o.commandTimeoutMs);
      // A call that throws before it returns a promise is settled like one that rejects.
      new Promise<T>((run) => run(call())).then(
        (result) =>
          settle(() => {
            failures = 0;
            resolve(result);
          }),
        (e: unknown) =>
          settle(() => {
            if (isBugReply(e)) return reject(e as Error);
            fail();
            reject(unavailable(e instanceof Error ? e.message : String(e)));
          }),
      );
    });

  return {
    async run(call) {
      if (!firstAttemptOver) await waitForFirstAttempt();
      if (!connected) throw unavailable(`redis ${client.status}`);
      if (openedAt !== undefined) throw unavailable("redis is not answering");
      return answered(call);
    },
    available,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
};
