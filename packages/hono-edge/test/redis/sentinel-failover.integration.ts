import { afterEach, describe, expect, it } from "vitest";
import type { RedisTarget } from "../../src/redis/index.js";
import { hostPort } from "../../src/redis/topology/redis-target.js";
import { memoryLogger } from "../support/app.js";
import { openSearches, pollUntilComplete, violations } from "./support/failover-scenario.js";
import { redisInstance } from "./support/instance-setup.js";
import { testPrefix } from "./support/redis-harness.js";
import { startSentinels } from "./support/redis-topology.js";

/**
 * A primary, its replica and three sentinels (started here on free ports, `down-after-milliseconds` 1 s) under two
 * instances of the service with 20 running searches: the primary is killed with SIGKILL. While the sentinels
 * promote the replica, requests that need the store answer 503 `INDISPONIVEL` with Retry-After; the instances
 * follow the new primary, and every search completes on both with every offer a client was shown.
 */

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

/** How long after the sentinels named the new primary the instances may still answer 503 (reconnection, guards, owners confirming). */
const SETTLE_MS = 5_000;
const latency = (id: string) => (id === "latam" ? 300 : id === "azul" ? 600 : id === "gol" ? 2_500 : 6_000);

describe("a Sentinel primary that dies under two instances", () => {
  it("20 running searches: 503 only while the replica is promoted, then every search completes on both instances with every offer", async () => {
    const sentinels = await startSentinels({ downAfterMs: 1_000 });
    cleanup.push(() => sentinels.stop());
    const target: RedisTarget = { kind: "sentinel", sentinels: sentinels.sentinels.map(hostPort), name: sentinels.name };
    const prefix = testPrefix();
    const logs = [memoryLogger(), memoryLogger()];
    const instances = ["a", "b"].map((id, i) => redisInstance({ redis: target, prefix, instanceId: id, latency, logger: logs[i]!.logger }));
    for (const { store } of instances) cleanup.push(() => store.close());
    const apps = instances.map((i) => i.app);
    for (let i = 0; i < 50 && !(await Promise.all(instances.map((x) => x.store.ready?.()))).every(Boolean); i++) await new Promise((r) => setTimeout(r, 100));

    const tokens = await openSearches(apps, 20);
    const primary = sentinels.primaryPort();
    const failover = { from: 0, to: Infinity };
    const runs = await pollUntilComplete(apps, tokens, async () => {
      await new Promise((r) => setTimeout(r, 1_000)); // the early sources in, the others running
      failover.from = Date.now();
      await sentinels.killNode(primary);
      await sentinels.waitPromoted(primary);
      failover.to = Date.now() + SETTLE_MS;
    });

    const v = violations(runs, failover);
    if (v.length > 0) {
      // What a failure needs to be understood (seen about once in five to ten runs on a loaded machine: one instance
      // then answers 503 to the end while the other took its searches over): what each instance logged besides its
      // requests, whether its store answers now, and the last answers of a few searches (ms after the kill:instance:status).
      console.log(`sentinel failover: ${v.length} violations; first ${JSON.stringify(v.slice(0, 3))}; last ${JSON.stringify(v.slice(-3))}`);
      for (const [i, l] of logs.entries()) console.log(`instance ${i} logged: ${JSON.stringify(l.records.filter((r) => r.msg !== "request" && r.msg !== "search.started")).slice(0, 4_000)}`);
      for (const [i, x] of instances.entries()) console.log(`instance ${i}: store ready ${String(await x.store.ready?.())}`);
      for (const r of runs.slice(0, 4)) console.log(`${r.token}: ${r.seen.slice(-6).map((s) => `${s.at - failover.from}:${s.instance}:${s.status}${s.completed ? " completed" : ""}`).join(", ")}`);
    }
    expect(v).toEqual([]);
    const unavailable = runs.flatMap((r) => r.seen).filter((s) => s.status === 503);
    console.log(
      `sentinel failover: ${failover.to - SETTLE_MS - failover.from} ms until the sentinels named the replica; 503s ${unavailable.length}, ` +
        `the last ${Math.max(0, ...unavailable.map((s) => s.at - failover.from))} ms after the kill; ` +
        `written back: ${logs.flatMap((l) => l.records).filter((r) => r.msg === "search.rewritten").length}`,
    );
    expect(unavailable.length).toBeGreaterThan(0);
    expect(sentinels.primaryPort()).not.toBe(primary);
  }, 90_000);
});
