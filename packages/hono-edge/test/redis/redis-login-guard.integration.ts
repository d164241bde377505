import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { memoryRateLimiters } from "../../src/limits/token-bucket.js";
import { redisRateLimiters } from "../../src/redis/index.js";
import { AGENCY, manualClock, memoryLogger, testApp } from "../support/app.js";
import { connectRedis, countKeys, deleteKeys, testPrefix } from "./support/redis-harness.js";

type App = ReturnType<typeof testApp>["app"];

const login = (app: App, password: string, from: string) =>
  app.request("/api/Token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": from },
    body: new URLSearchParams({ grant_type: "password", username: AGENCY.username, password }).toString(),
  });

describe("login limits on Redis, shared by every instance", () => {
  it("peek writes nothing, refund gives a token back, drain empties a bucket that then expires when full again", async () => {
    const redis = await connectRedis();
    const prefix = testPrefix();
    try {
      const buckets = redisRateLimiters({ redis, keyPrefix: prefix })("login-known", { capacity: 2, refillPerSecond: 0.01 });
      expect(await buckets.peek("k")).toEqual({ ok: true });
      expect(await countKeys(redis, prefix)).toBe(0);
      expect([(await buckets.take("k")).ok, (await buckets.take("k")).ok, (await buckets.take("k")).ok]).toEqual([true, true, false]);
      await buckets.refund("k");
      expect(await buckets.peek("k")).toEqual({ ok: true });
      await buckets.drain("k");
      expect(await buckets.peek("k")).toMatchObject({ ok: false, retryAfterSeconds: 100 });
      // Full again after capacity / rate = 200 s: the key lives that long and no longer.
      const ttl = await redis.pttl(`${prefix}rate:login-known:k`);
      expect(ttl).toBeGreaterThan(199_000);
      expect(ttl).toBeLessThanOrEqual(201_000);
    } finally {
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });

  it("two instances count one account's failures together; the address it logged in from is known on both, and successes do not count", async () => {
    const [one, two] = [await connectRedis(), await connectRedis()];
    const prefix = testPrefix();
    try {
      const configInput = { http: { trustedProxyHeader: "x-forwarded-for" } };
      const a = testApp({ configInput, rateLimiters: redisRateLimiters({ redis: one, keyPrefix: prefix }) }).app;
      const b = testApp({ configInput, rateLimiters: redisRateLimiters({ redis: two, keyPrefix: prefix }) }).app;
      const home = "198.51.100.2";
      for (let i = 0; i < 20; i++) expect((await login(i % 2 === 0 ? a : b, AGENCY.password, home)).status).toBe(200);
      const guesses = [];
      for (let i = 0; i < 16; i++) guesses.push((await login(i % 2 === 0 ? a : b, `guess-${i}`, `10.0.0.${i}`)).status);
      expect(guesses).toEqual([...Array<number>(10).fill(400), ...Array<number>(6).fill(429)]);
      expect((await login(b, AGENCY.password, home)).status).toBe(200);
      expect((await login(a, AGENCY.password, home)).status).toBe(200);
      expect((await login(a, AGENCY.password, "198.51.100.99")).status).toBe(429);
    } finally {
      await deleteKeys(one, prefix);
      await Promise.all([one.quit(), two.quit()]);
    }
  });

  it("while Redis cannot answer, every operation goes to the fallback buckets", async () => {
    const down = new Redis("redis://127.0.0.1:1", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    down.on("error", () => undefined);
    const logs = memoryLogger();
    const buckets = redisRateLimiters({ redis: down, fallback: memoryRateLimiters(manualClock()), logger: logs.logger })("login-known", { capacity: 1, refillPerSecond: 0.01 });
    expect(await buckets.peek("k")).toEqual({ ok: true });
    await buckets.drain("k");
    expect(await buckets.peek("k")).toMatchObject({ ok: false });
    await buckets.refund("k");
    expect((await buckets.take("k")).ok).toBe(true);
    expect(logs.records.filter((r) => r.msg === "rate_limit.fallback").length).toBeGreaterThan(0);
    down.disconnect();
  });
});
