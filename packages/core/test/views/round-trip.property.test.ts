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
  it("group count is bounded by outbound x return offers; every alternative listed combines with one listed the other way at the group's price; every fare that combines is listed", () => {
    fc.assert(
      fc.property(caseArb, ({ back, outs, backs }) => {
        const query: SearchQuery = { ...queryA, returnDate: back };
        const s = reduce(initialSnapshot(query, [{ id: "s", name: "S" }]), { type: "batch", sourceId: "s", offers: [...outs, ...backs] });
        const pairs = roundTripPairs(s, airports);
        const distinct = (list: readonly Offer[]) => new Set(list.map((o) => o.id)).size;
        expect(pairs.length).toBeLessThanOrEqual(distinct(outs) * distinct(backs));
        const limit = maxPlausibleMinutes(airports, "CNF", "SDU")!;
        const combine = (o: Offer, r: Offer) =>
          o.seller.id === r.seller.id &&
          (o.miles === undefined) === (r.miles === undefined) &&
          o.validatingCarrier.iata === r.validatingCarrier.iata &&
          minutes(r.itinerary.departure) >= minutes(o.itinerary.arrival) + MIN_STAY_MINUTES &&
          Math.max(o.itinerary.durationMinutes, r.itinerary.durationMinutes) <= limit;
        for (const p of pairs) {
          const [po, pr] = p.pricedBy;
          expect(po.total.amount + pr.total.amount).toBe(p.price);
          expect(combine(po, pr)).toBe(true);
          // Everything listed combines at the price, in both directions.
          for (const o of p.outbound) expect(p.inbound.some((r) => combine(o, r) && o.total.amount + r.total.amount === p.price)).toBe(true);
          for (const r of p.inbound) expect(p.outbound.some((o) => combine(o, r) && o.total.amount + r.total.amount === p.price)).toBe(true);
          expect(new Set(p.outbound.map((o) => o.itinerary.stops > 1 ? 2 : o.itinerary.stops))).toEqual(new Set([p.outboundStops]));
        }
        // Every fare of every flight that combines with a return is in the group of that combination (not only each flight's cheapest).
        const current = [...s.offers.values()];
        const shown = new Map(pairs.map((p) => [p.id, p]));
        for (const o of current.filter((x) => x.itinerary.direction === "outbound")) {
          for (const r of current.filter((x) => x.itinerary.direction === "return" && combine(o, x))) {
            const p = [...shown.values()].find((g) => g.price === o.total.amount + r.total.amount && g.outbound.includes(o) && g.inbound.includes(r));
            expect(p).toBeDefined();
          }
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
