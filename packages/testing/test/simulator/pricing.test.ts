import { AIRLINES, boardingTaxesOf, isCashOffer, LIVELO, savingPercent, type Offer } from "@voar/core";
import { describe, expect, it } from "vitest";
import { simulateOffers } from "../../src/index.js";
import { OTAS, query } from "./queries.js";

const family = { adults: 2, children: 1, infants: 1 };
const airlineOffers = [
  ...simulateOffers(query("CNF", "SDU", "2025-07-22", { returnDate: "2025-07-27", passengers: family })),
  ...simulateOffers(query("CNF", "LIS", "2025-07-22", { passengers: family })),
];
const otaOffers = simulateOffers(query("CNF", "SDU", "2025-07-22", { returnDate: "2025-07-27", passengers: family, mode: OTAS }));
const all: readonly Offer[] = [...airlineOffers, ...otaOffers];
const single = simulateOffers(query("CNF", "SDU", "2025-07-22"));

describe("simulated prices", () => {
  it("counts money in integer centavos of BRL, totals summing the fares", () => {
    for (const o of all) {
      for (const m of [o.total, o.taxes, o.airlinePrice, ...o.fares.flatMap((f) => [f.base, f.taxes])]) {
        expect(Number.isSafeInteger(m.amount)).toBe(true);
        expect(m.currency).toBe("BRL");
      }
      expect(o.total.amount).toBe(o.fares.reduce((sum, f) => sum + f.base.amount + f.taxes.amount, 0));
      expect(o.taxes.amount).toBe(o.fares.reduce((sum, f) => sum + f.taxes.amount, 0));
      // A seller's discount is taken within the taxes, and may exceed them; the boarding fees never are 0.
      expect(boardingTaxesOf(o)).toBeGreaterThan(0);
      expect(boardingTaxesOf(o) - o.taxes.amount).toBe(o.discount?.amount.amount ?? 0);
    }
  });

  it("prices every passenger type of the query: children at 75-100 % of adults, infants at about 10 %", () => {
    for (const o of all) {
      expect(o.fares.map((f) => [f.type, f.count])).toEqual([["ADT", 2], ["CHD", 1], ["INF", 1]]);
      if (o.miles) continue;
      const [adt, chd, inf] = o.fares.map((f) => f.base.amount / f.count) as [number, number, number];
      expect(chd / adt).toBeGreaterThanOrEqual(0.74);
      expect(chd / adt).toBeLessThanOrEqual(1.01);
      expect(inf / adt).toBeGreaterThan(0.08);
      expect(inf / adt).toBeLessThan(0.12);
    }
    for (const o of single) expect(o.fares.map((f) => [f.type, f.count])).toEqual([["ADT", 1]]);
  });

  it("charges a family more than one adult for the same flight and option", () => {
    const one = new Map(single.map((o) => [o.id, o.total.amount]));
    const compared = airlineOffers.filter((o) => one.has(o.id));
    expect(compared.length).toBeGreaterThan(10);
    for (const o of compared) expect(o.total.amount).toBeGreaterThan(2 * one.get(o.id)!);
  });

  it("sells award seats for points plus cash taxes, cheaper than the airline's cash price", () => {
    const miles = airlineOffers.filter((o) => o.miles !== undefined);
    expect(miles.length).toBeGreaterThan(10);
    for (const o of miles) {
      const airline = AIRLINES.find((a) => a.id === o.airlineId)!;
      expect(o.miles!.programme).toBe(airline.programme);
      expect(o.miles!.pointsAdult).toBeGreaterThan(0);
      expect(o.miles!.pointsChild).toBeGreaterThan(0);
      expect(o.miles!.taxes).toEqual(o.taxes);
      expect(o.bookingOption).toBe("Emissão com milhas");
      // Points are valued between R$ 0.0056 and R$ 0.02 each.
      const adult = o.fares.find((f) => f.type === "ADT")!;
      const perPoint = adult.base.amount / 100 / adult.count / o.miles!.pointsAdult;
      expect(perPoint).toBeGreaterThanOrEqual(0.0055);
      expect(perPoint).toBeLessThanOrEqual(0.0201);
    }
    const saving = miles.filter((o) => o.airlineId !== LIVELO).map(savingPercent);
    expect(saving.filter((s) => s > 0).length / saving.length).toBeGreaterThan(0.9);
  });

  it("sells every flight for cash too, without miles, at the airline's own price", () => {
    const cash = airlineOffers.filter(isCashOffer);
    for (const o of cash) {
      expect(o.miles).toBeUndefined();
      expect(o.airlinePrice).toEqual(o.total);
      expect(savingPercent(o)).toBe(0);
    }
    const awardFlights = new Set(airlineOffers.filter((o) => !isCashOffer(o)).map((o) => o.flightKey));
    const cashFlights = new Set(cash.map((o) => o.flightKey));
    for (const key of awardFlights) expect(cashFlights.has(key)).toBe(true);
  });

  it("compares an award fare with the airline's Light cash price of the same flight", () => {
    const light = new Map(airlineOffers.filter((o) => o.bookingOption === "Tarifa Light").map((o) => [o.flightKey, o.total]));
    for (const o of airlineOffers.filter((x) => x.miles && x.airlineId !== LIVELO)) expect(o.airlinePrice).toEqual(light.get(o.flightKey));
  });

  it("gives Livelo's award seats no airline price, as real answers do (priceInCompany 0), so no saving is shown", () => {
    const livelo = airlineOffers.filter((o) => o.airlineId === LIVELO);
    expect(livelo.length).toBeGreaterThan(0);
    for (const o of livelo) expect([o.airlinePrice.amount, savingPercent(o)]).toEqual([0, 0]);
  });

  it("sells business class on long hauls only, with bags", () => {
    const business = airlineOffers.filter((o) => o.cabin === "Executiva");
    expect(business.length).toBeGreaterThan(0);
    for (const o of business) {
      expect(o.itinerary.destination === "LIS" || o.itinerary.origin === "LIS").toBe(true);
      expect(o.itinerary.legs.every((l) => l.cabin === "Executiva")).toBe(true);
      expect(o.baggage.checked).toBe(2);
    }
  });
});
