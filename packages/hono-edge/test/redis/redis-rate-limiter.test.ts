import type { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryRateLimiters } from "../../src/limits/token-bucket.js";
import type { RedisConnection } from "../../src/redis/redis-connection.js";
import { redisRateLimiters } from "../../src/redis/redis-rate-limiter.js";
import { createStoreGuard } from "../../src/redis/store-guard.js";
import { manualClock, memoryLogger } from "../support/app.js";
import { fakeClient } from "./support/fake-client.js";

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

/** A connection over a fake client whose token-bucket script answers "taken" unless Redis is frozen. */
const connection = () => {
  const fake = fakeClient();
  let frozen = false;
  const evalsha = vi.fn(() => (frozen ? new Promise<never>(() => undefined) : Promise.resolve([1])));
  const client = Object.assign(fake.client, { evalsha }) as unknown as Redis;
  const guard = createStoreGuard(fake.client, { commandTimeoutMs: 500, startupWaitMs: 500, failureThreshold: 1, cooldownMs: 1_000, retryAfterSeconds: 1 });
  const redis: RedisConnection = { client, topology: "single", guard, duplicate: () => client, subscriber: () => client, close: () => Promise.resolve() };
  return { redis, fake, evalsha, freeze: () => void (frozen = true), thaw: () => void ((frozen = false), fake.answerPings()) };
};

describe("rate limits on Redis, through the Redis's availability view", () => {
  it("while Redis is down, every take goes to the in-memory fallback at once; the switch is logged once each way", async () => {
    const c = connection();
    const logs = memoryLogger();
    const limiter = redisRateLimiters({ redis: c.redis, fallback: memoryRateLimiters(manualClock()), logger: logs.logger })("tenant", { capacity: 2, refillPerSecond: 0.01 });
    expect(await limiter.take("acme")).toEqual({ ok: true });
    expect(c.evalsha).toHaveBeenCalledTimes(1);

    c.fake.emit("close"); // ECONNREFUSED from now on
    const decisions = [];
    for (let i = 0; i < 50; i++) decisions.push(await limiter.take("acme"));
    expect(c.evalsha).toHaveBeenCalledTimes(1); // Redis was not asked: no request waited for it
    expect(decisions.slice(0, 2)).toEqual([{ ok: true }, { ok: true }]); // the fallback counts on its own
    expect(decisions.slice(2).every((d) => !d.ok)).toBe(true);

    c.fake.emit("ready");
    expect(await limiter.take("acme")).toEqual({ ok: true });
    expect(logs.records.map((r) => [r.level, r.msg])).toEqual([
      ["warn", "rate_limit.fallback"],
      ["info", "rate_limit.shared"],
    ]);
    expect(logs.records[1]).toMatchObject({ fallbackTakes: 50 });
  });

  it("a frozen Redis costs one take the command timeout (its probe unanswered); the takes after it fall back at once", async () => {
    const c = connection();
    const limiter = redisRateLimiters({ redis: c.redis, fallback: memoryRateLimiters(manualClock()) })("login-client", { capacity: 20, refillPerSecond: 0.2 });
    c.freeze();
    const first = limiter.take("203.0.113.7");
    await vi.advanceTimersByTimeAsync(510);
    expect(await first).toEqual({ ok: true });
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) expect(await limiter.take("203.0.113.7")).toEqual({ ok: true });
    expect(Date.now() - t0).toBe(0);
    expect(c.evalsha).toHaveBeenCalledTimes(1);
    c.thaw();
    await vi.advanceTimersByTimeAsync(1_000);
    await limiter.take("203.0.113.7");
    expect(c.evalsha).toHaveBeenCalledTimes(2); // back on the shared bucket
  });
});
