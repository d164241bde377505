import type { Cluster } from "ioredis";
import type { GuardedClient } from "../store-guard.js";

/**
 * A cluster's client as the store guard sees one Redis: its status and connection events, and a probe that
 * answers only when every primary does. A cluster whose primary died is unavailable to the guard until a replica
 * took its slots over and the client found it (the probe reads the slots again when a primary does not answer),
 * so requests answer 503 `INDISPONIVEL` during a failover instead of waiting on a dead node.
 */
export const clusterGuardView = (cluster: Cluster, timeoutMs: number): GuardedClient => ({
  get status() {
    return cluster.status;
  },
  on: (event, listener) => cluster.on(event, listener),
  off: (event, listener) => cluster.off(event, listener),
  async ping() {
    const primaries = cluster.nodes("master");
    if (primaries.length === 0) throw new Error("the cluster client knows no primary yet");
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A dead primary's connection may hold a PING until it reconnects: the probe gives up after the timeout.
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`a primary did not answer within ${timeoutMs} ms`)), timeoutMs)));
    try {
      return await Promise.race([Promise.all(primaries.map((p) => p.ping())), late]);
    } catch (e) {
      cluster.refreshSlotsCache();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  },
});
