/**
 * The default strategy of the per-airline sources: one all-airlines upstream search, followed by every
 * airline, against the fake upstream whose all-airlines search is progressive and lists the airlines still
 * searching (`ActiveProviders`), as the real one does. Airlines answer as in a real deployment: 0.8 s to 45 s.
 * The engine runs with its default timeouts (20 s of silence per source, 60 s deadline), in virtual time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultSourcePolicy, hasResults, type SearchQuery } from "@voar/core";
import { createFakeUpstream, driveSearch, type FakeUpstream } from "@voar/testing";
import { createFanOutSources } from "../../src/fetch.js";
import { runSearch } from "../support/run-search.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";

/** Seconds each airline takes to answer completely, as a real all-airlines search shows. */
const LATENCY_MS = { tap: 800, latam: 1_200, copa: 1_600, azul: 4_000, american: 12_000, gol: 25_000, iberia: 45_000 };
/** The seven airlines of those latencies (Companhia ids). */
const SEVEN = [11, 1, 13, 3, 22, 2, 26];
/** The fake upstream's own searches: its airlines answer when they answer (no timeout of its own before 2 min). */
const patientUpstream = { policy: { timeoutMs: 120_000 }, deadlineMs: 120_000 };
/** A query of its own date, so the upstream has never searched it. */
const queryOn = (day: number): SearchQuery => ({ ...testQuery(), departureDate: `2026-09-${String(day).padStart(2, "0")}` });

/** The upstream requests (logins and searches) a plain client spends on a query: log in, ask, poll every 10 s until complete. */
const plainClient = async (upstream: FakeUpstream, q: SearchQuery): Promise<number> => {
  const before = upstream.stats.searches + upstream.stats.logins;
  const body = { Origem: q.origin, Destino: q.destination, Ida: q.departureDate, Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1 };
  const done = driveSearch({ fetch: upstream.fetch, baseUrl: upstream.baseUrl, ...agency, request: body, pollMs: 10_000, maxFailures: 3, maxRequests: 30 });
  let result: string | undefined;
  void done.then((r) => (result = r));
  while (result === undefined) await vi.advanceTimersByTimeAsync(250);
  expect(result).toBe("completed");
  return upstream.stats.searches + upstream.stats.logins - before;
};

