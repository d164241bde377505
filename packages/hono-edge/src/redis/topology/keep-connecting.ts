import type { RedisClient } from "./open-client.js";

/** Options of {@link keepConnecting}. */
export interface KeepConnectingOptions {
  /** Hears of each connection started again after the client gave up (`end`), with how many in a row. */
  readonly onRevive?: ((times: number) => void) | undefined;
  /** The pause before the first new attempt; it doubles at each one in a row, up to 2 s. Default 250. */
  readonly delayMs?: number | undefined;
}

/** Marks a client whose `end` was asked for (`quit`, `disconnect`), so that it is not started again. */
const STOPPED = Symbol("voar.stopped");

type Stoppable = RedisClient & { [STOPPED]?: boolean };

/**
 * Makes an ioredis client (one connection, a Sentinel primary's or a cluster's) connect again after it gave up
 * on its own. ioredis ends a client for good (`status` `"end"`, every command then failing with "Connection is
 * closed") not only when its `retryStrategy` says so, which the service's never does, but also when a connection
 * attempt fails as a whole: on Sentinel, a `+switch-master` announced while the client was asking the sentinels for
 * the primary after a failover makes that attempt fail with "Connection is closed", and the client stays ended
 * while its peers use the promoted replica. Here an `end` that nobody asked for (no `quit()` nor `disconnect()` on
 * the client) starts a new connection on the same client object, so that every user holding it (the store, its
 * guard, the rate limits) is served again without being told: after `delayMs`, doubled while attempts end again.
 */
export const keepConnecting = <C extends RedisClient>(client: C, o: KeepConnectingOptions = {}): C => {
  const c = client as Stoppable;
  const first = o.delayMs ?? 250;
  let times = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quit = c.quit.bind(c);
  const disconnect = c.disconnect.bind(c);
  // Asked-for ends are marked on the client itself, before ioredis ends it.
  Object.assign(c, {
    quit: (...args: unknown[]) => {
      c[STOPPED] = true;
      clearTimeout(timer);
      return (quit as (...a: unknown[]) => unknown)(...args);
    },
    disconnect: (reconnect?: boolean) => {
      if (reconnect !== true) {
        c[STOPPED] = true;
        clearTimeout(timer);
      }
      return disconnect(reconnect);
    },
  });
  c.on("ready", () => void (times = 0));
  c.on("end", () => {
    if (c[STOPPED]) return;
    const delay = Math.min(first * 2 ** times, 2_000);
    times += 1;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (c[STOPPED] || c.status !== "end") return;
      o.onRevive?.(times);
      c.connect().catch(() => undefined); // a failed attempt ends it again, and is tried again
    }, delay);
    timer.unref?.();
  });
  return client;
};
