import { describe, expect, it } from "vitest";
import { sessionStoreContract } from "../contract/session-store-contract.js";
import { createRedisSessionStore } from "../../src/redis/index.js";
import type { SearchRecord } from "../../src/search/session-store.js";
import { connectRedis, countKeys, deleteKeys, redisHarness, testPrefix } from "./support/redis-harness.js";

// The same contract as the in-memory store, on a real Redis.
sessionStoreContract("redis", redisHarness);

describe("the Redis session store", () => {
  it("keeps everything under its prefix and lets Redis expire it: nothing is left after the TTL", async () => {
    const h = await redisHarness({ ttlMs: 200, maxChangesPerSearch: 256 });
    const redis = await connectRedis();
    try {
      const now = Date.now();
      const sources = [{ id: "latam", name: "LATAM" }];
      const query = { origin: "CNF", destination: "GRU", departureDate: "2026-03-20", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } } as const;
      await h.store.openOrJoin({ id: "s", key: "k", tenant: "t", query, sources, hiddenCashAirlines: [], createdAt: now, deadlineAt: now + 60_000, version: 0, completed: false, lease: { owner: "a", expiresAt: now + 5_000 } });
      await h.store.append("s", { version: 1, offers: [], sources: [{ ...sources[0]!, state: "done", items: 0, attempts: 1 }], completed: true }, "a", 5_000);
      expect(await countKeys(redis, h.prefix)).toBe(3); // the query mapping, the record, the change log
      await h.elapse(300);
      expect(await countKeys(redis, h.prefix)).toBe(0);
    } finally {
      await h.close();
      await redis.quit();
    }
  });

  it("caps running searches across instances, in all and per tenant: refuses new ones, never drops a running one", async () => {
    const redis = await connectRedis();
    const prefix = testPrefix();
    const settings = { redis, keyPrefix: prefix, ttlMs: 60_000, maxSessions: 3, maxSessionsPerTenant: 2 };
    const one = createRedisSessionStore(settings);
    const two = createRedisSessionStore(settings);
    try {
      const now = Date.now();
      const sources = [{ id: "latam", name: "LATAM" }];
      const query = { origin: "CNF", destination: "GRU", departureDate: "2026-03-20", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } } as const;
      const rec = (id: string, tenant: string, deadlineIn = 60_000): SearchRecord => ({
        id, key: `k-${id}`, tenant, query, sources, hiddenCashAirlines: [], createdAt: now, deadlineAt: now + deadlineIn, version: 0, completed: false, lease: { owner: "x", expiresAt: now + 5_000 },
      });
      expect((await one.openOrJoin(rec("a1", "a", 20_000))).created).toBe(true);
      expect((await two.openOrJoin(rec("a2", "a"))).created).toBe(true);
      await expect(two.openOrJoin(rec("a3", "a"))).rejects.toMatchObject({ _tag: "SessionCapacityReached", scope: "tenant" });
      expect((await two.openOrJoin(rec("b1", "b"))).created).toBe(true);
      const refused = two.openOrJoin(rec("b2", "b"));
      await expect(refused).rejects.toMatchObject({ scope: "instance" });
      // Retry-After: the soonest running search (a1) reaches its deadline in about 20 s.
      const { retryAfterSeconds } = (await refused.catch((e: unknown) => e)) as { retryAfterSeconds: number };
      expect(retryAfterSeconds).toBeGreaterThan(15);
      expect(retryAfterSeconds).toBeLessThanOrEqual(20);
      // Joining needs no room; every running search is still there.
      expect(await one.openOrJoin({ ...rec("a9", "a"), key: "k-a1" })).toMatchObject({ created: false, record: { id: "a1" } });
      expect((await Promise.all(["a1", "a2", "b1"].map((id) => two.get(id)))).map((r) => r?.id)).toEqual(["a1", "a2", "b1"]);
      // A completed search frees its place at once.
      await one.append("a1", { version: 1, offers: [], sources: [{ ...sources[0]!, state: "done", items: 0, attempts: 1 }], completed: true }, "x", 5_000);
      expect((await two.openOrJoin(rec("b2", "b"))).created).toBe(true);
      expect((await one.get("a1"))?.completed).toBe(true);
    } finally {
      await one.close();
      await two.close();
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });
});
