import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot, type SearchSnapshot } from "../../src/engine/snapshot.js";
import type { Offer } from "../../src/domain/offer.js";
import { modeAPage } from "../../src/views/mode-a-page.js";
import {
  BEST_CENTAVOS_PER_MINUTE,
  groupValuesMatch,
  itineraryMatches,
  priceMatches,
  SORT_KEYS,
  type ResultFilters,
  type ResultView,
} from "../../src/query/result-view.js";
import { byDeparture, groupOffers } from "../../src/views/select.js";
import { airports } from "../../src/airports/index.js";
import { makeOffer, queryA } from "../support/offers.js";

const CARRIERS = [
  { carrier: "LA", airlineId: 1 },
  { carrier: "G3", airlineId: 2 },
  { carrier: "AD", airlineId: 3 },
] as const;

const hh = (h: number) => String(h).padStart(2, "0");

/** An offer whose itinerary (stops, duration, arrival) follows from its flight number, as one flight has one itinerary. */
const offerArb = fc
  .record({
    airline: fc.constantFrom(...CARRIERS),
    flightNumber: fc.integer({ min: 1, max: 30 }),
    total: fc.integer({ min: 0, max: 8 }).map((n) => 20_000 + n * 5_000),
    points: fc.option(fc.constantFrom(10_000, 20_000), { nil: undefined }),
    seller: fc.constantFrom("latam", "gol"),
  })
  .map((r): Offer => {
    const hour = 5 + ((r.flightNumber * 7) % 17);
    const base = makeOffer({
      carrier: r.airline.carrier,
      airlineId: r.airline.airlineId,
      flightNumber: r.flightNumber,
      departure: `2026-12-20T${hh(hour)}:${r.flightNumber % 2 ? "30" : "00"}:00`,
      total: r.total,
      ...(r.points === undefined ? {} : { points: r.points }),
      seller: r.seller,
    });
    const stops = r.flightNumber % 3;
    const durationMinutes = 60 + stops * 120 + (r.flightNumber % 5) * 10;
    const end = hour * 60 + durationMinutes;
    const arrival = `2026-12-${end >= 1440 ? "21" : "20"}T${hh(Math.floor((end % 1440) / 60))}:${hh(end % 60)}:00`;
    return { ...base, itinerary: { ...base.itinerary, stops, durationMinutes, arrival } };
  });

const windowArb = fc.option(
  fc.record({ from: fc.integer({ min: 0, max: 1439 }), to: fc.integer({ min: 0, max: 1439 }) }),
  { nil: undefined },
);

const filtersArb: fc.Arbitrary<ResultFilters> = fc.record(
  {
    stops: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
    outboundStops: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
    // No return leg on a one-way search: accepted, and it lets everything through.
    returnStops: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
    airlines: fc.uniqueArray(fc.constantFrom("LA", "G3", "AD", "TP"), { minLength: 1, maxLength: 3 }),
    payment: fc.constantFrom("miles" as const, "cash" as const),
    outbound: fc.record({ departure: windowArb, arrival: windowArb }),
    maxDurationMinutes: fc.integer({ min: 30, max: 400 }),
    priceMin: fc.integer({ min: 15_000, max: 40_000 }),
    priceMax: fc.integer({ min: 30_000, max: 70_000 }),
  },
  { requiredKeys: [] },
);

const viewArb: fc.Arbitrary<ResultView> = fc.record({ filters: filtersArb, sort: fc.constantFrom(...SORT_KEYS) });

/** The offers folded in batches of `batch` (the incremental path: groups move between orders and partitions as members arrive or are refined). */
const snapshotOf = (offers: readonly Offer[], batch = Math.max(1, offers.length)): SearchSnapshot => {
  let s = initialSnapshot(queryA, [{ id: "s", name: "S" }]);
  for (let i = 0; i < offers.length; i += batch) s = reduce(s, { type: "batch", sourceId: "s", offers: offers.slice(i, i + batch) });
  return s;
};

/** The groups a view selects, in its order, computed the obvious way from every group. */
const reference = (s: SearchSnapshot, view: ResultView): string[] => {
  const f = view.filters;
  const rows = [];
  for (const g of s.outbound.groups.values()) {
    const all = groupOffers(s, g, byDeparture);
    if (!groupValuesMatch(f, g.carrier.iata, g.cash) || !priceMatches(f, g.price)) continue;
    if (!all.some((o) => itineraryMatches(f, o))) continue;
    const minDuration = Math.min(...all.map((o) => o.itinerary.durationMinutes));
    const departure = all.map((o) => o.itinerary.departure).sort()[0]!;
    const arrival = all.map((o) => o.itinerary.arrival).sort()[0]!;
    rows.push({ key: g.key, price: g.price, minDuration, departure, arrival });
  }
  const str = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort((a, b) => {
    const tie = a.price - b.price || str(a.key, b.key);
    switch (view.sort) {
      case "price":
        return tie;
      case "duration":
        return a.minDuration - b.minDuration || tie;
      case "departure":
        return str(a.departure, b.departure) || tie;
      case "arrival":
        return str(a.arrival, b.arrival) || tie;
      case "best":
        return a.price + a.minDuration * BEST_CENTAVOS_PER_MINUTE - (b.price + b.minDuration * BEST_CENTAVOS_PER_MINUTE) || str(a.key, b.key);
    }
  });
  return rows.map((r) => r.key);
};

