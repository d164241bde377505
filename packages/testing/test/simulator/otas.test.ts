import { describe, expect, it } from "vitest";
import { SIMULATED_OTAS, simulateOffers } from "../../src/index.js";
import { OTAS, query } from "./queries.js";

const q = query("CNF", "SDU", "2025-07-22", { returnDate: "2025-07-27" });
const airline = simulateOffers(q);
const ota = simulateOffers({ ...q, mode: OTAS });

describe("simulated OTAs", () => {
  it("quote the airlines' own flights: every OTA flight key is an airline flight key", () => {
    const keys = new Set(airline.map((o) => o.flightKey));
    expect(ota.length).toBeGreaterThan(0);
    for (const o of ota) expect(keys.has(o.flightKey)).toBe(true);
  });

  it("sell as OTAs with example-domain links, cabin and booking option", () => {
    for (const o of ota) {
      expect(o.seller.kind).toBe("ota");
      expect(o.sourceId).toBe(o.seller.id);
      expect(o.seller.site).toMatch(/\.example$/);
      expect(new URL(o.seller.url).hostname).toBe(o.seller.site);
      expect(o.miles).toBeUndefined();
      expect(["Economica", "Executiva"]).toContain(o.cabin);
    }
    expect(new Set(ota.map((o) => o.bookingOption))).toEqual(new Set(["Tarifa Light", "Tarifa Plus", "Emissão com milhas"]));
  });

  it("quote the same flight at different prices", () => {
    const bySeller = new Map<string, Set<string>>();
    const prices = new Map<string, Set<number>>();
    for (const o of ota.filter((x) => x.bookingOption === "Tarifa Light")) {
      bySeller.set(o.flightKey, (bySeller.get(o.flightKey) ?? new Set()).add(o.seller.id));
      prices.set(o.flightKey, (prices.get(o.flightKey) ?? new Set()).add(o.total.amount));
    }
    const shared = [...bySeller].filter(([, sellers]) => sellers.size >= 3);
    expect(shared.length).toBeGreaterThan(5);
    for (const [key, sellers] of shared) expect(prices.get(key)!.size).toBe(sellers.size);
  });

  it("compare with the airline's own fare at their own taxes: miles resellers below it", () => {
    const own = new Map(airline.filter((o) => !o.miles).map((o) => [`${o.flightKey}|${o.bookingOption}`, o.total.amount - o.taxes.amount]));
    for (const o of ota) {
      const option = o.bookingOption === "Emissão com milhas" ? "Tarifa Light" : o.bookingOption;
      expect(o.airlinePrice.amount).toBe(own.get(`${o.flightKey}|${option}`)! + o.taxes.amount);
      if (o.bookingOption === "Emissão com milhas") expect(o.total.amount).toBeLessThan(o.airlinePrice.amount);
    }
  });

  it("charge their fee, or give their discount, as a percentage of the fare (Taxas.Servico)", () => {
    const byOta = new Map(SIMULATED_OTAS.map((x) => [x.id, x.feePercent]));
    const discounted = ota.filter((o) => o.discount);
    expect(discounted.length).toBeGreaterThan(0);
    for (const o of ota) {
      const percent = byOta.get(o.seller.id)!;
      const fare = o.total.amount - o.taxes.amount;
      if (percent === 0) expect(o.discount).toBeUndefined();
      else {
        expect(o.discount?.percent).toBe(-percent);
        expect(Math.abs(o.discount!.amount.amount - (fare * -percent) / 100)).toBeLessThanOrEqual(o.fares.length);
      }
    }
    expect(ota.some((o) => o.seller.id === "ota:bilhete-facil" && o.discount!.amount.amount > 0)).toBe(true);
  });
});
