import { StoreUnavailable } from "../errors/service-errors.js";
import type { GuardedClient, StoreGuard, StoreGuardOptions } from "./store-guard-types.js";
export { redisClientOptions } from "./client-options.js";
export type { GuardedClient, ProbeClient, StoreGuard, StoreGuardOptions } from "./store-guard-types.js";

/**
 * Redis error replies that mean "not now" rather than "wrong command": Redis loading its data after a
 * restart, a busy script, a replica without its master. Any other `ReplyError` is the caller's bug.
 */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY)\b/;

const isBugReply = (e: unknown): boolean => e instanceof Error && e.name === "ReplyError" && !TRANSIENT_REPLY.test(e.message);

/** After the loop's next two I/O phases: a reply that already sits in a socket is read before anyone judges it missing. */
const afterPendingReplies = (f: () => void) => setImmediate(() => setImmediate(f));

/**
 * The one availability view of a Redis: every client the service has on it (the store's commands, its
 * pub/sub, the rate limits) runs its calls through it, so a Redis that is down or frozen is seen once, by
 * everyone, and no request waits on it.
 * - While the client is not connected (`close` seen, `ready` not yet again), calls reject at once.
 * - Redis is judged by a probe of the guard's own, never by how late this process reads a reply: a call still
 *   unanswered after half of `commandTimeoutMs` sends a PING on the probe connection (one probe at a time,
 *   whatever the number of calls waiting). Unanswered within the other half (judged after the loop's next I/O
 *   phases, so a reply already in the socket counts), the probe fails; after `failureThreshold` such failures
 *   in a row the breaker opens: calls reject at once, and every call still waiting is answered at once too.
 *   Answered, Redis is alive and the calls keep waiting for their replies, which this busy process reads late
 *   (a saturated instance is not a Redis outage): up to `maxWaitMs`, after which a call alone fails.
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
  const half = Math.max(1, Math.floor(o.commandTimeoutMs / 2));
  const maxWaitMs = o.maxWaitMs ?? 10_000;
  /** The PING of a probe: on the probe connection while it is connected, else on the command connection. */
  const ping = () => (o.probe && o.probe.status === "ready" ? o.probe.ping() : client.ping());

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
  /** The background probe of an open breaker. */
  const probeOpen = () => {
    if (probing || openedAt === undefined || !connected) return;
    probing = true;
    ping().then(
      () => {
        probing = false;
        if (openedAt === undefined) return;
        const left = openedAt + o.cooldownMs - Date.now();
        if (left <= 0) close();
        else probeTimer = setTimeout(() => (openedAt === undefined ? undefined : close()), left);
      },
      () => {
        probing = false;
        probeTimer = setTimeout(probeOpen, o.cooldownMs);
      },
    );
  };
  const fail = () => {
    failures += 1;
    if (failures < o.failureThreshold || openedAt !== undefined) return;
    openedAt = Date.now();
    report();
    probeOpen();
  };

  /** The probe in flight while calls wait (one for all of them): resolves true when Redis answered it in time. */
  let suspicion: Promise<boolean> | undefined;
  const stillAlive = (): Promise<boolean> =>
    (suspicion ??= new Promise<boolean>((resolve) => {
      let answered: boolean | undefined;
      const done = (alive: boolean) => {
        suspicion = undefined;
        if (alive) failures = 0;
        else fail();
        resolve(alive);
      };
      ping().then(
        () => void (answered ??= true),
        () => void (answered ??= false),
      );
      setTimeout(() => afterPendingReplies(() => done(answered === true)), half);
    }));

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

  /** Waits for the call's answer; while it waits, Redis itself is asked (a probe) whether it still answers. */
  const answered = <T>(call: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const startedAt = Date.now();
      const settle = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        waiting.delete(onDown);
        f();
      };
      const onDown = (e: StoreUnavailable) => settle(() => reject(e));
      const suspect = () => {
        if (settled) return;
        void stillAlive().then((alive) => {
          if (settled) return; // a probe unanswered that opened the breaker rejected it already (`onDown`)
          if (!alive) return settle(() => reject(unavailable(`no answer within ${o.commandTimeoutMs} ms, nor to a probe`)));
          if (Date.now() - startedAt >= maxWaitMs) return settle(() => reject(unavailable(`no answer within ${maxWaitMs} ms, redis answering its probes`)));
          timer = setTimeout(suspect, half);
        });
      };
      waiting.add(onDown);
      timer = setTimeout(suspect, half);
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
            // ioredis's own backstop timeout: Redis is judged by the probes, this call alone failed.
            if (!(e instanceof Error && e.message === "Command timed out")) fail();
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
