import { Cluster } from "ioredis";
import { memoryBreakerStore } from "@voar/http-adapter/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisAnswerStore, openRedisConnection, redisBreakerStore, redisRateLimiters, type RedisConnection } from "../../src/redis/index.js";
import { hostPort } from "../../src/redis/topology/redis-target.js";
import type { CachedAnswer } from "../../src/sources/answer-store.js";
import { testPrefix } from "./support/redis-harness.js";
import { startCluster, type TestCluster } from "./support/redis-topology.js";

/**
 * What instances share besides searches, on a Redis Cluster: the answer cache (its answers and their bound spread
 * over 16 slots, so over the primaries), the rate limits and the upstream's breakers (one key each).
 */

let cluster: TestCluster;
const connections: RedisConnection[] = [];
let inspect: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ nodeTimeoutMs: 1_000 });
  inspect = new Cluster(cluster.nodes.map(hostPort));
}, 60_000);
afterAll(async () => {
  for (const c of connections) await c.close();
  inspect?.disconnect();
  await cluster?.stop();
});

/** A connection of an instance of its own, ready. */
const connection = async () => {
  const c = openRedisConnection({ kind: "cluster", nodes: cluster.nodes.map(hostPort) });
  connections.push(c);
  for (let i = 0; i < 50 && c.client.status !== "ready"; i++) await new Promise((r) => setTimeout(r, 100));
  return c;
};

const countKeys = async (pattern: string) => {
  let n = 0;
  for (const node of inspect.nodes("master")) n += (await node.keys(pattern)).length;
  return n;
};

describe("shared state on a Redis Cluster", () => {
  it("the answer cache: one instance's answers read by another, bounded in all by maxEntries, spread over the primaries", async () => {
    const prefix = testPrefix();
    const [a, b] = [createRedisAnswerStore({ redis: await connection(), keyPrefix: prefix, maxEntries: 20 }), createRedisAnswerStore({ redis: await connection(), keyPrefix: prefix, maxEntries: 20 })];
    const answers = Array.from({ length: 60 }, (_, i): CachedAnswer => ({ storedAt: Date.now() + i, offers: [] }));
    for (const [i, answer] of answers.entries()) await a.set(`route-${i}`, answer, 60_000);
    expect(await b.get("route-59")).toEqual(answers[59]);
    const kept = await countKeys(`${prefix}answer:*`);
    expect(kept).toBeGreaterThan(10);
    expect(kept).toBeLessThanOrEqual(20);
    const perPrimary = await Promise.all(inspect.nodes("master").map((n) => n.keys(`${prefix}answer:*`).then((k) => k.length)));
    expect(perPrimary.every((n) => n > 0)).toBe(true);
  });

  it("a rate limit and an airline's breaker are one budget and one breaker for every instance", async () => {
    const prefix = testPrefix();
    const [one, two] = [await connection(), await connection()];
    const limiter = (c: RedisConnection) => redisRateLimiters({ redis: c, keyPrefix: prefix })("tenant", { capacity: 2, refillPerSecond: 0.01 });
    expect(await limiter(one).take("acme")).toEqual({ ok: true });
    expect(await limiter(two).take("acme")).toEqual({ ok: true });
    expect(await limiter(one).take("acme")).toMatchObject({ ok: false });
    const settings = { failureThreshold: 1, cooldownMs: 60_000, probeTimeoutMs: 5_000 };
    const breakers = [one, two].map((c) => redisBreakerStore({ redis: c, keyPrefix: prefix, fallback: memoryBreakerStore() }));
    const now = Date.now();
    expect(await breakers[0]!.admit("upstream:latam", settings, now)).toMatchObject({ allowed: true });
    expect(await breakers[0]!.record("upstream:latam", "failure", settings, now)).toBe("open");
    expect(await breakers[1]!.admit("upstream:latam", settings, now + 10)).toMatchObject({ allowed: false, state: "open" });
  });
});
