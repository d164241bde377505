import { HttpStatusError, isCashOffer, resolveRelativeDate, type SearchQuery } from "@voar/core";
import { createUpstreamSource } from "@voar/http-adapter/fetch";
import { createFakeUpstream, createSimulator, isConsultar, liveBackend, loadFixture, replaySource } from "@voar/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchFare, type FareWatch } from "../src/fare-watch.js";

// Virtual time: the simulator, the recorded fixtures, the fake upstream and the engine all wait on setTimeout,
// so vitest's fake timers run a search of minutes in milliseconds, and the same way every time.
const NOW = new Date("2026-06-01T12:00:00Z");
beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

const query: SearchQuery = {
  origin: "CNF",
  destination: "SDU",
  // 106 days after the fixed clock's today: a date the search accepts whenever the suite runs.
  departureDate: resolveRelativeDate("+106", NOW),
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
};

/** Every value a watch emits, as it emits them. */
const record = (watch: ReturnType<typeof watchFare>) => {
  const seen: FareWatch[] = [];
  const subscription = watch.subscribe((w) => seen.push(w));
  return { seen, last: () => seen.at(-1)!, subscription };
};

describe("watchFare on the embedded simulator", () => {
  it("shows the cheapest cash fare as the airlines answer, and the exact minimum once complete", async () => {
    const simulator = createSimulator({ latencyMs: 2_000, batches: 2 });
    const run = record(watchFare(query, simulator.sources));
    expect(run.last()).toEqual({ cheapest: undefined, failed: [], completed: false });

    await vi.advanceTimersByTimeAsync(1_000); // every source has sent its first batch
    expect(run.last().cheapest).toBeDefined();
    expect(run.last().completed).toBe(false);

    await vi.advanceTimersByTimeAsync(1_000);
    const expected = Math.min(...simulator.offers(query).filter(isCashOffer).map((o) => o.total.amount));
    expect(run.last()).toMatchObject({ completed: true, cheapest: { amount: expected, currency: "BRL" } });
  });

  it("keeps going when an airline fails, and says which", async () => {
    const simulator = createSimulator({ latencyMs: 500, failures: { gol: { error: new HttpStatusError({ status: 503 }) } } });
    const run = record(watchFare(query, simulator.sources));
    await vi.advanceTimersByTimeAsync(30_000); // three attempts with backoff, all on virtual time
    expect(run.last()).toMatchObject({ completed: true, failed: ["gol"] });
    expect(run.last().cheapest).toBeDefined();
  });

  it("stops the search when the alert is no longer watched", async () => {
    const simulator = createSimulator({ latencyMs: 5_000 });
    const run = record(watchFare(query, simulator.sources));
    await vi.advanceTimersByTimeAsync(100);
    run.subscription.unsubscribe();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run.seen.every((w) => !w.completed)).toBe(true);
    expect(vi.getTimerCount()).toBe(0); // nothing left running: every source was aborted
  });
});

describe("watchFare on recorded answers", () => {
  it("replays a recorded upstream conversation at its recorded pace", async () => {
    const fixture = loadFixture("mode-a-one-way");
    const searches = fixture.exchanges.filter(isConsultar);
    const end = Math.max(...searches.map((e) => e.atMs + e.response.delayMs)) - searches[0]!.atMs;
    const run = record(watchFare(query, [replaySource(fixture)]));

    await vi.advanceTimersByTimeAsync(end - 1);
    expect(run.last().completed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.last().completed).toBe(true);
    expect(run.last().cheapest?.amount).toBeGreaterThan(0);
  });
});

describe("watchFare through the HTTP adapter, against the fake upstream", () => {
  it("waits out a 429 of the upstream and still completes", async () => {
    const account = { username: "agencia", password: "segredo-123" };
    const upstream = createFakeUpstream({
      backend: liveBackend({ sources: createSimulator({ latencyMs: 3_000 }).sources }),
      auth: { accounts: [account] },
      faults: [{ at: 2, fault: { kind: "rate-limit", retryAfterS: 2 } }], // the second search request gets 429
    });
    // The real adapter, on the fake upstream's in-process fetch: no socket, no network.
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: account, fetch: upstream.fetch });
    const run = record(watchFare(query, [source]));

    await vi.advanceTimersByTimeAsync(60_000);
    expect(run.last()).toMatchObject({ completed: true, failed: [] });
    expect(run.last().cheapest).toBeDefined();
    expect(upstream.stats.logins).toBe(1);
    expect(upstream.stats.searches).toBeGreaterThan(2);
    upstream.close();
  });
});
