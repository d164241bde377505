import { StoreUnavailable } from "../errors/service-errors.js";
import type { Logger } from "../logging/logger.js";
import type { RedisConnection } from "./redis-connection.js";
import type { RedisClient } from "./topology/open-client.js";

/**
 * The writes after which the instance that runs a search forgets it: its completing change and a write-back,
 * sent on a connection of their own and confirmed by a replica (`WAIT 1`) when the primary has one. Replication is
 * asynchronous: a primary that dies may take its last acknowledged writes with it. Until its completion reached a
 * replica, the search stays in its owner's memory (the write is retried, and written back whole if a promoted
 * replica lacks it), so a failover never loses a completed search's last offers. `WAIT` blocks the connection it
 * is sent on until the replica answers, so it never runs on the connection every other command shares.
 */
export interface ConfirmedWrites {
  /** The connection the confirmed writes go on (a cluster's client, on a cluster). */
  readonly client: RedisClient;
  /**
   * Waits until a replica has what this connection wrote to the primary serving the search hash `key` (which routes
   * the `WAIT` on a cluster); nothing to wait for when the primary had no replica (`replicas` 0). "behind" when the
   * hash is below `version` (the connection came back to a promoted replica that lacks the write). Rejects with a
   * retryable `StoreUnavailable` when no replica confirmed within the timeout: the caller keeps what it wrote and
   * tries again.
   */
  confirm(key: string, replicas: number, version: number): Promise<"confirmed" | "behind">;
  close(): Promise<void>;
}

/** Opens the confirmed writes' connection on `connection`'s Redis (at once: the first completion waits for no connection). */
export const confirmedWrites = (connection: RedisConnection, timeoutMs: number, logger: Logger): ConfirmedWrites => {
  // Its few commands may wait for it to (re)connect: the guard bounds the wait.
  const client = connection.duplicate({ enableOfflineQueue: true });
  // Its errors are reconnection attempts; the command connection's guard reports the outage.
  client.on("error", () => undefined);
  let lagging = false;
  return {
    client,
    async confirm(key, replicas, version) {
      if (replicas < 1) return "confirmed";
      let acked = 0;
      try {
        // The keyed read first: on a cluster the pipeline goes to the node that serves `key`, with the WAIT after it.
        // It also tells a connection that reconnected meanwhile (where WAIT has nothing of its own to wait for) from
        // one that still sees the write.
        const replies = await client.pipeline().hget(key, "v").wait(1, timeoutMs).exec();
        if (Number(replies?.[0]?.[1] ?? 0) < version) return "behind";
        acked = Number(replies?.[1]?.[1] ?? 0);
      } catch (e) {
        throw new StoreUnavailable(`the replica's confirmation could not be asked: ${e instanceof Error ? e.message : String(e)}`, 1);
      }
      if (acked >= 1) {
        if (lagging) logger.log({ level: "info", msg: "store.replica_confirms" });
        lagging = false;
        return "confirmed";
      }
      if (!lagging) logger.log({ level: "warn", msg: "store.replica_lagging", detail: `no replica confirmed a completed search within ${timeoutMs} ms: its owner keeps it and writes it again` });
      lagging = true;
      throw new StoreUnavailable(`no replica confirmed the write within ${timeoutMs} ms`, 1);
    },
    async close() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([client.quit().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
      clearTimeout(timer);
      client.disconnect();
    },
  };
};
