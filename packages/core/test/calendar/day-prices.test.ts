import { describe, expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import { dayPrices } from "../../src/calendar/day-prices.js";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot } from "../../src/engine/snapshot.js";
import type { Offer } from "../../src/domain/offer.js";
import type { SearchQuery } from "../../src/query/query.js";
import { makeOffer, queryA } from "../support/offers.js";

const snapshotOf = (query: SearchQuery, offers: readonly Offer[], hiddenCashAirlines: number[] = []) =>
  reduce(initialSnapshot(query, [{ id: "latam", name: "LATAM" }], { hiddenCashAirlines }), { type: "batch", sourceId: "latam", offers });

describe("dayPrices", () => {
  it("a one-way day: the cheapest cash total and the fewest points for every passenger asked, with their taxes and airline", () => {
    const query = { ...queryA, passengers: { adults: 2, children: 1, infants: 0 } };
    const offers = [
      makeOffer({ id: "c1", total: 60_000 }),
      makeOffer({ id: "c2", total: 41_000, carrier: "G3", airlineId: 2, flightNumber: 2 }),
      makeOffer({ id: "m1", points: 12_000, flightNumber: 3 }),
      { ...makeOffer({ id: "m2", points: 9_000, carrier: "AD", airlineId: 3, flightNumber: 4 }), miles: { pointsAdult: 9_000, pointsChild: 4_000, taxes: { amount: 7_000, currency: "BRL" }, programme: "TudoAzul" } },
    ];
    const { cash, miles } = dayPrices(snapshotOf(query, offers), airports);
    expect(cash).toEqual({ total: { amount: 41_000, currency: "BRL" }, airlineId: 2, carrier: { iata: "G3", name: "GOL" } });
    // 12 000 x 2 adults (children's points 0) = 24 000 against 9 000 x 2 + 4 000 = 22 000.
    expect(miles).toEqual({ points: 22_000, taxes: { amount: 7_000, currency: "BRL" }, airlineId: 3, carrier: { iata: "AD", name: "Azul" }, programme: "TudoAzul" });
  });

  it("has no cash price for an airline whose Pagante switch is off, nor any price for a day without offers", () => {
    const offers = [makeOffer({ id: "c1", total: 30_000 }), makeOffer({ id: "m1", points: 10_000, flightNumber: 2 })];
    expect(dayPrices(snapshotOf(queryA, offers, [1]), airports).cash).toBeUndefined();
    expect(dayPrices(snapshotOf(queryA, offers, [1]), airports).miles?.points).toBe(10_000);
    expect(dayPrices(snapshotOf(queryA, []), airports)).toEqual({});
  });

  it("a round trip: the cheapest outbound and return that pair up, as the search's price groups pair them", () => {
    const query = { ...queryA, returnDate: "2026-12-27" };
    const offers = [
      makeOffer({ id: "o1", total: 30_000, departure: "2026-12-20T08:00:00" }),
      makeOffer({ id: "o2", total: 25_000, departure: "2026-12-20T20:00:00", flightNumber: 2 }),
      makeOffer({ id: "r1", total: 20_000, direction: "return", departure: "2026-12-27T09:00:00", flightNumber: 3 }),
      makeOffer({ id: "om", points: 8_000, departure: "2026-12-20T09:00:00", flightNumber: 4 }),
      makeOffer({ id: "rm", points: 7_000, direction: "return", departure: "2026-12-27T11:00:00", flightNumber: 5 }),
    ];
    const { cash, miles } = dayPrices(snapshotOf(query, offers), airports);
    expect(cash?.total.amount).toBe(45_000);
    expect(miles).toMatchObject({ points: 15_000, taxes: { amount: 2 * 3_356 } });
  });
});
