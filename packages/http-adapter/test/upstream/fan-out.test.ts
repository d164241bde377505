import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Offer } from "@voar/core";
import { createFanOutSources, createUpstreamSource } from "../../src/fetch.js";
import { runSearch } from "../support/run-search.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";

const seen = (o: Offer) => `${o.flightKey}|${o.total.amount}|${o.miles?.pointsAdult ?? "cash"}`;

describe("fan-out", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it("fans out by default to every single-source id, Livelo (34) and Interline (1200) included", () => {
    const upstream = liveUpstream({});
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch });
    expect(fan.map((s) => [s.id, s.name, s.airlineId])).toEqual([
      ["upstream:latam", "LATAM", 1],
      ["upstream:gol", "GOL", 2],
      ["upstream:azul", "Azul", 3],
      ["upstream:tap", "TAP", 11],
      ["upstream:copa", "Copa", 13],
      ["upstream:american-airlines", "American Airlines", 22],
      ["upstream:iberia", "Iberia", 26],
      ["upstream:livelo", "Livelo", 34],
      ["upstream:interline", "Interline", 1200],
    ]);
    const livelo = fan.find((s) => s.airlineId === 34)!;
    expect(livelo.serves?.({ ...testQuery(), mode: { kind: "single-airline", airlineId: 34 } })).toBe(true);
    expect(livelo.serves?.({ ...testQuery(), mode: { kind: "single-airline", airlineId: 2 } })).toBe(false);
    upstream.close();
  });

  it("one source per airline, sharing one login; the fastest airline's flights come first; the merge is complete", async () => {
    const latencyMs = { latam: 1_000, gol: 20_000, azul: 40_000, tap: 500, copa: 500, american: 500, iberia: 500 };
    const upstream = liveUpstream({ simulator: { latencyMs }, backend: { progressiveModeA: false, deadlineMs: 120_000 } });
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1, 2, 3], strategy: "fan-out" });
    expect(fan.map((s) => [s.id, s.name, s.airlineId])).toEqual([
      ["upstream:latam", "LATAM", 1],
      ["upstream:gol", "GOL", 2],
      ["upstream:azul", "Azul", 3],
    ]);
    const one = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch });

    const fanRun = await runSearch(testQuery(), fan, { timeoutMs: 60_000 });
    expect(fanRun.last().sources.map((p) => p.state)).toEqual(["done", "done", "done"]);
    expect(fan[0]!.session.logins).toBe(1);

    const oneRun = await runSearch(testQuery(), [one], { timeoutMs: 60_000 });
    // The all-airlines search also brings Livelo's (34) offers, a source the fan-out above was not asked for.
    const asked = (o: Offer) => [1, 2, 3].includes(o.airlineId);
    expect(new Set(fanRun.offers().map(seen))).toEqual(new Set(oneRun.offers().filter(asked).map(seen)));
    // LATAM answers in 1 s: its flights show at the first poll after that. The all-airlines search shows
    // nothing until Azul, the slowest, has answered (40 s).
    expect(fanRun.firstOfferAt()).toBeLessThanOrEqual(2_000);
    expect(oneRun.firstOfferAt()).toBeGreaterThanOrEqual(40_000);
    const progress = fanRun.snapshots.map((s) => s.sources.map((p) => p.state).join(","));
    expect(progress).toContain("done,pending,pending");
    expect(progress).toContain("done,done,pending");
    upstream.close();
  });
});
