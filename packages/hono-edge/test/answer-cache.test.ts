/**
 * The answer cache, in virtual time: fresh answers served without asking the source, stale ones served at
 * once and refreshed once whatever the number of searches asking, expired ones asked anew; identical
 * queries of different searches share one run; and tenant rules (the Pagante switch) applied per search
 * after the cache, so no tenant sees another's choices.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSimulator } from "@voar/testing";
import { search, type SearchQuery, type SearchSnapshot, type SearchSource } from "@voar/core";
import { systemClock } from "../src/clock.js";
import { createMemoryAnswerStore, type AnswerStore } from "../src/sources/answer-store.js";
import { createAnswerCache, type CacheLookup } from "../src/sources/cached-sources.js";
import { cachedUpstreamSources, upstreamAccount } from "../src/sources/cached-upstream.js";
import { UpstreamSchema } from "../src/config/deploy-schema.js";
import { ADMIN_KEY, API_KEY, consultar, NOW, OTHER_KEY, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const FRESH = 60_000;
const STALE = 120_000;
const query: SearchQuery = {
  origin: "CNF",
  destination: "GRU",
  departureDate: "2026-03-20",
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "single-airline", airlineId: 1 },
};

/** The simulator's LATAM, answering in 2 s, counting how often it is asked. */
const countedLatam = () => {
  const latam = createSimulator({ latencyMs: 2_000, batches: 1 }).sources.find((s) => s.id === "latam")!;
  const counter = { calls: 0 };
  const source: SearchSource = { ...latam, search: (q, signal) => (counter.calls++, latam.search(q, signal)) };
  return { source, counter };
};

const cacheOver = (store: AnswerStore = createMemoryAnswerStore({ maxEntries: 100, clock: systemClock })) => {
  const lookups: CacheLookup[] = [];
  const cache = createAnswerCache({ store, clock: systemClock, freshMs: FRESH, staleMs: STALE, account: "test", onCacheLookup: (o) => lookups.push(o) });
  return { cache, lookups };
};

/** Runs a search, collecting its snapshots with the virtual time each came at. */
const start = (sources: readonly SearchSource[], options: { hiddenCashAirlines?: number[] } = {}) => {
  const t0 = Date.now();
  const seen: { at: number; s: SearchSnapshot }[] = [];
  search(query, sources, { deadlineMs: 30_000, ...options }).subscribe((s) => seen.push({ at: Date.now() - t0, s }));
  return {
    seen,
    last: () => seen.at(-1)!.s,
    firstOfferAt: () => seen.find((x) => x.s.offers.size > 0)?.at,
  };
};

const settle = () => vi.advanceTimersByTimeAsync(5_000);

