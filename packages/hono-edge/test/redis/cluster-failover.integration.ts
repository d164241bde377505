import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { redisKeys, type RedisTarget } from "../../src/redis/index.js";
import { hostPort } from "../../src/redis/topology/redis-target.js";
import { memoryLogger } from "../support/app.js";
import { openSearches, pollUntilComplete, violations } from "./support/failover-scenario.js";
import { redisInstance } from "./support/instance-setup.js";
import { testPrefix } from "./support/redis-harness.js";
import { startCluster, type TestCluster } from "./support/redis-topology.js";

/**
 * Redis Cluster (3 primaries, 3 replicas, started here on free ports, `cluster-node-timeout` 1 s) under two
 * instances of the service with 20 running searches: the primary holding most of them is killed with SIGKILL.
 * While its replica is promoted, requests that need the store answer 503 `INDISPONIVEL` with Retry-After; then
 * every search completes on both instances, no offer a client was shown disappears and results never shrink.
 */

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

/** How long after the cluster is healthy again the instances may still answer 503 (their guards' probes, slots, owners confirming). */
const SETTLE_MS = 5_000;
/** Sources: two answer early, the others during and after the failover. */
const latency = (id: string) => (id === "latam" ? 300 : id === "azul" ? 600 : id === "gol" ? 2_500 : 6_000);

const targetOf = (cluster: TestCluster): RedisTarget => ({ kind: "cluster", nodes: cluster.nodes.map(hostPort) });

/** How many keys under `prefix` match `pattern` on each primary, by port. */
const keysByPrimary = async (cluster: TestCluster, pattern: string): Promise<Map<number, number>> => {
  const counts = new Map<number, number>();
  for (const node of cluster.topology().filter((n) => n.role === "master" && !n.failed)) {
    const redis = new Redis(node.port, "127.0.0.1", { maxRetriesPerRequest: 1 });
    try {
      let cursor = "0";
      let n = 0;
      do {
        const [next, found] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
        n += found.length;
        cursor = next;
      } while (cursor !== "0");
      counts.set(node.port, n);
    } finally {
      redis.disconnect();
    }
  }
  return counts;
};

describe("a Redis Cluster whose primary dies under two instances", () => {
  it("20 running searches: 503 only while the replica is promoted, then every search completes on both instances with every offer", async () => {
    const cluster = await startCluster({ nodeTimeoutMs: 1_000 });
    cleanup.push(() => cluster.stop());
    const prefix = testPrefix();
    const logs = [memoryLogger(), memoryLogger()];
    const instances = ["a", "b"].map((id, i) => redisInstance({ redis: targetOf(cluster), prefix, instanceId: id, latency, logger: logs[i]!.logger }));
    for (const { store } of instances) cleanup.push(() => store.close());
    const apps = instances.map((i) => i.app);
    for (let i = 0; i < 50 && !(await Promise.all(instances.map((x) => x.store.ready?.()))).every(Boolean); i++) await new Promise((r) => setTimeout(r, 100));

    const tokens = await openSearches(apps, 20);
    // The keys of many searches spread over every primary.
    const spread = await keysByPrimary(cluster, `${prefix}search:*`);
    expect(spread.size).toBe(3);
    expect([...spread.values()].every((n) => n > 0)).toBe(true);
    expect([...spread.values()].reduce((a, b) => a + b, 0)).toBe(20);

    const keys = redisKeys(prefix);
    const holders = new Map<number, number>();
    for (const token of tokens) {
      const port = cluster.primaryOf(keys.search(token));
      holders.set(port, (holders.get(port) ?? 0) + 1);
    }
    const victim = [...holders].sort((x, y) => y[1] - x[1])[0]![0];
    const failover = { from: 0, to: Infinity };
    const runs = await pollUntilComplete(apps, tokens, async () => {
      await new Promise((r) => setTimeout(r, 1_000)); // the early sources in, the others running
      failover.from = Date.now();
      await cluster.killNode(victim);
      await cluster.waitHealthy();
      failover.to = Date.now() + SETTLE_MS;
    });

    expect(violations(runs, failover)).toEqual([]);
    const unavailable = runs.flatMap((r) => r.seen).filter((s) => s.status === 503);
    // The searches of the dead primary's slots did see the outage; the figures go to the report.
    console.log(
      `cluster failover: ${holders.get(victim)} of 20 searches on the killed primary; failover ${failover.to - SETTLE_MS - failover.from} ms; ` +
        `503s ${unavailable.length}, the last ${Math.max(0, ...unavailable.map((s) => s.at - failover.from))} ms after the kill; ` +
        `written back: ${logs.flatMap((l) => l.records).filter((r) => r.msg === "search.rewritten").length}`,
    );
    expect(unavailable.length).toBeGreaterThan(0);
    const counts: Record<string, number> = {}; for (const r of logs.flatMap((l) => l.records)) counts[r.msg] = (counts[r.msg] ?? 0) + 1; console.log(JSON.stringify(counts)); console.log(JSON.stringify(logs.flatMap((l) => l.records).filter((r) => /behind|rewritten|lost|taken/.test(r.msg))));
  }, 90_000);
});
