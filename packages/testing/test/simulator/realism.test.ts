import { initialSnapshot, modeAPage, reduce, toWireFlight, zonedToUtcMs, type Offer, type SearchQuery } from "@voar/core";
import { airports, distanceKm } from "@voar/core/airports";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSimulator } from "../../src/index.js";
import { MAX_LONG_LAYOVER_MINUTES, maxItineraryMinutes, minLayoverMinutes } from "../../src/simulator/itineraries.js";
import { createNetwork, maxDetourKm } from "../../src/simulator/network.js";
import { blockMinutes } from "../../src/simulator/timetable.js";
import { OTAS, query } from "./queries.js";

/** Hubs, big and small airports of Brazil, and gateways abroad: short, long, thin and busy routes. */
const CODES = ["CNF", "SDU", "GRU", "CGH", "GIG", "BSB", "VCP", "POA", "FLN", "SSA", "REC", "BEL", "MAB", "LAZ", "IOS", "LIS", "OPO", "MAD", "MIA", "JFK", "EZE", "PTY"];
const simulator = createSimulator();
const network = createNetwork(airports);
const airport = (code: string) => airports.get(code)!;
const km = (a: string, b: string) => distanceKm(airport(a), airport(b));
const utc = (local: string, zone: string | undefined) => zonedToUtcMs(local, zone ?? "UTC");
const departureMs = (o: Offer) => utc(o.itinerary.departure, o.itinerary.legs[0]!.departureTimeZone);
const arrivalMs = (o: Offer) => utc(o.itinerary.arrival, o.itinerary.legs.at(-1)!.arrivalTimeZone);
const dateOf = (days: number) => new Date(Date.parse("2026-12-01T00:00:00Z") + days * 86_400_000).toISOString().slice(0, 10);

const searchArb = fc
  .record({
    origin: fc.constantFrom(...CODES),
    destination: fc.constantFrom(...CODES),
    day: fc.integer({ min: 0, max: 59 }),
    stay: fc.option(fc.integer({ min: 0, max: 14 }), { nil: undefined }),
    ota: fc.boolean(),
  })
  .filter((r) => r.origin !== r.destination)
  .map(
    (r): SearchQuery =>
      query(r.origin, r.destination, dateOf(r.day), {
        ...(r.stay === undefined ? {} : { returnDate: dateOf(r.day + r.stay) }),
        ...(r.ota ? { mode: OTAS } : {}),
      }),
  );

/** The layovers of an itinerary, minutes, with the legs around each. */
const layovers = (o: Offer) =>
  o.itinerary.legs.slice(1).map((leg, i) => {
    const inbound = o.itinerary.legs[i]!;
    return {
      minutes: (utc(leg.departure, leg.departureTimeZone) - utc(inbound.arrival, inbound.arrivalTimeZone)) / 60_000,
      min: minLayoverMinutes(
        { origin: airport(inbound.origin), destination: airport(inbound.destination) },
        { origin: airport(leg.origin), destination: airport(leg.destination) },
      ),
    };
  });

