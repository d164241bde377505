import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { memoryRateLimiters } from "../../src/limits/token-bucket.js";
import { redisRateLimiters } from "../../src/redis/index.js";
import { consultar, manualClock, memoryLogger, testApp } from "../support/app.js";
import { connectRedis, deleteKeys, testPrefix } from "./support/redis-harness.js";

const POLL = { Token: "no-such-search" };

describe("rate limits on Redis, shared by every instance", () => {
  it("two instances count against one tenant budget: 3 requests in all, not 3 each", async () => {
    const [one, two] = [await connectRedis(), await connectRedis()];
    const prefix = testPrefix();
    try {
      const configInput = { limits: { rateLimit: { capacity: 3, refillPerSecond: 0.01 } } };
      const a = testApp({ configInput, rateLimiters: redisRateLimiters({ redis: one, keyPrefix: prefix }) }).app;
      const b = testApp({ configInput, rateLimiters: redisRateLimiters({ redis: two, keyPrefix: prefix }) }).app;
      const statuses = [];
      // Polls of an unknown search (404 BUSCA_EXPIRADA) spend the budget like any request; real time, so no dated query.
      for (const app of [a, b, a, b, a]) statuses.push((await consultar(app, POLL)).status);
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
      const limited = await consultar(b, POLL);
      expect(Number(limited.res.headers.get("retry-after"))).toBeGreaterThanOrEqual(90);
    } finally {
      await deleteKeys(one, prefix);
      await Promise.all([one.quit(), two.quit()]);
    }
  });

  it("login budgets per client address are shared too, and kept apart from the tenants'", async () => {
    const redis = await connectRedis();
    const prefix = testPrefix();
    try {
      const limiters = redisRateLimiters({ redis, keyPrefix: prefix });
      const client = limiters("login-client", { capacity: 2, refillPerSecond: 0.01 });
      const tenant = limiters("tenant", { capacity: 1, refillPerSecond: 0.01 });
      expect((await client.take("203.0.113.7")).ok).toBe(true);
      expect((await limiters("login-client", { capacity: 2, refillPerSecond: 0.01 }).take("203.0.113.7")).ok).toBe(true);
      expect(await client.take("203.0.113.7")).toMatchObject({ ok: false });
      expect((await tenant.take("203.0.113.7")).ok).toBe(true);
    } finally {
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });

  it("while Redis cannot answer, the fallback limiters keep counting (per instance) and the fallback is logged", async () => {
    const down = new Redis("redis://127.0.0.1:1", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    down.on("error", () => undefined);
    const logs = memoryLogger();
    const limiter = redisRateLimiters({ redis: down, fallback: memoryRateLimiters(manualClock()), logger: logs.logger })("tenant", { capacity: 1, refillPerSecond: 0.01 });
    expect((await limiter.take("t")).ok).toBe(true);
    expect((await limiter.take("t")).ok).toBe(false);
    expect(logs.records.find((r) => r.msg === "rate_limit.fallback")).toMatchObject({ level: "warn", budget: "tenant" });
    down.disconnect();
  });
});
