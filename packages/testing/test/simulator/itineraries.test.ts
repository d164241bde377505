import { elapsedMinutes, flightKey, routeConfiguration, zonedToUtcMs, type Offer } from "@voar/core";
import { airports, distanceKm } from "@voar/core/airports";
import { describe, expect, it } from "vitest";
import { blockMinutes, simulateOffers } from "../../src/index.js";
import { query } from "./queries.js";

const QUERIES = [
  query("CNF", "SDU", "2025-07-22", { returnDate: "2025-07-27" }),
  query("CNF", "LIS", "2025-07-22", { returnDate: "2025-08-05" }),
  query("GRU", "MIA", "2025-10-31", { returnDate: "2025-11-09" }), // across the end of US daylight time
  query("JFK", "LAX", "2025-03-08", { returnDate: "2025-03-09" }), // across its start
  query("LAZ", "POA"), // a small airport of Brazil
];
const offers: readonly Offer[] = QUERIES.flatMap((q) => simulateOffers(q));
const utc = (local: string, zone: string | undefined) => zonedToUtcMs(local, zone ?? "UTC");

describe("simulated itineraries", () => {
  it("has offers for every query", () => {
    for (const q of QUERIES) expect(offers.some((o) => o.itinerary.origin === q.origin)).toBe(true);
  });

  it("gives every leg local times in its airports' zones and a duration equal to the elapsed time between them", () => {
    for (const { itinerary } of offers) {
      for (const leg of itinerary.legs) {
        expect(leg.departureTimeZone).toBe(airports.get(leg.origin)?.timeZone);
        expect(leg.arrivalTimeZone).toBe(airports.get(leg.destination)?.timeZone);
        expect(leg.departure).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00$/);
        expect(leg.durationMinutes).toBe(elapsedMinutes(leg.departure, leg.departureTimeZone!, leg.arrival, leg.arrivalTimeZone!));
        expect(leg.durationMinutes).toBeGreaterThan(0);
      }
    }
  });

  it("flies each leg in its great-circle block time, give or take 10 minutes", () => {
    for (const leg of offers.flatMap((o) => o.itinerary.legs)) {
      const km = distanceKm(airports.get(leg.origin)!, airports.get(leg.destination)!);
      expect(Math.abs(leg.durationMinutes - blockMinutes(km))).toBeLessThanOrEqual(10);
    }
  });

  it("keeps itinerary fields consistent with its legs", () => {
    for (const { itinerary, flightKey: key } of offers) {
      const first = itinerary.legs[0]!;
      const last = itinerary.legs[itinerary.legs.length - 1]!;
      expect(itinerary.origin).toBe(first.origin);
      expect(itinerary.destination).toBe(last.destination);
      expect(itinerary.departure).toBe(first.departure);
      expect(itinerary.arrival).toBe(last.arrival);
      expect(itinerary.stops).toBe(itinerary.legs.length - 1);
      expect(itinerary.durationMinutes).toBe(elapsedMinutes(first.departure, first.departureTimeZone!, last.arrival, last.arrivalTimeZone!));
      expect(utc(itinerary.arrival, last.arrivalTimeZone)).toBeGreaterThan(utc(itinerary.departure, first.departureTimeZone));
      expect(key).toBe(flightKey(itinerary));
      expect(routeConfiguration(itinerary).split("_")).toHaveLength(itinerary.legs.length);
    }
  });

  it("connects legs at the same airport with 45 minutes to 16 hours between them, a night at a hub included", () => {
    let overnight = 0;
    for (const { itinerary } of offers) {
      for (let i = 1; i < itinerary.legs.length; i++) {
        const inbound = itinerary.legs[i - 1]!;
        const outbound = itinerary.legs[i]!;
        expect(outbound.origin).toBe(inbound.destination);
        const layover = (utc(outbound.departure, outbound.departureTimeZone) - utc(inbound.arrival, inbound.arrivalTimeZone)) / 60_000;
        expect(layover).toBeGreaterThanOrEqual(45);
        expect(layover).toBeLessThanOrEqual(16 * 60);
        if (outbound.departure.slice(0, 10) > inbound.arrival.slice(0, 10)) overnight++;
      }
    }
    expect(overnight).toBeGreaterThan(0);
  });

  it("spreads departures over the day", () => {
    const hours = new Set(offers.filter((o) => o.itinerary.origin === "CNF" && o.itinerary.destination === "SDU").map((o) => o.itinerary.departure.slice(11, 13)));
    expect(hours.size).toBeGreaterThanOrEqual(8);
  });

  it("flies a round trip's return from the destination back to the origin on the return date", () => {
    const q = QUERIES[0]!;
    const back = offers.filter((o) => o.itinerary.direction === "return" && o.itinerary.origin === q.destination);
    expect(back.length).toBeGreaterThan(0);
    for (const o of back) {
      expect(o.itinerary.destination).toBe(q.origin);
      expect(o.itinerary.departure.slice(0, 10)).toBe(q.returnDate);
      expect(o.flightKey.startsWith("R:")).toBe(true);
    }
    const out = offers.filter((o) => o.itinerary.direction === "outbound" && o.itinerary.origin === q.origin && o.itinerary.destination === q.destination);
    expect(out.every((o) => o.itinerary.departure.startsWith(q.departureDate))).toBe(true);
    expect(simulateOffers({ ...q, returnDate: undefined }).every((o) => o.itinerary.direction === "outbound")).toBe(true);
  });
});
