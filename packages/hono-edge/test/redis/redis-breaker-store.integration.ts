/**
 * The upstream's breakers on a real Redis, shared by two instances (two connections): the same steps as the
 * in-memory store (closed, open, half-open with one probe, closed or open again), the clock passed in, so
 * time is a number the test moves; then two fan-outs against a failing fake upstream, where the second
 * instance does not ask an airline the first found down; and the fallback while Redis cannot answer.
 */
import { lastValueFrom } from "rxjs";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { search, type SearchQuery } from "@voar/core";
import { createFanOutSources, type BreakerSettings, type BreakerStore } from "@voar/http-adapter/fetch";
import { createFakeUpstream, createSimulator, liveBackend } from "@voar/testing";
import { openRedisConnection, redisBreakerStore } from "../../src/redis/index.js";
import { memoryLogger } from "../support/app.js";
import { connectRedis, countKeys, deleteKeys, testPrefix } from "./support/redis-harness.js";

const settings: BreakerSettings = { failureThreshold: 3, cooldownMs: 30_000, probeTimeoutMs: 5_000 };

/** Two instances' stores on one Redis under a fresh prefix; `done` deletes the keys and closes. */
const twoInstances = async () => {
  const [one, two] = [await connectRedis(), await connectRedis()];
  const prefix = testPrefix();
  const a: BreakerStore = redisBreakerStore({ redis: one, keyPrefix: prefix });
  const b: BreakerStore = redisBreakerStore({ redis: two, keyPrefix: prefix });
  return {
    a,
    b,
    prefix,
    one,
    done: async () => {
      await deleteKeys(one, prefix);
      await Promise.all([one.quit(), two.quit()]);
    },
  };
};

describe("the upstream's breakers on Redis", () => {
  it("closed → open after the threshold (failures of both instances counting together) → half-open, one probe → closed", async () => {
    const { a, b, prefix, one, done } = await twoInstances();
    try {
      let now = 1_000_000;
      expect(await a.admit("upstream:latam", settings, now)).toEqual({ allowed: true, state: "closed" });
      expect(await a.record("upstream:latam", "failure", settings, now)).toBe("closed");
      expect(await b.record("upstream:latam", "failure", settings, now)).toBe("closed");
      expect(await a.record("upstream:latam", "failure", settings, now)).toBe("open");
      expect(await b.admit("upstream:latam", settings, now + 1_000)).toEqual({ allowed: false, state: "open", retryAfterMs: 29_000 });
      expect(await b.admit("upstream:gol", settings, now)).toEqual({ allowed: true, state: "closed" });
      now += 30_000;
      expect(await b.admit("upstream:latam", settings, now)).toEqual({ allowed: true, state: "half-open" });
      // The probe is out: neither instance sends another until it answers.
      expect(await a.admit("upstream:latam", settings, now + 100)).toEqual({ allowed: false, state: "half-open", retryAfterMs: 4_900 });
      expect(await b.record("upstream:latam", "success", settings, now + 200)).toBe("closed");
      expect(await a.admit("upstream:latam", settings, now + 300)).toEqual({ allowed: true, state: "closed" });
      // A breaker closed without failures is no key at all.
      expect(await countKeys(one, prefix)).toBe(0);
    } finally {
      await done();
    }
  });

  it("a failed probe opens it again for a whole cool-down; a probe given up or lost lets the next one through", async () => {
    const { a, b, one, prefix, done } = await twoInstances();
    try {
      let now = 5_000_000;
      for (let i = 0; i < 3; i++) await a.record("upstream:azul", "failure", settings, now);
      now += 30_000;
      expect(await a.admit("upstream:azul", settings, now)).toMatchObject({ allowed: true, state: "half-open" });
      expect(await a.record("upstream:azul", "failure", settings, now + 500)).toBe("open");
      expect(await b.admit("upstream:azul", settings, now + 500)).toEqual({ allowed: false, state: "open", retryAfterMs: 30_000 });
      now += 30_500;
      expect(await b.admit("upstream:azul", settings, now)).toMatchObject({ allowed: true, state: "half-open" });
      expect(await b.record("upstream:azul", "cancelled", settings, now)).toBe("half-open");
      expect(await a.admit("upstream:azul", settings, now)).toMatchObject({ allowed: true, state: "half-open" });
      // That probe is lost with its instance: after probeTimeoutMs another goes.
      expect(await b.admit("upstream:azul", settings, now + 4_999)).toMatchObject({ allowed: false });
      expect(await b.admit("upstream:azul", settings, now + 5_000)).toMatchObject({ allowed: true, state: "half-open" });
      // Kept no longer than it matters.
      const ttl = await one.pttl(`${prefix}breaker:upstream:azul`);
      expect(ttl).toBeGreaterThan(30_000);
      expect(ttl).toBeLessThanOrEqual(2 * (30_000 + 5_000) + 60_000);
    } finally {
      await done();
    }
  });

  it("two instances' fan-outs against a failing upstream: the second asks none of the airlines the first found down", async () => {
    const { a, b, done } = await twoInstances();
    const upstream = createFakeUpstream({
      backend: liveBackend({ sources: createSimulator({ latencyMs: 0 }).sources }),
      auth: { tokens: ["k"] },
      faults: [{ at: 1, through: "end", fault: { kind: "status", status: 503 } }],
    });
    try {
      const common = { baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch: upstream.fetch, airlines: [1, 2, 3], polling: { initialDelayMs: 10 }, strategy: "fan-out" as const };
      const one = createFanOutSources({ ...common, breaker: { store: a } });
      const two = createFanOutSources({ ...common, breaker: { store: b } });
      const query = (): SearchQuery => ({
        origin: "CNF",
        destination: "GIG",
        departureDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        passengers: { adults: 1, children: 0, infants: 0 },
        mode: { kind: "all-airlines" },
      });
      const first = await lastValueFrom(search(query(), one, { baseDelayMs: 10 }));
      expect(upstream.stats.searches).toBe(3 * 3);
      expect(first.sources.map((p) => p.state)).toEqual(["failed", "failed", "failed"]);
      const second = await lastValueFrom(search(query(), two, { baseDelayMs: 10 }));
      expect(upstream.stats.searches).toBe(3 * 3);
      expect(second.sources.map((p) => [p.error?.tag, p.attempts])).toEqual([
        ["SourceUnavailable", 1],
        ["SourceUnavailable", 1],
        ["SourceUnavailable", 1],
      ]);
    } finally {
      upstream.close();
      await done();
    }
  });

  it("while Redis cannot answer, the breakers live in this instance's memory, and the switch is logged once", async () => {
    const down = new Redis("redis://127.0.0.1:1", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    down.on("error", () => undefined);
    const connection = openRedisConnection(down, { commandTimeoutMs: 200 });
    const logs = memoryLogger();
    const store = redisBreakerStore({ redis: connection, logger: logs.logger });
    try {
      const now = 9_000_000;
      for (let i = 0; i < 3; i++) await store.record("upstream:tap", "failure", settings, now);
      expect(await store.admit("upstream:tap", settings, now)).toEqual({ allowed: false, state: "open", retryAfterMs: 30_000 });
      expect(logs.records.filter((r) => r.msg === "breaker.fallback")).toHaveLength(1);
    } finally {
      down.disconnect();
    }
  });
});
