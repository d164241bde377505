/**
 * What a Worker's search objects share, in shared objects: the answer cache's store (one object per key, its
 * answer kept in storage cut in chunks that fit a value's limit, read back whole until its TTL, gone at its
 * alarm; two deployments on one namespace never read each other's answers; the cache over it shares an answer
 * between two searches) and the upstream breakers' store (opened by one search object, seen by the next; one
 * probe after the cool-down; kept in memory while the objects cannot answer).
 */
import type { Offer } from "@voar/core";
import { createSimulator } from "@voar/testing";
import { search, type SearchQuery } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/clock.js";
import { SharedObjectCore } from "../../src/durable/shared-object.js";
import { durableAnswerStore, durableBreakerStore } from "../../src/durable/shared-stores.js";
import type { DurableObjectNamespace } from "../../src/durable/workers-types.js";
import type { CachedAnswer } from "../../src/sources/answer-store.js";
import { createAnswerCache } from "../../src/sources/cached-sources.js";
import { memoryObjectState } from "./memory-storage.js";

beforeEach(() => vi.useFakeTimers({ now: new Date("2026-03-01T12:00:00Z") }));
afterEach(() => vi.useRealTimers());

/** A namespace of shared objects in memory: each name its object, made when first asked (as the runtime does). */
const answerObjects = () => {
  const objects = new Map<string, { core: SharedObjectCore; object: ReturnType<typeof memoryObjectState> }>();
  const objectOf = (name: string) => {
    let o = objects.get(name);
    if (!o) {
      const object = memoryObjectState(`shared-${objects.size}`);
      o = { core: new SharedObjectCore(object.state, systemClock), object };
      objects.set(name, o);
    }
    return o;
  };
  const namespace: DurableObjectNamespace = {
    idFromName: (name) => ({ toString: () => name }),
    idFromString: (id) => ({ toString: () => id }),
    get: (id) => ({ fetch: (request) => objectOf(id.toString()).core.fetch(request) }),
  };
  return { namespace, objects };
};

/** The one answer object that holds something. */
const holding = (objects: ReturnType<typeof answerObjects>["objects"]) => {
  const list = [...objects.values()].filter((o) => o.object.data.size > 0);
  expect(list).toHaveLength(1);
  return list[0]!;
};

/** An answer of `n` offers, each carrying `pad` characters (a real answer's size is in its offers). */
const answerOf = (n: number, pad = 200): CachedAnswer => ({
  storedAt: Date.now(),
  offers: Array.from({ length: n }, (_, i) => ({ id: `offer-${i}`, sourceId: "upstream:latam", note: `ç${"x".repeat(pad)}` }) as unknown as Offer),
});

describe("answers in the shared objects", () => {
  it("keep an answer until its TTL, read back whole, and delete it at the alarm", async () => {
    const { namespace, objects } = answerObjects();
    const store = durableAnswerStore({ namespace, deployment: "deploy-a" });
    const answer = answerOf(3);
    await store.set("acct|latam|CNF-GRU", answer, 60_000);
    expect(await store.get("acct|latam|CNF-GRU")).toEqual(answer);
    expect(await store.get("acct|latam|CNF-SDU")).toBeUndefined();
    const { object, core } = holding(objects);
    expect(object.alarm()).toBe(Date.now() + 60_000);
    vi.setSystemTime(Date.now() + 60_000);
    expect(await store.get("acct|latam|CNF-GRU")).toBeUndefined();
    await object.fire(() => core.alarm());
    expect(object.data.size).toBe(0);
  });

  it("an answer larger than a stored value's limit is cut in chunks and read back the same; a smaller one replacing it leaves no chunk behind", async () => {
    const { namespace, objects } = answerObjects();
    const store = durableAnswerStore({ namespace, deployment: "deploy-a" });
    // About 1.2 MB of JSON: 30 chunks, each under the 128 KiB of a value (the memory storage enforces it).
    const large = answerOf(4_000, 300);
    await store.set("k", large, 60_000);
    const { object } = holding(objects);
    expect(object.data.size).toBeGreaterThan(10);
    expect(await store.get("k")).toEqual(large);
    const small = answerOf(2);
    await store.set("k", small, 60_000);
    expect(object.data.size).toBe(2); // its meta and one chunk
    expect(await store.get("k")).toEqual(small);
  });

  it("an alarm that fires before a later write's expiry keeps the answer (the write moved it)", async () => {
    const { namespace, objects } = answerObjects();
    const store = durableAnswerStore({ namespace, deployment: "deploy-a" });
    await store.set("k", answerOf(1), 10_000);
    vi.setSystemTime(Date.now() + 5_000);
    await store.set("k", answerOf(2), 10_000);
    vi.setSystemTime(Date.now() + 6_000);
    const { object, core } = holding(objects);
    await object.fire(() => core.alarm());
    expect((await store.get("k"))?.offers).toHaveLength(2);
    expect(object.alarm()).toBe(Date.now() + 4_000);
  });

  it("two deployments on one namespace never read each other's answers", async () => {
    const { namespace } = answerObjects();
    const a = durableAnswerStore({ namespace, deployment: "deploy-a" });
    const b = durableAnswerStore({ namespace, deployment: Promise.resolve("deploy-b") });
    await a.set("same-key", answerOf(1), 60_000);
    expect(await b.get("same-key")).toBeUndefined();
    expect(await a.get("same-key")).toBeDefined();
  });

  it("the cache over them: a second search (another object, another tenant) gets the offers without asking the airline", async () => {
    const { namespace } = answerObjects();
    const latam = createSimulator({ latencyMs: 2_000, batches: 1 }).sources.find((s) => s.id === "latam")!;
    let calls = 0;
    const counted = { ...latam, search: (q: SearchQuery, signal: AbortSignal) => (calls++, latam.search(q, signal)) };
    // Each search object makes its own cache over the same namespace, as two objects of the Worker do.
    const cacheOf = () => createAnswerCache({ store: durableAnswerStore({ namespace, deployment: "deploy-a" }), clock: systemClock, freshMs: 300_000, staleMs: 300_000, account: "acct" });
    const query: SearchQuery = { origin: "CNF", destination: "GRU", departureDate: "2026-03-20", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "single-airline", airlineId: 1 } };
    const run = (cache: ReturnType<typeof cacheOf>) => {
      let last: { offers: number; completed: boolean } = { offers: 0, completed: false };
      search(query, cache.wrap([counted]), { deadlineMs: 30_000 }).subscribe((s) => (last = { offers: s.offers.size, completed: s.completed }));
      return () => last;
    };
    const first = run(cacheOf());
    await vi.advanceTimersByTimeAsync(5_000);
    expect(first()).toMatchObject({ completed: true });
    expect(first().offers).toBeGreaterThan(0);
    const second = run(cacheOf());
    await vi.advanceTimersByTimeAsync(100);
    expect(second()).toEqual(first());
    expect(calls).toBe(1);
  });
});

