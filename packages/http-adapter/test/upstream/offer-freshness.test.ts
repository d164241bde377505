/**
 * Every offer the adapter hands the engine says when it was seen and until when it is current: seen when
 * the answer that first held it (or changed it) came, valid for the configured time, half of it when the
 * upstream says it answered from its own cache (`ByCache`, as the recorded real answer carries it).
 */
import { readFileSync, existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createUpstreamSource } from "../../src/fetch.js";
import { answeredFromCache, withFreshness } from "../../src/upstream/offer-freshness.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";
import { startSearch } from "../support/run-search.js";

const RECORDED = new URL("../../../../../shared/recorded/per-airline-GOL-miles-and-cash-CNF-GIG.json", import.meta.url);

/** Every member of core's `Offer` (a member added there must be carried by the stamping too). */
const OFFER_MEMBERS = [
  "airlineId", "airlinePrice", "baggage", "bookingOption", "cabin", "discount", "fareFamily", "fareToken", "fares", "flightKey", "id",
  "itinerary", "miles", "searchToken", "seenAt", "seller", "sourceId", "taxes", "total", "validUntil", "validatingCarrier",
].sort();

describe("offer freshness", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it("stamps each offer with the time its answer came and the configured validity", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: { latam: 3_000 }, batches: 1 } });
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, offerValidityMs: 120_000 });
    const run = startSearch(testQuery({ kind: "single-airline", airlineId: 1 }), [source]);
    for (let t = 0; t < 20_000 && !run.last().completed; t += 250) await vi.advanceTimersByTimeAsync(250);
    const offers = [...run.last().offers.values()];
    expect(offers.length).toBeGreaterThan(0);
    const at = run.times[run.snapshots.findIndex((s) => s.offers.size > 0)]! + TEST_NOW;
    for (const o of offers) {
      // The stamped offer is the offer read, every member kept, plus its freshness.
      expect(Object.keys(o).sort()).toEqual(OFFER_MEMBERS);
      // Seen at the poll that brought it (after LATAM's 3 s), not at the start of the search.
      expect(o.seenAt).toBeGreaterThanOrEqual(TEST_NOW + 3_000);
      expect(o.seenAt).toBeLessThanOrEqual(at);
      expect(o.validUntil).toBe(o.seenAt! + 120_000);
    }
    upstream.close();
  });

  it("reads ByCache: an answer from the upstream's own cache gets half the validity", () => {
    expect(answeredFromCache({ Data: [{ ByCache: true, Ida: [] }] })).toBe(true);
    expect(answeredFromCache({ Data: [{ ByCache: false }] })).toBe(false);
    expect(answeredFromCache({ Data: [] })).toBe(false);
    expect(answeredFromCache("text")).toBe(false);
    const offer = { id: "a" } as never;
    expect(withFreshness([offer], 1_000, 600_000, true)[0]).toMatchObject({ seenAt: 1_000, validUntil: 301_000 });
    expect(withFreshness([offer], 1_000, 600_000, false)[0]).toMatchObject({ seenAt: 1_000, validUntil: 601_000 });
    // An offer that says when it was seen keeps its own time.
    expect(withFreshness([{ id: "b", seenAt: 5, validUntil: 9 } as never], 1_000, 600_000, false)[0]).toMatchObject({ seenAt: 5, validUntil: 9 });
  });

  it.runIf(existsSync(RECORDED))("the recorded real single-airline answer says ByCache: false", () => {
    expect(answeredFromCache(JSON.parse(readFileSync(RECORDED, "utf8")))).toBe(false);
  });
});
