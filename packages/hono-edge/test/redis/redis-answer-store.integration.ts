import { createSimulator } from "@voar/testing/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { search, type SearchQuery, type SearchSnapshot, type SearchSource } from "@voar/core";
import { systemClock } from "../../src/clock.js";
import { createRedisAnswerStore, openRedisConnection } from "../../src/redis/index.js";
import { createAnswerCache } from "../../src/sources/cached-sources.js";
import { connectRedis, countKeys, deleteKeys, testPrefix } from "./support/redis-harness.js";

/**
 * The answer cache through Redis: two instances (two caches, two connections) share the answers, so a
 * route one instance searched is answered at once on the other without asking the source; entries expire
 * with their TTL and their number stays bounded.
 */

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

const query = (day: number): SearchQuery => ({
  origin: "CNF",
  destination: "GRU",
  departureDate: new Date(Date.now() + (20 + day) * 86_400_000).toISOString().slice(0, 10),
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "single-airline", airlineId: 1 },
});

const instance = async (keyPrefix: string, maxEntries = 100) => {
  const connection = openRedisConnection(await connectRedis());
  cleanup.push(async () => connection.client.disconnect());
  const latam = createSimulator({ latencyMs: 100, batches: 1 }).sources.find((s) => s.id === "latam")!;
  const counter = { calls: 0 };
  const source: SearchSource = { ...latam, search: (q, signal) => (counter.calls++, latam.search(q, signal)) };
  const cache = createAnswerCache({ store: createRedisAnswerStore({ redis: connection, keyPrefix, maxEntries }), clock: systemClock, freshMs: 60_000, staleMs: 0, account: "it" });
  cleanup.push(async () => cache.close());
  return { sources: cache.wrap([source]), counter, cache };
};

const run = (q: SearchQuery, sources: readonly SearchSource[]) =>
  new Promise<{ last: SearchSnapshot; firstMs: number }>((resolve, reject) => {
    const t0 = performance.now();
    let firstMs = Infinity;
    let last: SearchSnapshot | undefined;
    search(q, sources, { deadlineMs: 10_000 }).subscribe({
      next: (s) => {
        last = s;
        if (s.offers.size > 0 && firstMs === Infinity) firstMs = performance.now() - t0;
      },
      error: reject,
      complete: () => resolve({ last: last!, firstMs }),
    });
  });

describe("the answer cache in Redis", () => {
  it("shares one instance's answers with another; entries stay bounded", async () => {
    const prefix = testPrefix();
    const redis = await connectRedis();
    cleanup.push(async () => {
      await deleteKeys(redis, prefix);
      redis.disconnect();
    });
    const a = await instance(prefix, 3);
    const b = await instance(prefix, 3);

    const first = await run(query(1), a.sources);
    expect(first.last.offers.size).toBeGreaterThan(0);
    // Written once the run completed: wait for the write to land.
    for (let i = 0; i < 50 && (await countKeys(redis, `${prefix}answer:`)) === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const second = await run(query(1), b.sources);
    expect(b.counter.calls).toBe(0);
    expect([...second.last.offers.keys()].sort()).toEqual([...first.last.offers.keys()].sort());
    expect([...second.last.offers.values()].every((o) => typeof o.seenAt === "number" && o.validUntil === o.seenAt + 60_000)).toBe(true);

    for (const day of [2, 3, 4, 5]) await run(query(day), a.sources);
    await new Promise((r) => setTimeout(r, 100));
    expect(await countKeys(redis, `${prefix}answer:`)).toBe(3);
    const ttl = await redis.pttl((await redis.keys(`${prefix}answer:*`))[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