describe("breakers in the shared objects", () => {
  const settings = { failureThreshold: 3, cooldownMs: 30_000, probeTimeoutMs: 10_000 };

  it("opened by one search object's failures, seen by another's; one probe after the cool-down; closed by its success", async () => {
    const { namespace } = answerObjects();
    // Two search objects: each its own store over the same namespace, as two objects of the Worker make them.
    const [a, b] = [durableBreakerStore({ namespace, deployment: "deploy-a" }), durableBreakerStore({ namespace, deployment: "deploy-a" })];
    const now = () => Date.now();
    for (let i = 0; i < 3; i++) {
      expect(await a.admit("upstream:gol", settings, now())).toMatchObject({ allowed: true });
      await a.record("upstream:gol", "failure", settings, now());
    }
    expect(await b.admit("upstream:gol", settings, now())).toEqual({ allowed: false, state: "open", retryAfterMs: 30_000 });
    expect(await b.admit("upstream:latam", settings, now())).toMatchObject({ allowed: true, state: "closed" });
    // Another deployment on the same namespace: its own breakers.
    expect(await durableBreakerStore({ namespace, deployment: "deploy-b" }).admit("upstream:gol", settings, now())).toMatchObject({ allowed: true });
    vi.setSystemTime(now() + 30_000);
    expect(await b.admit("upstream:gol", settings, now())).toEqual({ allowed: true, state: "half-open" });
    expect(await a.admit("upstream:gol", settings, now())).toMatchObject({ allowed: false, state: "half-open" });
    expect(await b.record("upstream:gol", "success", settings, now())).toBe("closed");
    expect(await a.admit("upstream:gol", settings, now())).toMatchObject({ allowed: true, state: "closed" });
  });

  it("while the objects cannot answer, the breakers live in memory, and the switch is logged once each way", async () => {
    const { namespace } = answerObjects();
    let down = true;
    const flaky = { ...namespace, get: (id: Parameters<typeof namespace.get>[0]) => (down ? { fetch: () => Promise.reject(new Error("object unreachable")) } : namespace.get(id)) };
    const logs: { msg: string; level: string }[] = [];
    const store = durableBreakerStore({ namespace: flaky, deployment: "deploy-a", logger: { log: (r) => logs.push(r) } });
    for (let i = 0; i < 3; i++) {
      await store.admit("upstream:gol", settings, Date.now());
      await store.record("upstream:gol", "failure", settings, Date.now());
    }
    // Kept in memory meanwhile: still open in this search object.
    expect(await store.admit("upstream:gol", settings, Date.now())).toMatchObject({ allowed: false, state: "open" });
    down = false;
    expect(await store.admit("upstream:azul", settings, Date.now())).toMatchObject({ allowed: true });
    expect(logs.map((l) => [l.level, l.msg])).toEqual([
      ["warn", "breaker.fallback"],
      ["info", "breaker.shared"],
    ]);
  });

  it("a breaker's record is gone at its alarm once it has outlived its cool-down and probe", async () => {
    const { namespace, objects } = answerObjects();
    const store = durableBreakerStore({ namespace, deployment: "deploy-a" });
    for (let i = 0; i < 3; i++) await store.record("upstream:gol", "failure", settings, Date.now());
    const { object, core } = holding(objects);
    const at = object.alarm()!;
    expect(at).toBe(Date.now() + 2 * (30_000 + 10_000) + 60_000);
    vi.setSystemTime(at);
    await object.fire(() => core.alarm());
    expect(object.data.size).toBe(0);
  });
});
