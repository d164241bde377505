import { afterEach, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { API_KEY, memoryLogger } from "../support/app.js";
import { LISBON, redisInstance } from "./support/instance-setup.js";
import { testPrefix } from "./support/redis-harness.js";
import { startSentinels } from "./support/redis-topology.js";

/**
 * A completed search stays with the instance that ran it until a replica has its completion: replication is
 * asynchronous, and a primary that died right after acknowledging the completion could leave a promoted replica
 * without it, nobody holding the search any more. Here on a primary with a replica, reached by its URL (a managed
 * primary endpoint): the replica frozen, the completion is written but not confirmed (`WAIT`), the owner keeps the
 * search and its lease; the replica thawed, the owner lets it go.
 */

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("a completed search on a primary with a replica", () => {
  it("is kept (its lease held, its completion written again) until the replica confirms it", async () => {
    const topology = await startSentinels({ downAfterMs: 30_000 }); // no failover here: the sentinels only watch
    cleanup.push(() => topology.stop());
    const logs = memoryLogger();
    const prefix = testPrefix();
    const instance = redisInstance({ redis: `redis://127.0.0.1:${topology.primaryPort()}`, prefix, instanceId: "a", latency: () => 200, logger: logs.logger });
    cleanup.push(() => instance.store.close());
    for (let i = 0; i < 50 && !(await instance.store.ready!()); i++) await sleep(100);

    topology.freezeNode(topology.replicaPort, true);
    cleanup.push(async () => topology.freezeNode(topology.replicaPort, false));
    const res = await instance.app.request("/api/ConsultaAereo/Consultar", {
      method: "POST",
      headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ ...LISBON, Ida: daysAhead(35) }),
    });
    const token = ((await res.json()) as Envelope)["Token"] as string;
    // Its sources answer in 200 ms: completed on the primary, not confirmed by the frozen replica.
    let stored = await instance.store.get(token);
    for (let i = 0; i < 50 && !stored?.completed; i++) {
      await sleep(100);
      stored = await instance.store.get(token);
    }
    expect(stored?.completed).toBe(true);
    await sleep(1_500); // a few heartbeats: the completion written again, still not confirmed
    expect((await instance.store.get(token))?.lease?.owner).toBe("a");
    // The run says why it waits, once (per search: the store's own `store.replica_lagging` is once per instance).
    expect(logs.records.filter((r) => r.msg === "search.store_unavailable")).toEqual([expect.objectContaining({ searchId: token, error: expect.stringContaining("no replica confirmed") })]);

    topology.freezeNode(topology.replicaPort, false);
    for (let i = 0; i < 50 && (await instance.store.get(token))?.lease !== undefined; i++) await sleep(100);
    expect((await instance.store.get(token))?.lease).toBeUndefined();
  }, 60_000);
});
