/**
 * A source's breaker through its states, in virtual time: closed → open after the threshold of failed
 * requests in a row → half-open once the cool-down is over (one probe) → closed when the probe answers, open
 * again when it fails. Run against the in-memory store, one store seen by two "instances"; the Redis store
 * passes the same steps in hono-edge's integration tier.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryBreakerStore, type BreakerSettings, type BreakerStore } from "../../src/upstream/breaker-state.js";
import { TEST_NOW } from "../support/live-upstream.js";

const settings: BreakerSettings = { failureThreshold: 3, cooldownMs: 30_000, probeTimeoutMs: 5_000 };

/** The behaviour every breaker store shows; `stores()` gives two views of one shared state (two instances). */
const breakerStoreContract = (stores: () => Promise<readonly [BreakerStore, BreakerStore]> | readonly [BreakerStore, BreakerStore], key: () => string) => {
  it("closed → open after the threshold of failures in a row; a success in between starts the count again", async () => {
    const [store] = await stores();
    const k = key();
    const fail = () => store.record(k, "failure", settings, Date.now());
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: true, state: "closed" });
    expect(await fail()).toBe("closed");
    expect(await fail()).toBe("closed");
    expect(await store.record(k, "success", settings, Date.now())).toBe("closed");
    expect(await fail()).toBe("closed");
    expect(await fail()).toBe("closed");
    expect(await fail()).toBe("open");
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: false, state: "open", retryAfterMs: 30_000 });
  });

  it("open for the cool-down, then half-open with one probe; the probe's success closes it", async () => {
    const [store] = await stores();
    const k = key();
    for (let i = 0; i < 3; i++) await store.record(k, "failure", settings, Date.now());
    await vi.advanceTimersByTimeAsync(29_000);
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: false, state: "open", retryAfterMs: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: true, state: "half-open" });
    // One probe at a time: the next request waits for its answer.
    expect(await store.admit(k, settings, Date.now())).toMatchObject({ allowed: false, state: "half-open" });
    expect(await store.record(k, "success", settings, Date.now())).toBe("closed");
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: true, state: "closed" });
  });

  it("a failed probe opens it again for a whole cool-down", async () => {
    const [store] = await stores();
    const k = key();
    for (let i = 0; i < 3; i++) await store.record(k, "failure", settings, Date.now());
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: true, state: "half-open" });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await store.record(k, "failure", settings, Date.now())).toBe("open");
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: false, state: "open", retryAfterMs: 30_000 });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: true, state: "half-open" });
  });

  it("a probe given up (its search ended) or lost (no answer within probeTimeoutMs) lets the next one through", async () => {
    const [store] = await stores();
    const k = key();
    for (let i = 0; i < 3; i++) await store.record(k, "failure", settings, Date.now());
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await store.admit(k, settings, Date.now())).toMatchObject({ allowed: true });
    expect(await store.record(k, "cancelled", settings, Date.now())).toBe("half-open");
    expect(await store.admit(k, settings, Date.now())).toMatchObject({ allowed: true, state: "half-open" });
    expect(await store.admit(k, settings, Date.now())).toEqual({ allowed: false, state: "half-open", retryAfterMs: 5_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await store.admit(k, settings, Date.now())).toMatchObject({ allowed: true, state: "half-open" });
  });

  it("two instances share one breaker: one opens it, the other does not ask; only one of them probes", async () => {
    const [a, b] = await stores();
    const k = key();
    await a.record(k, "failure", settings, Date.now());
    await b.record(k, "failure", settings, Date.now());
    expect(await a.record(k, "failure", settings, Date.now())).toBe("open");
    expect(await b.admit(k, settings, Date.now())).toEqual({ allowed: false, state: "open", retryAfterMs: 30_000 });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await b.admit(k, settings, Date.now())).toEqual({ allowed: true, state: "half-open" });
    expect(await a.admit(k, settings, Date.now())).toMatchObject({ allowed: false, state: "half-open" });
    expect(await b.record(k, "success", settings, Date.now())).toBe("closed");
    expect(await a.admit(k, settings, Date.now())).toEqual({ allowed: true, state: "closed" });
  });

  it("breakers of different sources are apart", async () => {
    const [store] = await stores();
    const k = key();
    for (let i = 0; i < 3; i++) await store.record(`${k}:latam`, "failure", settings, Date.now());
    expect(await store.admit(`${k}:latam`, settings, Date.now())).toMatchObject({ allowed: false });
    expect(await store.admit(`${k}:gol`, settings, Date.now())).toEqual({ allowed: true, state: "closed" });
  });
};

describe("breaker states, in-memory store", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());
  let n = 0;
  breakerStoreContract(
    () => {
      const shared = memoryBreakerStore();
      return [shared, shared] as const;
    },
    () => `upstream:test-${++n}`,
  );

  it("forgets a breaker once it is closed without failures (no memory held per source that recovered)", async () => {
    const store = memoryBreakerStore();
    await store.record("s", "failure", settings, Date.now());
    expect(store.records.size).toBe(1);
    await store.record("s", "success", settings, Date.now());
    expect(store.records.size).toBe(0);
  });
});