describe("simulated itineraries look like a search engine's (properties)", () => {
  it("every layover is between the minimum connection time and the longest wait", () => {
    fc.assert(
      fc.property(searchArb, (q) => {
        for (const o of simulator.offers(q)) {
          for (const l of layovers(o)) {
            expect(l.minutes).toBeGreaterThanOrEqual(l.min);
            expect(l.minutes).toBeLessThanOrEqual(MAX_LONG_LAYOVER_MINUTES);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("on a route some airline flies nonstop, no connection detours past the limit or takes longer than the nonstop allows", () => {
    fc.assert(
      fc.property(searchArb, (q) => {
        for (const o of simulator.offers(q)) {
          const it = o.itinerary;
          if (it.stops === 0 || !network.hasNonstop(it.origin, it.destination)) continue;
          const direct = km(it.origin, it.destination);
          const flown = it.legs.reduce((sum, l) => sum + km(l.origin, l.destination), 0);
          expect(flown).toBeLessThanOrEqual(maxDetourKm(direct) + 1);
          expect(it.durationMinutes).toBeLessThanOrEqual(maxItineraryMinutes(blockMinutes(direct)));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("no airline sells a connection its own nonstop beats (leaving no earlier, landing no later)", () => {
    fc.assert(
      fc.property(searchArb, (q) => {
        const offers = simulator.offers(q).filter((o) => o.seller.kind === "airline" && o.seller.id !== "livelo");
        for (const c of offers.filter((o) => o.itinerary.stops > 0)) {
          const beaten = offers.some(
            (n) =>
              n.itinerary.stops === 0 &&
              n.itinerary.direction === c.itinerary.direction &&
              n.validatingCarrier.iata === c.validatingCarrier.iata &&
              departureMs(n) >= departureMs(c) &&
              arrivalMs(n) <= arrivalMs(c),
          );
          expect(beaten, `${c.flightKey} beaten by a nonstop of ${c.validatingCarrier.iata}`).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("a 1-hour route flown nonstop (CNF-SDU)", () => {
  const days = Array.from({ length: 14 }, (_, i) => dateOf(19 + i));

  it("sells nonstops every day, and no itinerary longer than 4h40 (the nonstop's 70 minutes plus 3h30)", () => {
    for (const day of days) {
      const offers = simulator.offers(query("CNF", "SDU", day));
      expect(offers.some((o) => o.itinerary.stops === 0 && o.itinerary.durationMinutes <= 75)).toBe(true);
      for (const o of offers) expect(o.itinerary.durationMinutes).toBeLessThanOrEqual(280);
    }
  });

  it("shows a nonstop on page 1 of the default order (cheapest first) every day", () => {
    for (const day of days) {
      const q = query("CNF", "SDU", day);
      const s = reduce(initialSnapshot(q, [{ id: "sim", name: "Simulador" }]), { type: "batch", sourceId: "sim", offers: simulator.offers(q) });
      const page = modeAPage(s, 1, 10, airports);
      expect(page.pagination.totalItems).toBeGreaterThan(10);
      expect(page.flights.some((g) => g.outbound.some((o) => o.itinerary.stops === 0)), day).toBe(true);
    }
  });

  it("sells flights in fare classes, so price groups hold several itineraries at one price, one-way and round trip, as real answers do", () => {
    for (let i = 0; i < 7; i++) {
      for (const q of [query("CNF", "SDU", dateOf(19 + i)), query("CNF", "SDU", dateOf(19 + i), { returnDate: dateOf(24 + i) })]) {
        const s = reduce(initialSnapshot(q, [{ id: "sim", name: "Simulador" }]), { type: "batch", sourceId: "sim", offers: simulator.offers(q) });
        const groups = modeAPage(s, 1, "all", airports).flights;
        const several = groups.filter((g) => g.outbound.length > 1 || (g.inbound?.length ?? 0) > 1);
        expect(several.length, `${q.departureDate} ${q.returnDate ?? ""}`).toBeGreaterThanOrEqual(2);
        // Still mostly distinct prices: a few itineraries per group, never one group for everything.
        expect(several.length).toBeLessThan(groups.length / 2);
      }
    }
  });

  it("gives a round trip tens to a few hundred price groups (at most outbound x return fares), each priced as the sum, none pairing an itinerary over 4h40", () => {
    for (let i = 0; i < 7; i++) {
      const q = query("CNF", "SDU", dateOf(19 + i), { returnDate: dateOf(19 + i + (i % 3) * 3) });
      const offers = simulator.offers(q);
      const s = reduce(initialSnapshot(q, [{ id: "sim", name: "Simulador" }]), { type: "batch", sourceId: "sim", offers });
      const all = modeAPage(s, 1, "all", airports);
      expect(all.pagination.totalItems).toBeGreaterThanOrEqual(20);
      // Every fare of a flight pairs (not only its cheapest: results only grow), about three times the groups of pairing the cheapest.
      expect(all.pagination.totalItems).toBeLessThanOrEqual(600);
      const options = (d: string) => new Set(offers.filter((o) => o.itinerary.direction === d).map((o) => o.id)).size;
      expect(all.pagination.totalItems).toBeLessThanOrEqual(options("outbound") * options("return"));
      for (const g of all.flights) {
        for (const o of [...g.outbound, ...(g.inbound ?? [])]) expect(o.itinerary.durationMinutes).toBeLessThanOrEqual(280);
        // The group's price is its outbound's plus its return's.
        const [out, back] = g.pricedBy!;
        expect(Math.round(toWireFlight(g).fareGroup.priceWithTax * 100)).toBe(out.total.amount + back.total.amount);
      }
    }
  });
});
