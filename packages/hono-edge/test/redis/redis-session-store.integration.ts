import { describe, expect, it } from "vitest";
import { sessionStoreContract } from "../contract/session-store-contract.js";
import { connectRedis, countKeys, redisHarness } from "./support/redis-harness.js";

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
});
