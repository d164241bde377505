import { describe, expect, it } from "vitest";
import { createSimulator, simulateOffers } from "../../src/index.js";
import { OTAS, query } from "./queries.js";

describe("simulator determinism", () => {
  const roundTrip = query("CNF", "SDU", "2025-07-22", { returnDate: "2025-07-27", passengers: { adults: 2, children: 1, infants: 1 } });

  it("gives identical offers for the same seed and query", () => {
    expect(simulateOffers(roundTrip, { seed: 7 })).toEqual(simulateOffers(roundTrip, { seed: 7 }));
    expect(simulateOffers({ ...roundTrip, mode: OTAS }, { seed: 7 })).toEqual(simulateOffers({ ...roundTrip, mode: OTAS }, { seed: 7 }));
  });

  it("gives different flights and prices for a different seed", () => {
    const a = simulateOffers(roundTrip, { seed: 1 });
    const b = simulateOffers(roundTrip, { seed: 2 });
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.map((o) => o.flightKey)).not.toEqual(b.map((o) => o.flightKey));
    expect(a.map((o) => o.total.amount)).not.toEqual(b.map((o) => o.total.amount));
  });

  it("does not depend on the order in which sources are called", () => {
    const forward = createSimulator({ seed: 5 });
    const backward = createSimulator({ seed: 5 });
    const otaQuery = { ...roundTrip, mode: OTAS };
    // Ask the OTAs first on one simulator (they fill its cache with every airline's flights), airlines first on the other.
    const otasFirst = [...forward.offers(otaQuery), ...forward.offers(roundTrip)];
    const airlinesFirst = [...backward.offers(roundTrip), ...backward.offers(otaQuery)];
    const byId = (list: typeof otasFirst) => [...list].sort((x, y) => x.id.localeCompare(y.id));
    expect(byId(otasFirst)).toEqual(byId(airlinesFirst));
  });

  it("gives unique offer ids and deterministic opaque tokens", () => {
    const offers = simulateOffers(roundTrip);
    expect(new Set(offers.map((o) => o.id)).size).toBe(offers.length);
    for (const o of offers) {
      expect(o.fareToken).toMatch(/^[0-9a-f]{32}$/);
      expect(o.searchToken).toMatch(new RegExp(`^${o.sourceId.replace(/^ota:/, "")}_[0-9a-f]{32}$`));
    }
    expect(new Set(offers.filter((o) => o.sourceId === "latam").map((o) => o.searchToken)).size).toBe(1);
  });

  it("keeps a query's volume in the hundreds", () => {
    const airlines = simulateOffers(roundTrip);
    const otas = simulateOffers({ ...roundTrip, mode: OTAS });
    expect(airlines.length + otas.length).toBeGreaterThan(100);
    expect(airlines.length + otas.length).toBeLessThan(2000);
    // A 1-hour route flown nonstop: each airline sells its nonstops and the few connections they do not beat.
    for (const source of ["latam", "gol", "azul"]) {
      const outbound = new Set(airlines.filter((o) => o.sourceId === source && o.itinerary.direction === "outbound").map((o) => o.flightKey));
      expect(outbound.size).toBeGreaterThanOrEqual(3);
      expect(outbound.size).toBeLessThanOrEqual(40);
    }
  });
});
