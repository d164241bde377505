/**
 * The answer cache's store on Workers: one answer object per key, its answer kept in storage (cut in chunks that
 * fit a value's limit), read back whole until its TTL, gone at its alarm; two deployments on one namespace
 * never read each other's answers; and the cache over it shares an answer between two searches.
 */
import type { Offer } from "@voar/core";
import { createSimulator } from "@voar/testing";
import { search, type SearchQuery } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/clock.js";
import { AnswerObjectCore, durableAnswerStore } from "../../src/durable/answer-object.js";
import type { DurableObjectNamespace } from "../../src/durable/workers-types.js";
import type { CachedAnswer } from "../../src/sources/answer-store.js";
import { createAnswerCache } from "../../src/sources/cached-sources.js";
import { memoryObjectState } from "./memory-storage.js";

beforeEach(() => vi.useFakeTimers({ now: new Date("2026-03-01T12:00:00Z") }));
afterEach(() => vi.useRealTimers());

/** A namespace of answer objects in memory: each name its object, made when first asked (as the runtime does). */
const answerObjects = () => {
  const objects = new Map<string, { core: AnswerObjectCore; object: ReturnType<typeof memoryObjectState> }>();
  const objectOf = (name: string) => {
    let o = objects.get(name);
    if (!o) {
      const object = memoryObjectState(`answer-${objects.size}`);
      o = { core: new AnswerObjectCore(object.state, systemClock), object };
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

describe("the answer objects", () => {
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
