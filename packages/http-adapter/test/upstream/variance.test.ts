/**
 * The adapter's pacing under airline times that vary per search, against the plain client it replaces (log in, ask,
 * poll the `LeaseId` every 10 s), in virtual time: LATAM 1-6 s, GOL 5-40 s, Azul 4 s (one search in seven up to
 * 50 s), Iberia 45 s (hanging in one search in four), American 12 s, TAP starting to sell on GIG-LIS at the fifth wave.
 * 20 waves of three routes at once, each search paired with a plain client on a twin upstream (the same airline times,
 * search by search). The real-time version of this, through voar-server, is hono-edge's `upstream-variance` test.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { allowedLateness } from "../../src/upstream/poll-planner.js";
import { quantile, varianceTrial, type PairedLateness } from "../support/variance-trial.js";
import { TEST_NOW } from "../support/live-upstream.js";

const NAMES: Record<number, string> = { 1: "LATAM", 2: "GOL", 3: "Azul", 11: "TAP", 13: "Copa", 22: "American", 26: "Iberia", 34: "Livelo" };
/** Once the airlines' times are learned: the first three waves learn them. */
const LEARNED_FROM = 4;

const within = (l: PairedLateness) => l.ours <= allowedLateness(l.existedAfter, 1_000) + 150;

describe("pacing under variance, against the plain client", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it("every offer shown, never later than the plain client (19 in 20), for no more requests in all and at most twice on a search", { timeout: 180_000 }, async () => {
    const { late, searches } = await varianceTrial({ waves: 20 });
    // No airline's offers lost: every airline that had offers was shown, in every search.
    expect(late.filter((l) => !Number.isFinite(l.ours))).toEqual([]);
    const learned = late.filter((l) => l.wave >= LEARNED_FROM);
    for (const airline of [...new Set(learned.map((l) => l.airline))]) {
      const mine = learned.filter((l) => l.airline === airline);
      const notLater = mine.filter((l) => l.ours <= l.plain + 1_000).length;
      const ours = mine.map((l) => l.ours);
      const plain = mine.map((l) => l.plain);
      console.log(`${NAMES[airline]}: ${mine.length} searches; lateness p50 ${quantile(ours, 0.5)} ms, p90 ${quantile(ours, 0.9)} ms (plain client ${quantile(plain, 0.5)}, ${quantile(plain, 0.9)}); within max(1 s, 10 %) ${mine.filter(within).length}; not later than the plain client ${notLater}`);
      expect(notLater / mine.length).toBeGreaterThanOrEqual(0.95);
      // In the middle of the distribution, no later than the plain client, and faster for every airline seen often
      // enough (Iberia sells on one route some days only: its few searches are told in the closing figures).
      expect(quantile(ours, 0.5)).toBeLessThanOrEqual(quantile(plain, 0.5) + 1_000);
      if (mine.length >= 20) expect(quantile(ours, 0.5)).toBeLessThan(quantile(plain, 0.5));
    }
    // Airlines whose time does not vary (American, 12 s; Azul, 4 s but for its tail) are shown within the promise in
    // most searches once learned, within the budget (aims wait while the adapter owes the plain clients requests).
    for (const airline of [22, 3]) {
      const fixed = learned.filter((l) => l.airline === airline);
      expect(fixed.filter(within).length / fixed.length, NAMES[airline]).toBeGreaterThanOrEqual(0.6);
    }
    const ours = searches.reduce((n, s) => n + s.ours, 0);
    const plain = searches.reduce((n, s) => n + s.plain, 0);
    console.log(`requests: ours ${ours}, plain clients ${plain} (${(ours / plain).toFixed(2)}x); the worst search ${Math.max(...searches.map((s) => s.ours / s.plain)).toFixed(2)}x`);
    expect(ours).toBeLessThanOrEqual(plain);
    for (const s of searches) expect(s.ours).toBeLessThanOrEqual(2 * s.plain);
  });

  it("searches that overlap (a wave every 6 s, as on a busy service): no more requests in all once the run is longer than the first minute", { timeout: 180_000 }, async () => {
    const { late, searches } = await varianceTrial({ waves: 24, spacingMs: 6_000, seed: 3 });
    expect(late.filter((l) => !Number.isFinite(l.ours))).toEqual([]);
    const learned = late.filter((l) => l.wave >= LEARNED_FROM);
    expect(learned.filter((l) => l.ours <= l.plain + 1_000).length / learned.length).toBeGreaterThanOrEqual(0.95);
    const sum = (list: typeof searches, k: "ours" | "plain") => list.reduce((n, x) => n + x[k], 0);
    const first = searches.filter((x) => x.wave <= 10);
    // Searches running at once take their aims from the savings as they plan them; the searches of the first minute
    // (the airlines' times still unknown, every search cold) cost more than their plain clients and are paid back after.
    console.log(`overlapping waves: ours ${sum(searches, "ours")}, plain clients ${sum(searches, "plain")} (${(sum(searches, "ours") / sum(searches, "plain")).toFixed(2)}x); the first 10 waves ${(sum(first, "ours") / sum(first, "plain")).toFixed(2)}x`);
    expect(sum(searches, "ours")).toBeLessThanOrEqual(sum(searches, "plain"));
    for (const x of searches) expect(x.ours).toBeLessThanOrEqual(2 * x.plain);
  });
});