describe("one all-airlines upstream search, followed by each airline", () => {
  let upstream: FakeUpstream | undefined;
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => {
    upstream?.close();
    upstream = undefined;
    vi.useRealTimers();
  });

  it("every airline in every search, the 45 s one included, for at most 2x a plain client's requests cold and 1.5x learned", async () => {
    upstream = liveUpstream({ simulator: { latencyMs: LATENCY_MS, batches: 1 }, backend: patientUpstream });
    const plain = await plainClient(upstream, queryOn(10));
    // Logged in, asked at 0, polled at 10, 20, 30, 40 and 50 s (Iberia answers at 45 s).
    expect(plain).toBe(7);

    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: SEVEN });
    const spent: number[] = [];
    const firsts: number[] = [];
    for (const day of [11, 12, 13]) {
      const before = upstream.stats.searches + upstream.stats.logins;
      const run = await runSearch(queryOn(day), sources);
      spent.push(upstream.stats.searches + upstream.stats.logins - before);
      const last = run.last();
      expect(last.completion).not.toBe("deadline");
      expect(last.sources.map((p) => [p.name, p.state])).toEqual(sources.map((s) => [s.name, "done"]));
      firsts.push(run.firstOfferAt()!);
      const at = (name: string) => run.times[run.snapshots.findIndex((s) => s.sources.find((p) => p.name === name)!.state === "done")]!;
      // Nothing is ever later than the plain client's next poll (its 10 s grid)...
      for (const [name, ms] of [["LATAM", 1_200], ["Azul", 4_000], ["GOL", 25_000], ["Iberia", 45_000]] as const) expect(at(name)).toBeLessThanOrEqual(Math.ceil(ms / 10_000) * 10_000 + 500);
      // ...and once each airline's time is learned (the first search sees it between two polls, the second narrows it
      // down), its flights show within a second or a tenth of its time (TAP, Copa, American and Iberia fly nothing on
      // this route: once learned, they are fetched with the others).
      if (day > 12) {
        expect(at("LATAM")).toBeLessThanOrEqual(1_200 + 1_500);
        expect(at("Azul")).toBeLessThanOrEqual(4_000 + 1_500);
        expect(at("GOL")).toBeLessThanOrEqual(25_000 + 3_000);
      }
    }
    // Learned, the first result within a second and a half of the fastest airline's answer (LATAM, 1.2 s: TAP flies
    // nothing here; an aim goes 300 ms after the learned time).
    for (const first of firsts.slice(2)) expect(first).toBeLessThanOrEqual(1_200 + 1_500);
    // Cold (nothing learned; the login included), then with each airline's time learned.
    expect(spent[0]).toBeLessThanOrEqual(2 * plain);
    expect(spent[1]).toBeLessThanOrEqual(1.5 * plain);
    expect(spent[2]).toBeLessThanOrEqual(1.5 * plain);
    expect(upstream.stats.logins).toBe(2); // the plain client's and the adapter's
  });

  it("the per-airline fan-out, kept as an option, costs at least two requests per airline", async () => {
    upstream = liveUpstream({ simulator: { latencyMs: LATENCY_MS, batches: 1 }, backend: patientUpstream });
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: SEVEN, strategy: "fan-out" });
    const before = upstream.stats.searches;
    const run = await runSearch(queryOn(14), fan);
    expect(run.last().sources.every((p) => p.state === "done")).toBe(true);
    expect(upstream.stats.searches - before).toBeGreaterThanOrEqual(2 * SEVEN.length);
  });

  it.each(["one-search", "fan-out"] as const)("%s: a rest longer than the engine's timeout is not silence: the airline is not timed out while the adapter waits by choice", async (strategy) => {
    // Iberia alone, 45 s: learned after one search, the next one waits about 45 s between two polls.
    upstream = liveUpstream({ simulator: { latencyMs: { iberia: 45_000 }, batches: 1 }, backend: patientUpstream });
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [26], strategy });
    expect(defaultSourcePolicy.timeoutMs).toBe(20_000);
    for (const day of [15, 16]) {
      const before = upstream.stats.searches;
      const run = await runSearch({ ...queryOn(day), origin: "GRU", destination: "MAD" }, sources);
      expect(run.last().sources[0]).toMatchObject({ state: "done", attempts: 1 });
      expect(hasResults(run.last())).toBe(true);
      if (day === 16) expect(upstream.stats.searches - before).toBeLessThanOrEqual(3);
    }
  });

  it("identical searches running at once follow one upstream search", async () => {
    upstream = liveUpstream({ simulator: { latencyMs: LATENCY_MS, batches: 1 }, backend: patientUpstream });
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [11, 1, 3] });
    const [a, b] = await Promise.all([runSearch(queryOn(17), sources), runSearch(queryOn(17), sources)]);
    expect(a.last().sources.every((p) => p.state === "done")).toBe(true);
    expect(b.offers().map((o) => o.id).sort()).toEqual(a.offers().map((o) => o.id).sort());
    // One upstream search: asked, then a poll or two per airline at most (not one search each).
    expect(upstream.stats.searches).toBeLessThanOrEqual(6);
  });

  it("an airline the upstream is not searching (absent from ActiveProviders) is done at the first answer, with nothing", async () => {
    // Copa flies nothing on this domestic route: the upstream lists every airline, Copa finishes at once.
    upstream = liveUpstream({ simulator: { latencyMs: { latam: 3_000, copa: 0 }, batches: 1 } });
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1, 13, 1200] });
    const run = await runSearch(queryOn(18), sources);
    // Interline is no source of the simulated upstream: never listed, done with the first answer.
    expect(run.snapshots[1]!.sources.find((p) => p.name === "Interline")!.state).toBe("done");
    expect(run.last().sources.map((p) => p.state)).toEqual(["done", "done", "done"]);
  });

  it("an upstream failing every request: 10 searches cost 3 requests, every airline shown unavailable, retryable", async () => {
    upstream = liveUpstream({ faults: [{ at: 1, through: "end", fault: { kind: "status", status: 500 } }] });
    const changes: string[] = [];
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1, 2, 3], breaker: { onBreakerStateChange: (id, s) => changes.push(`${id} ${s}`) } });
    for (let i = 0; i < 10; i++) {
      const last = (await runSearch(queryOn(20), sources)).last();
      for (const p of last.sources) expect(p).toMatchObject({ state: "failed", error: { tag: "SourceUnavailable", retryable: true } });
    }
    // The all-airlines search: asked, its two poll retries, then the run's breaker is open.
    expect(upstream.stats.searches).toBe(3);
    expect(changes).toEqual(["upstream:all open"]);
  });

  it("a business refusal fails every airline of the search at once, asked once, never retried", async () => {
    upstream = createFakeUpstream({ backend: { answer: () => ({ status: 200, json: { Success: false, HasResult: false, Completed: true, Data: [], MensagemErro: "Origem inválida" } }), close: () => undefined }, auth: { tokens: ["k"] } });
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch: upstream.fetch, airlines: [1, 2, 3] });
    const run = await runSearch(queryOn(21), sources, { maxAttempts: 3 });
    expect(run.last().sources.every((p) => p.state === "failed" && p.attempts === 1 && p.error?.tag === "BusinessError")).toBe(true);
    expect(upstream.stats.searches).toBe(1);
  });

  it("a search's budget of requests covers its one upstream search", async () => {
    upstream = liveUpstream({ simulator: { latencyMs: { latam: 30_000, gol: 30_000, azul: 30_000 }, batches: 1 }, backend: patientUpstream });
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1, 2, 3], budget: { maxRequestsPerSearch: 4 } });
    const run = await runSearch(queryOn(22), sources);
    expect(upstream.stats.searches + upstream.stats.logins).toBe(4); // the login included
    for (const p of run.last().sources) expect(p).toMatchObject({ state: "failed", error: { tag: "RequestBudgetExhausted" } });
  });
});