describe("the answer cache", () => {
  it("serves a fresh answer at once, without asking the source", async () => {
    const { source, counter } = countedLatam();
    const { cache, lookups } = cacheOver();
    const [cached] = cache.wrap([source]);
    const first = start([cached!]);
    await settle();
    expect(first.last().completed).toBe(true);
    expect(first.firstOfferAt()).toBeGreaterThanOrEqual(2_000);

    await vi.advanceTimersByTimeAsync(FRESH - 10_000); // still fresh
    const second = start([cached!]);
    await vi.advanceTimersByTimeAsync(0);
    expect(second.last().completed).toBe(true);
    expect(second.firstOfferAt()).toBe(0);
    expect([...second.last().offers.keys()]).toEqual([...first.last().offers.keys()]);
    expect(counter.calls).toBe(1);
    expect(lookups).toEqual(["miss", "hit"]);
  });

  it("serves a stale answer at once and refreshes it once, not once per search asking", async () => {
    const { source, counter } = countedLatam();
    const { cache, lookups } = cacheOver();
    const [cached] = cache.wrap([source]);
    start([cached!]);
    await settle();
    await vi.advanceTimersByTimeAsync(FRESH + 1_000); // stale now
    counter.calls = 0;
    lookups.length = 0;

    const searches = [start([cached!]), start([cached!]), start([cached!])];
    await vi.advanceTimersByTimeAsync(0);
    for (const s of searches) expect(s.firstOfferAt()).toBe(0); // the cached offers, at once
    for (const s of searches) expect(s.last().completed).toBe(false); // following the refresh
    await settle();
    expect(counter.calls).toBe(1);
    expect(lookups).toEqual(["stale", "stale", "stale"]);
    for (const s of searches) expect(s.last().completed).toBe(true);
    // The refreshed offers were seen now, not when the stale answer was.
    const refreshed = [...searches[0]!.last().offers.values()];
    expect(refreshed.every((o) => o.seenAt! >= NOW + FRESH + 1_000 + 1_000)).toBe(true);

    // The refresh made the answer fresh again.
    const after = start([cached!]);
    await vi.advanceTimersByTimeAsync(0);
    expect(after.last().completed).toBe(true);
    expect(counter.calls).toBe(1);
  });

  it("a stale answer's refresh runs to its end when the searches asking stop, and fills the cache", async () => {
    const { source, counter } = countedLatam();
    const { cache } = cacheOver();
    const [cached] = cache.wrap([source]);
    start([cached!]);
    await settle();
    await vi.advanceTimersByTimeAsync(FRESH + 1_000);
    const controller = new AbortController();
    const it = cached!.search(query, controller.signal)[Symbol.asyncIterator]();
    expect(((await it.next()).value as unknown[]).length).toBeGreaterThan(0); // the stale offers
    await it.return!(undefined); // the search stops
    expect(cache.inFlight()).toBe(1);
    await settle();
    expect(cache.inFlight()).toBe(0);
    const later = start([cached!]);
    await vi.advanceTimersByTimeAsync(0);
    expect(later.last().completed).toBe(true);
    expect(counter.calls).toBe(2);
  });

  it("asks the source again once the answer is past fresh and stale", async () => {
    const { source, counter } = countedLatam();
    const { cache, lookups } = cacheOver();
    const [cached] = cache.wrap([source]);
    start([cached!]);
    await settle();
    await vi.advanceTimersByTimeAsync(FRESH + STALE + 1_000);
    const again = start([cached!]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(again.firstOfferAt()).toBeUndefined(); // nothing at once: the source is asked
    await settle();
    expect(again.firstOfferAt()).toBeGreaterThanOrEqual(2_000);
    expect(counter.calls).toBe(2);
    expect(lookups).toEqual(["miss", "miss"]);
  });

  it("shares one run between searches asking the same query at once; a failed run is not cached", async () => {
    const { source, counter } = countedLatam();
    let fail = true;
    const flaky: SearchSource = {
      ...source,
      search: async function* (q, signal) {
        if (fail) {
          counter.calls++;
          throw new Error("boom");
        }
        yield* source.search(q, signal);
      },
    };
    const { cache } = cacheOver();
    const [cached] = cache.wrap([flaky]);
    const failed = start([cached!]);
    await settle();
    expect(failed.last().sources[0]!.state).toBe("failed");
    fail = false;
    const a = start([cached!]);
    const b = start([cached!]);
    await settle();
    expect(a.last().offers.size).toBeGreaterThan(0);
    expect([...b.last().offers.keys()]).toEqual([...a.last().offers.keys()]);
    // The failing search's three attempts (the engine's retries), then one run for both searches.
    expect(counter.calls).toBe(3 + 1);
  });

  it("asks the source when the store is unreachable", async () => {
    const { source, counter } = countedLatam();
    const down: AnswerStore = { get: () => Promise.reject(new Error("store down")), set: () => Promise.reject(new Error("store down")) };
    const { cache } = cacheOver(down);
    const [cached] = cache.wrap([source]);
    const a = start([cached!]);
    await settle();
    const b = start([cached!]);
    await settle();
    expect(a.last().offers.size).toBeGreaterThan(0);
    expect(b.last().offers.size).toBe(a.last().offers.size);
    expect(counter.calls).toBe(2);
  });

  it("caches the source's whole answer: each search applies its own Pagante choice after the cache", async () => {
    const { source, counter } = countedLatam();
    const { cache } = cacheOver();
    const [cached] = cache.wrap([source]);
    // One tenant hides LATAM's cash fares; another, asking the same query meanwhile, does not.
    const hiding = start([cached!], { hiddenCashAirlines: [1] });
    const showing = start([cached!]);
    await settle();
    const cash = (s: SearchSnapshot) => [...s.offers.values()].filter((o) => o.miles === undefined).length;
    expect(counter.calls).toBe(1);
    expect(cash(hiding.last())).toBe(0);
    expect(cash(showing.last())).toBeGreaterThan(0);
    // And from the cache, the other way round.
    const showingLater = start([cached!]);
    const hidingLater = start([cached!], { hiddenCashAirlines: [1] });
    await vi.advanceTimersByTimeAsync(0);
    expect(counter.calls).toBe(1);
    expect(cash(showingLater.last())).toBe(cash(showing.last()));
    expect(cash(hidingLater.last())).toBe(0);
  });
});

describe("the answer cache in the service", () => {
  it("a second tenant gets the first one's route from the cache, through its own Pagante view", async () => {
    let calls = 0;
    const sources = createSimulator({ latencyMs: 1_000, batches: 1 }).sources.map((s): SearchSource => ({ ...s, search: (q, signal) => (calls++, s.search(q, signal)) }));
    const { cache } = cacheOver();
    const { app } = testApp({ sources: cache.wrap(sources) });
    const setLatamPagante = (on: boolean) =>
      app.request("/api/admin/pagante", { method: "PUT", headers: { "Content-Type": "application/json", "X-Admin-Key": ADMIN_KEY }, body: JSON.stringify({ IdCia: 1, Pagante: on }) });
    const body = { ...QUERY, Companhia: 1 };

    // Tenant "acme" searches LATAM with its cash fares hidden.
    expect((await setLatamPagante(false)).status).toBe(200);
    await consultar(app, body, { Authorization: `Bearer ${API_KEY}` });
    await vi.advanceTimersByTimeAsync(2_000);
    const acme = (await consultar(app, body, { Authorization: `Bearer ${API_KEY}` })).body;
    expect(acme.Completed).toBe(true);
    const asked = calls;
    expect(acme.Data[0].Ida.length).toBeGreaterThan(0);
    expect(acme.Data[0].Ida.every((o) => o.PontosAdulto >= 0)).toBe(true);

    // Cash fares on again; tenant "other" asks the same route: answered at once from the cache, with them.
    expect((await setLatamPagante(true)).status).toBe(200);
    const other = (await consultar(app, body, { Authorization: `Bearer ${OTHER_KEY}` })).body;
    await vi.advanceTimersByTimeAsync(0);
    const otherDone = (await consultar(app, body, { Authorization: `Bearer ${OTHER_KEY}` })).body;
    void other;
    expect(calls).toBe(asked);
    expect(otherDone.Completed).toBe(true);
    expect(otherDone.Data[0].Ida.some((o) => o.PontosAdulto === -1)).toBe(true);
    // acme's own search still hides them.
    const acmeAgain = (await consultar(app, body, { Authorization: `Bearer ${API_KEY}` })).body;
    expect(acmeAgain.Data[0].Ida.every((o) => o.PontosAdulto >= 0)).toBe(true);
  });
});

describe("the answer cache as configured", () => {
  const upstream = (over: Record<string, unknown>) =>
    UpstreamSchema.parse({ url: "https://up.example/api/", token: "a-secret-token-0123456789", ...over });

  it("names the upstream account by its URL and login, a token only by a digest", () => {
    expect(upstreamAccount(upstream({}))).toMatch(/^https:\/\/up\.example\/api\|token:[0-9a-z]+$/);
    expect(upstreamAccount(upstream({}))).not.toContain("a-secret-token");
    expect(upstreamAccount(upstream({ token: undefined, username: "agencia", password: "segredo" }))).toBe("https://up.example/api|user:agencia");
  });

  it("wraps the sources when enabled, and leaves them as they are when not", () => {
    const { source } = countedLatam();
    const on = cachedUpstreamSources([source], upstream({}), { clock: systemClock });
    expect(on.cache).toBeDefined();
    expect(on.sources[0]).not.toBe(source);
    expect(on.sources.map((s) => [s.id, s.kind, s.airlineId])).toEqual([[source.id, source.kind, source.airlineId]]);
    const off = cachedUpstreamSources([source], upstream({ cache: { enabled: false } }), { clock: systemClock });
    expect(off).toEqual({ sources: [source], cache: undefined });
  });
});
