import type { Logger } from "../logging/logger.js";
import type { Unwatch } from "../search/session-store.js";
import type { RedisClient } from "./topology/open-client.js";

/** Listeners of pub/sub channels over one subscriber connection. */
export interface RedisWatchers {
  /** Calls `listener` with each version published on `channel`; resolves once Redis confirmed the subscription. */
  watch(channel: string, listener: (version: number) => void): Promise<Unwatch>;
  /** Opens the subscriber connection now rather than at the first watch (so no watch waits for it to connect). */
  connect(): void;
  /** Calls every listener (with 0), so each watcher reads the store now: Redis was declared unavailable. */
  interrupt(): void;
  /** Closes the subscriber connection (if one was opened). */
  close(): Promise<void>;
}

/**
 * Multiplexes watches over a single subscriber connection, opened on the first watch (`connect()` makes
 * it, e.g. `redis.duplicate()`): one `SUBSCRIBE` per channel however many watchers it has, `UNSUBSCRIBE`
 * when the last one leaves. Commands on one connection run in order, so a quick unwatch/watch pair on a
 * channel ends subscribed. ioredis subscribes again by itself after a reconnection; when the connection
 * drops, every listener is called (with 0), so its watcher reads the store and learns that it is down
 * rather than waiting for a message that cannot come.
 *
 * `sharded` (a Redis Cluster): the channels are sharded (`SSUBSCRIBE`, in the slot of their search's keys, so
 * each primary carries only its own searches' announcements), on a cluster client with sharded subscribers
 * (one connection per primary, subscribed again on a promoted replica after a failover); a subscriber
 * connection lost on the way also calls every listener, since announcements made meanwhile are lost.
 */
export const createRedisWatchers = (connect: () => RedisClient, logger: Logger, sharded = false): RedisWatchers => {
  /** Per channel: its listeners, and the subscription every watch of it waits for. */
  const channels = new Map<string, { readonly listeners: Set<(version: number) => void>; readonly ready: Promise<unknown> }>();
  let subscriber: RedisClient | undefined;
  const interrupt = () => {
    for (const { listeners } of [...channels.values()]) for (const listener of [...listeners]) listener(0);
  };

  const open = (): RedisClient => {
    if (subscriber) return subscriber;
    const s = connect();
    s.on(sharded ? "smessage" : "message", (channel: string, message: string) => {
      const version = Number(message);
      for (const listener of [...(channels.get(channel)?.listeners ?? [])]) listener(version);
    });
    s.on("close", interrupt);
    if (sharded) s.on("-node", interrupt);
    s.on("error", () => undefined); // reconnection errors: the main connection's guard reports the outage
    return (subscriber = s);
  };

  return {
    async watch(channel, listener) {
      const s = open();
      let entry = channels.get(channel);
      if (!entry) {
        const ready = (sharded ? s.ssubscribe(channel) : s.subscribe(channel)).catch((e: unknown) => {
          if (channels.get(channel)?.ready === ready) channels.delete(channel);
          throw e;
        });
        channels.set(channel, (entry = { listeners: new Set(), ready }));
      }
      entry.listeners.add(listener);
      await entry.ready;
      return () => {
        const current = channels.get(channel);
        if (!current?.listeners.delete(listener) || current.listeners.size > 0) return;
        channels.delete(channel);
        (sharded ? s.sunsubscribe(channel) : s.unsubscribe(channel)).catch((e: unknown) =>
          // Only a closing connection fails here, and closing it unsubscribes anyway: logged, not retried.
          logger.log({ level: "warn", msg: "redis.unsubscribe_failed", error: e instanceof Error ? e.message : String(e) }),
        );
      };
    },
    connect: () => void open(),
    interrupt,
    async close() {
      channels.clear();
      const s = subscriber;
      subscriber = undefined;
      if (!s) return;
      // QUIT waits for Redis's answer: a frozen Redis gets one second of the shutdown, then the socket goes.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([s.quit().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
      clearTimeout(timer);
      s.disconnect();
    },
  };
};
