/**
 * Fan-out pacing, in virtual time against the live fake upstream: once the adapter has seen each airline's
 * searches complete, a fan-out search costs about as many upstream requests as one all-airlines search
 * (not one request per airline per backoff step), its first result still comes from the fastest airline,
 * and an airline slower than expected is still followed to its answer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SearchQuery } from "@voar/core";
import { createFanOutSources, createUpstreamSource } from "../../src/fetch.js";
import { CompletionTimes, pacedDelay } from "../../src/upstream/completion-times.js";
import { runSearch } from "../support/run-search.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";

/** Airlines answering in spread times, as a real service's do. */
const latencyMs = { tap: 800, latam: 1_200, copa: 1_600, azul: 4_000, american: 12_000, gol: 25_000, iberia: 45_000 };
const AIRLINES = [1, 2, 3, 11, 13, 22, 26];
/** A query of its own per search, so the upstream starts each cold. */
const dated = (day: number): SearchQuery => ({ ...testQuery(), departureDate: `2026-09-${String(day).padStart(2, "0")}` });

describe("fan-out pacing", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it("aims each airline's polls at its usual answer time: at most 1.5x the requests of one all-airlines search, first result no later", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs, batches: 1 }, backend: { progressiveModeA: false, deadlineMs: 300_000, policy: { timeoutMs: 120_000 } } });
    const options = { baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch };
    const fan = createFanOutSources({ ...options, airlines: AIRLINES, strategy: "fan-out" });
    const one = createUpstreamSource(options);
    const requestsOf = async (run: () => Promise<unknown>) => {
      const before = upstream.stats.searches;
      await run();
      return upstream.stats.searches - before;
    };

    // The first fan-out search knows nothing yet: every airline is polled on the backoff.
    let coldFirstOfferAt = 0;
    const cold = await requestsOf(async () => {
      coldFirstOfferAt = (await runSearch(dated(10), fan, { timeoutMs: 120_000, deadlineMs: 300_000 }, 400_000)).firstOfferAt() ?? Infinity;
    });
    let warm = 0;
    let firstOfferAt = 0;
    for (const day of [11, 12, 13]) {
      warm += await requestsOf(async () => {
        const run = await runSearch(dated(day), fan, { timeoutMs: 120_000, deadlineMs: 300_000 }, 400_000);
        expect(run.last().sources.every((p) => p.state === "done")).toBe(true);
        firstOfferAt = Math.max(firstOfferAt, run.firstOfferAt() ?? Infinity);
      });
    }
    const single = await requestsOf(() => runSearch(dated(14), [one], { timeoutMs: 120_000, deadlineMs: 300_000 }, 400_000));

    expect(warm / 3).toBeLessThanOrEqual(1.5 * single);
    expect(warm / 3).toBeLessThan(cold);
    // The fastest airline's flights show no later than when the backoff alone found them.
    expect(firstOfferAt).toBeLessThanOrEqual(coldFirstOfferAt);
    expect(firstOfferAt).toBeLessThanOrEqual(2_500);
    upstream.close();
  });

  it("follows an airline that became slower than it was to its answer, on the backoff", async () => {
    const times = new CompletionTimes();
    times.record("upstream:gol", 2_000, false);
    // Expected at 2 s; 5 s in and still running: the backoff decides, or the aim's step when longer.
    expect(pacedDelay(1_500, 5_000, times.expected("upstream:gol"))).toBe(1_500);
    expect(pacedDelay(1_500, 45_100, 45_000)).toBe(2_250);
    expect(pacedDelay(1_000, 500, times.expected("upstream:gol"))).toBe(1_500);
    // Seen complete later: the estimate moves towards it, not all the way at once.
    times.record("upstream:gol", 12_000, false);
    expect(times.expected("upstream:gol")).toBe(5_000);
    // Found complete at the first aimed poll: the next aim is a little earlier (a fiftieth of the 1 s step, or 0.2 %).
    times.record("upstream:gol", 5_000, true);
    expect(times.expected("upstream:gol")).toBe(4_980);
    times.record("upstream:iberia", 45_000, false);
    times.record("upstream:iberia", 45_000, true);
    expect(times.expected("upstream:iberia")).toBe(44_910);
    // Found running at its aim (44.9 s), complete at the next poll (45.5 s): nine steps later (one aim in ten misses).
    times.record("upstream:iberia", 45_500, false, 44_910);
    expect(times.expected("upstream:iberia")).toBeCloseTo(44_910 + 9 * 0.002 * 44_910, 6);
    // Found running at its aim, complete 10 s later: it became slower; the estimate moves towards the middle of that span.
    times.record("upstream:iberia", 55_718, false, 45_718);
    expect(times.expected("upstream:iberia")).toBeCloseTo(45_718.38 + 0.3 * (50_718 - 45_718.38), 0);
    expect(times.expected("upstream:azul")).toBeUndefined();
  });

  it("remembers how far into a search an airline whose time is unknown was seen running, until its time is learned", () => {
    const times = new CompletionTimes();
    expect(times.runningAt("upstream:iberia")).toBeUndefined();
    times.seenRunning("upstream:iberia", 20_000);
    times.seenRunning("upstream:iberia", 12_000);
    expect(times.runningAt("upstream:iberia")).toBe(20_000);
    times.record("upstream:iberia", 47_000, false, 40_000);
    expect(times.runningAt("upstream:iberia")).toBeUndefined();
    times.seenRunning("upstream:iberia", 50_000);
    expect(times.runningAt("upstream:iberia")).toBeUndefined();
  });

  it("aims at a high quantile of an airline's times: about one search in ten is polled too early, whatever their spread", () => {
    // LATAM answers in 1.2 s give or take 0.3 s (uniform); each search is polled once at the aim, again 0.5 s later if running.
    const times = new CompletionTimes();
    let seed = 7;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647);
    times.record("upstream:latam", 1_500, false);
    let misses = 0;
    const searches = 2_000;
    for (let i = 0; i < searches; i++) {
      const took = 900 + 600 * random();
      const aim = times.expected("upstream:latam")! + 100;
      if (took <= aim) times.record("upstream:latam", aim, true, 0);
      else {
        misses++;
        times.record("upstream:latam", aim + 500, false, aim);
      }
    }
    expect(misses / searches).toBeGreaterThan(0.05);
    expect(misses / searches).toBeLessThan(0.15);
    // Found complete well after the aim (a poll aimed at a later airline): the aim holds.
    const before = times.expected("upstream:latam")!;
    times.record("upstream:latam", before + 700, true, 0);
    expect(times.expected("upstream:latam")).toBe(before);
  });
});
