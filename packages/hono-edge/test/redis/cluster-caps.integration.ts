import { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisSessionStore, redisKeys, type RedisSessionStore, type RedisTarget } from "../../src/redis/index.js";
import { hostPort } from "../../src/redis/topology/redis-target.js";
import type { SearchRecord } from "../../src/search/session-store.js";
import { testPrefix } from "./support/redis-harness.js";
import { startCluster, type TestCluster } from "./support/redis-topology.js";

/**
 * The caps on a Redis Cluster, where a search's keys and the running sets live in different slots: places taken
 * and given back by scripts of their own, renewed by the instance that runs each search. Two instances (two
 * stores, each its own connections) open searches at once; one of them dies with its searches running.
 */

const LEASE_MS = 1_000;
const CAPS = { maxSessions: 6, maxSessionsPerTenant: 4 };
const query = { origin: "CNF", destination: "GRU", departureDate: "2026-03-20", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } } as const;
const sources = [{ id: "latam", name: "LATAM" }];
const done = (version: number) => ({ version, offers: [], sources: [{ ...sources[0]!, state: "done" as const, items: 0, attempts: 1 }], completed: true });

let cluster: TestCluster;
let target: RedisTarget;
let inspect: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ nodeTimeoutMs: 1_000 });
  target = { kind: "cluster", nodes: cluster.nodes.map(hostPort) };
  inspect = new Cluster([...target.nodes]);
}, 60_000);
afterAll(async () => {
  inspect?.disconnect();
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An instance's store, ready. */
const storeOf = async (prefix: string): Promise<RedisSessionStore> => {
  const store = createRedisSessionStore({ redis: target, keyPrefix: prefix, ttlMs: 60_000, ...CAPS });
  for (let i = 0; i < 50 && !(await store.ready!()); i++) await sleep(100);
  return store;
};

const candidate = (store: RedisSessionStore, owner: string, tenant: string, key: string): SearchRecord => {
  const now = Date.now();
  return {
    id: store.searchIdFor!(key, crypto.randomUUID()),
    key,
    tenant,
    query,
    sources,
    hiddenCashAirlines: [],
    createdAt: now,
    deadlineAt: now + 60_000,
    version: 0,
    completed: false,
    lease: { owner, expiresAt: now + LEASE_MS },
  };
};

/** The places held in a running set now (lapsed ones aside). */
const placesIn = async (key: string) => inspect.zcount(key, Date.now(), "+inf");

describe("the caps on a Redis Cluster", () => {
  it("stay exact under concurrent opens from two instances and after an owner's death; nothing leaks", async () => {
    const prefix = testPrefix();
    const keys = redisKeys(prefix);
    const [a, b] = [await storeOf(prefix), await storeOf(prefix)];
    try {
      // 30 opens at once, half on each instance, two tenants: exactly the instance cap is let in, no tenant past its own.
      const opens = Array.from({ length: 30 }, (_, i) => {
        const [store, owner] = i % 2 === 0 ? [a, "a"] : [b, "b"];
        const tenant = i % 3 === 0 ? "t1" : "t2";
        return store.openOrJoin(candidate(store, owner, tenant, `k${i}`)).then(
          (r) => ({ ok: true as const, record: r.record, owner }),
          (e: unknown) => ({ ok: false as const, tag: (e as { _tag?: string })._tag }),
        );
      });
      const results = await Promise.all(opens);
      const opened = results.flatMap((r) => (r.ok ? [r] : []));
      expect(opened).toHaveLength(CAPS.maxSessions);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.tag === "SessionCapacityReached")).toBe(true);
      for (const t of ["t1", "t2"]) expect(opened.filter((r) => r.record.tenant === t).length).toBeLessThanOrEqual(CAPS.maxSessionsPerTenant);
      expect(await placesIn(keys.running)).toBe(CAPS.maxSessions);
      for (const t of ["t1", "t2"]) expect(await placesIn(keys.runningOf(t))).toBe(opened.filter((r) => r.record.tenant === t).length);
      // Still exact a few leases later: the owners renew their places.
      await sleep(3 * LEASE_MS);
      expect(await placesIn(keys.running)).toBe(CAPS.maxSessions);
      await expect(b.openOrJoin(candidate(b, "b", "t2", "late"))).rejects.toMatchObject({ _tag: "SessionCapacityReached" });

      // The instance that opened more dies with its searches running: no release, no renewal (its connections just go).
      const dead = opened.filter((r) => r.owner === "a").length >= CAPS.maxSessions / 2 ? "a" : "b";
      const [gone, alive, survivor] = dead === "a" ? [a, b, "b"] : [b, a, "a"];
      const orphans = opened.filter((r) => r.owner === dead).map((r) => r.record);
      await gone.close();
      // Its places hold for a lease, then lapse: the running set counts the survivor's searches only.
      await expect(alive.openOrJoin(candidate(alive, survivor, "t2", "during"))).rejects.toMatchObject({ _tag: "SessionCapacityReached" });
      await sleep(LEASE_MS + 500);
      expect(await placesIn(keys.running)).toBe(CAPS.maxSessions - orphans.length);
      // The survivor takes the orphans over: each takes a place again, never one more than the cap.
      for (const r of orphans) expect(await alive.acquireLease(r.id, survivor, LEASE_MS)).toBe(true);
      expect(await placesIn(keys.running)).toBe(CAPS.maxSessions);
      await expect(alive.openOrJoin(candidate(alive, survivor, "t2", "after"))).rejects.toMatchObject({ _tag: "SessionCapacityReached" });

      // Completing a search gives its place back at once: exactly one more search is let in.
      const first = opened[0]!.record;
      expect(await alive.append(first.id, done(1), survivor, LEASE_MS)).toBe(true);
      expect(await placesIn(keys.running)).toBe(CAPS.maxSessions - 1);
      const next = candidate(alive, survivor, first.tenant, "next");
      expect((await alive.openOrJoin(next)).created).toBe(true);
      await expect(alive.openOrJoin(candidate(alive, survivor, "t2", "one-too-many"))).rejects.toMatchObject({ _tag: "SessionCapacityReached" });

      // Everything completes: no place is left behind.
      const running = [...opened.slice(1).map((r) => r.record), next];
      for (const r of running) expect(await alive.append(r.id, done(1), survivor, LEASE_MS)).toBe(true);
      expect(await placesIn(keys.running)).toBe(0);
      for (const t of ["t1", "t2"]) expect(await placesIn(keys.runningOf(t))).toBe(0);
    } finally {
      await Promise.allSettled([a.close(), b.close()]);
    }
  }, 60_000);

  it("a takeover waits for a place when the cap is full, and is let in once one frees", async () => {
    const prefix = testPrefix();
    const [a, b] = [await storeOf(prefix), await storeOf(prefix)];
    try {
      const mine = await a.openOrJoin(candidate(a, "a", "t1", "orphan"));
      await a.close(); // dies with it running
      await sleep(LEASE_MS + 500);
      const others = [];
      for (let i = 0; i < CAPS.maxSessions; i++) others.push((await b.openOrJoin(candidate(b, "b", `t${i}`, `fill${i}`))).record);
      expect(await b.acquireLease(mine.record.id, "b", LEASE_MS)).toBe(false);
      expect(await b.append(others[0]!.id, done(1), "b", LEASE_MS)).toBe(true);
      expect(await b.acquireLease(mine.record.id, "b", LEASE_MS)).toBe(true);
      expect(await placesIn(redisKeys(prefix).running)).toBe(CAPS.maxSessions);
    } finally {
      await Promise.allSettled([a.close(), b.close()]);
    }
  }, 60_000);
});