describe("Mode A filters and sort over the whole result (properties)", () => {
  it("pages of a view, read one after another, are exactly the filtered and sorted whole set; every listed alternative passes", () => {
    fc.assert(
      fc.property(fc.array(offerArb, { maxLength: 80 }), viewArb, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 20 }), (offers, view, size, batch) => {
        const s = snapshotOf(offers, batch);
        const expected = reference(s, view);
        const first = modeAPage(s, 1, size, airports, view);
        expect(first.pagination.totalItems).toBe(expected.length);
        const seen: string[] = [];
        for (let p = 1; p <= first.pagination.totalPages + 1; p++) {
          const page = modeAPage(s, p, size, airports, view);
          expect(page.pagination.totalItems).toBe(expected.length);
          for (const g of page.flights) {
            expect(g.outbound.length).toBeGreaterThan(0);
            for (const o of g.outbound) expect(itineraryMatches(view.filters, o)).toBe(true);
          }
          seen.push(...page.flights.map((g) => g.id));
        }
        expect(seen).toEqual(expected);
        // Asking again (another poll of the same version) answers the same.
        expect(modeAPage(s, 1, size, airports, view).flights.map((g) => g.id)).toEqual(expected.slice(0, size));
      }),
      { numRuns: 300 },
    );
  });

  it("meta counts per filter value are the totals that value alone gives, and the same whatever the view", () => {
    fc.assert(
      fc.property(fc.array(offerArb, { maxLength: 80 }), viewArb, (offers, view) => {
        const s = snapshotOf(offers);
        const { counts } = modeAPage(s, 1, 10, airports, view).meta;
        const total = (filters: ResultFilters) => modeAPage(s, 1, 10, airports, { filters, sort: "price" }).pagination.totalItems;
        for (const b of [0, 1, 2]) expect(counts.stops.find(([k]) => k === b)?.[1] ?? 0).toBe(total({ stops: [b] }));
        // One way: the outbound leg's counts are the stops counts, and ParadasIda filters as Paradas does.
        expect(counts.outboundStops).toEqual(counts.stops);
        expect(counts.returnStops).toBeUndefined();
        for (const b of [0, 1, 2]) expect(total({ outboundStops: [b] })).toBe(total({ stops: [b] }));
        for (const iata of ["LA", "G3", "AD"]) expect(counts.airlines.find(([k]) => k === iata)?.[1] ?? 0).toBe(total({ airlines: [iata] }));
        expect(counts.miles).toBe(total({ payment: "miles" }));
        expect(counts.cash).toBe(total({ payment: "cash" }));
        expect(counts.miles + counts.cash).toBe(s.outbound.groups.size);
      }),
      { numRuns: 200 },
    );
  });
});

describe("Mode A filters and sort (examples)", () => {
  const offers = [
    makeOffer({ flightNumber: 1, total: 90_000, departure: "2026-12-20T08:00:00" }),
    makeOffer({ flightNumber: 2, total: 40_000, departure: "2026-12-20T06:00:00" }),
    makeOffer({ flightNumber: 3, total: 30_000, departure: "2026-12-20T07:00:00", carrier: "G3", airlineId: 2 }),
  ].map((o, i) => (i === 0 ? o : { ...o, itinerary: { ...o.itinerary, stops: 1, durationMinutes: 600 } }));
  const s = snapshotOf(offers);

  it("a nonstop past the first page of the default order is on page 1 when filtered to nonstops", () => {
    const plain = modeAPage(s, 1, 2, airports);
    expect(plain.flights.map((g) => g.outbound[0]!.itinerary.stops)).toEqual([1, 1]);
    const direct = modeAPage(s, 1, 2, airports, { filters: { stops: [0] }, sort: "price" });
    expect(direct.pagination).toEqual({ currentPage: 1, pageSize: 2, totalPages: 1, totalItems: 1 });
    expect(direct.flights[0]!.outbound[0]!.itinerary.legs[0]!.flightNumber).toBe(1);
    expect(direct.meta.counts.stops).toEqual([[0, 1], [1, 2]]);
  });

  it("sorts by duration and by departure over the whole result", () => {
    expect(modeAPage(s, 1, 1, airports, { filters: {}, sort: "duration" }).flights[0]!.outbound[0]!.itinerary.durationMinutes).toBe(60);
    expect(modeAPage(s, 1, 3, airports, { filters: {}, sort: "departure" }).flights.map((g) => g.outbound[0]!.itinerary.departure)).toEqual([
      "2026-12-20T06:00:00",
      "2026-12-20T07:00:00",
      "2026-12-20T08:00:00",
    ]);
  });
});
