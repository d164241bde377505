import { describe, expect, it } from "vitest";
import { createSimulator, simulateOffers } from "../../src/index.js";
import { OTAS, query } from "./queries.js";

const carriers = (offers: readonly { validatingCarrier: { iata: string } }[]) => new Set(offers.map((o) => o.validatingCarrier.iata));

describe("simulated route network", () => {
  it("flies CNF-SDU with the Brazilian carriers only, through their hubs", () => {
    const offers = simulateOffers(query("CNF", "SDU"));
    expect(carriers(offers)).toEqual(new Set(["LA", "G3", "AD"]));
    const via = (iata: string) => new Set(offers.filter((o) => o.validatingCarrier.iata === iata).flatMap((o) => o.itinerary.legs.slice(1).map((l) => l.origin)));
    for (const hub of via("LA")) expect(["GRU", "CGH", "BSB"]).toContain(hub);
    for (const hub of via("G3")) expect(["GRU", "CGH", "BSB", "GIG"]).toContain(hub);
  });

  it("flies CNF-LIS with TAP nonstop and plausible carriers via their hubs, never with the ones that could not", () => {
    const offers = simulateOffers(query("CNF", "LIS"));
    const found = carriers(offers);
    expect(found.has("TP")).toBe(true);
    for (const iata of found) expect(["TP", "LA", "AD", "IB"]).toContain(iata);
    expect(offers.some((o) => o.validatingCarrier.iata === "TP" && o.itinerary.stops === 0)).toBe(true);
    for (const o of offers.filter((x) => x.validatingCarrier.iata === "LA")) expect(o.itinerary.legs.map((l) => l.origin)).toContain("GRU");
  });

  it("sells a foreign airline's domestic feeder hop as a codeshare flown by its partner", () => {
    const offers = simulateOffers(query("CNF", "MIA"));
    const codeshares = offers.flatMap((o) => o.itinerary.legs).filter((l) => l.carrier.iata !== l.operatingCarrier.iata);
    expect(codeshares.length).toBeGreaterThan(0);
    for (const leg of codeshares) {
      expect(["AA", "CM"]).toContain(leg.carrier.iata); // both codeshare on GOL in Brazil
      expect(leg.operatingCarrier.iata).toBe("G3");
    }
  });

  it("still finds flights for small Brazilian airports, through hubs", () => {
    const offers = simulateOffers(query("LAZ", "POA"));
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.every((o) => o.itinerary.stops >= 1)).toBe(true);
  });

  it("finds nothing where nobody plausibly flies, in either mode", () => {
    expect(simulateOffers(query("TOS", "BOO"))).toEqual([]);
    expect(simulateOffers(query("TOS", "BOO", "2025-07-22", { mode: OTAS }))).toEqual([]);
    expect(simulateOffers(query("CNF", "ZZZ"))).toEqual([]);
  });

  it("answers a single-airline search from that airline's source only", () => {
    const offers = simulateOffers(query("CNF", "SDU", "2025-07-22", { mode: { kind: "single-airline", airlineId: 2 } }));
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.every((o) => o.sourceId === "gol" && o.airlineId === 2 && o.seller.kind === "airline")).toBe(true);
  });

  it("exposes one airline source per airline and the OTA sources", () => {
    const simulator = createSimulator();
    expect(simulator.sources.filter((s) => s.kind === "airline").map((s) => s.airlineId)).toEqual(simulator.airlines.map((a) => a.id));
    expect(simulator.sources.filter((s) => s.kind === "ota")).toHaveLength(simulator.otas.length);
    expect(simulator.otas.length).toBeGreaterThanOrEqual(4);
    expect(simulator.airlines.find((a) => a.iata === "AD")?.hubs).toEqual(["VCP", "CNF", "REC"]);
  });
});
