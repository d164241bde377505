import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot } from "../../src/engine/snapshot.js";
import type { Offer } from "../../src/domain/offer.js";
import type { SearchQuery } from "../../src/query/query.js";
import { modeAPage } from "../../src/views/mode-a-page.js";
import { maxPlausibleMinutes, MIN_STAY_MINUTES, roundTripPairs } from "../../src/views/round-trip.js";
import { toWireFlight } from "../../src/envelope/mode-a.js";
import { airports } from "../../src/airports/index.js";
import { makeOffer, queryA } from "../support/offers.js";

const hh = (h: number) => String(h).padStart(2, "0");

const offerArb = (date: string, direction: "outbound" | "return") =>
  fc
    .record({
      carrier: fc.constantFrom({ carrier: "LA", airlineId: 1 }, { carrier: "G3", airlineId: 2 }),
      flightNumber: fc.integer({ min: 1, max: 12 }),
      total: fc.integer({ min: 0, max: 6 }).map((n) => 20_000 + n * 2_500),
      points: fc.option(fc.constant(10_000), { nil: undefined }),
      seller: fc.constantFrom("latam", "livelo"),
      long: fc.boolean(),
    })
    .map(({ carrier, flightNumber, total, points, seller, long }): Offer => {
      // One flight (number, direction) has one schedule: the hour and length follow from the number.
      const h = 5 + ((flightNumber * 5) % 16);
      const o = makeOffer({ ...carrier, flightNumber, direction, departure: `${date}T${hh(h)}:00:00`, total, seller, ...(points === undefined ? {} : { points }) });
      const minutes = long && flightNumber % 2 === 0 ? 11 * 60 + 50 : 60;
      const end = h * 60 + minutes;
      const arrival = `${date}T${hh(Math.min(23, Math.floor(end / 60)))}:${hh(end >= 1440 ? 59 : end % 60)}:00`;
      return { ...o, id: `${o.id}:${total}`, itinerary: { ...o.itinerary, durationMinutes: end >= 1440 ? 1439 - h * 60 : minutes, arrival, stops: minutes > 60 ? 1 : 0 } };
    });

const caseArb = fc.constantFrom("2026-12-20", "2026-12-23").chain((back) =>
  fc.record({
    back: fc.constant(back),
    outs: fc.array(offerArb("2026-12-20", "outbound"), { maxLength: 25 }),
    backs: fc.array(offerArb(back, "return"), { maxLength: 25 }),
  }),
);

const minutes = (t: string) => Date.parse(`${t.slice(0, 16)}:00Z`) / 60_000;

describe("round-trip price groups (properties)", () => {
  it("group count is bounded by outbound x return options; every group's price is an outbound plus a return that combine", () => {
    fc.assert(
      fc.property(caseArb, ({ back, outs, backs }) => {
        const query: SearchQuery = { ...queryA, returnDate: back };
        const s = reduce(initialSnapshot(query, [{ id: "s", name: "S" }]), { type: "batch", sourceId: "s", offers: [...outs, ...backs] });
        const pairs = roundTripPairs(s, airports);
        const options = (list: readonly Offer[]) => new Set(list.map((o) => `${o.seller.id}|${o.miles ? "M" : "C"}|${o.flightKey}`)).size;
        expect(pairs.length).toBeLessThanOrEqual(options(outs) * options(backs));
        const limit = maxPlausibleMinutes(airports, "CNF", "SDU")!;
        for (const p of pairs) {
          expect(p.combos.length).toBeGreaterThan(0);
          for (const [o, r] of p.combos) {
            expect(o.total.amount + r.total.amount).toBe(p.price);
            expect(o.seller.id).toBe(r.seller.id);
            expect(o.miles === undefined).toBe(r.miles === undefined);
            expect(minutes(r.itinerary.departure)).toBeGreaterThanOrEqual(minutes(o.itinerary.arrival) + MIN_STAY_MINUTES);
            expect(Math.max(o.itinerary.durationMinutes, r.itinerary.durationMinutes)).toBeLessThanOrEqual(limit);
          }
          // Everything listed combines at the price, in both directions.
          expect(new Set(p.outbound.map((o) => o.id))).toEqual(new Set(p.combos.map(([o]) => o.id)));
          expect(new Set(p.inbound.map((o) => o.id))).toEqual(new Set(p.combos.map(([, r]) => r.id)));
        }
        const all = modeAPage(s, 1, "all", airports);
        expect(all.pagination.totalItems).toBe(pairs.length);
        for (const [i, f] of all.flights.entries()) expect(Math.round(toWireFlight(f).fareGroup.priceWithTax * 100)).toBe(pairs[i]!.price);
      }),
      { numRuns: 300 },
    );
  });

  it("a 1-hour route pairs no 11-hour itinerary, and a same-day return leaves after the outbound lands plus the minimum stay", () => {
    expect(maxPlausibleMinutes(airports, "CNF", "SDU")).toBeLessThan(6 * 60);
    const out = makeOffer({ flightNumber: 1, departure: "2026-12-20T08:00:00" });
    const early = makeOffer({ flightNumber: 2, direction: "return", departure: "2026-12-20T09:30:00" });
    const late = makeOffer({ flightNumber: 3, direction: "return", departure: "2026-12-20T18:00:00" });
    const s = reduce(initialSnapshot({ ...queryA, returnDate: "2026-12-20" }, [{ id: "s", name: "S" }]), { type: "batch", sourceId: "s", offers: [out, early, late] });
    const pairs = roundTripPairs(s, airports);
    expect(pairs.map((p) => p.inbound.map((r) => r.id))).toEqual([[late.id]]);
  });
});
