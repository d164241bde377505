import type { ModeBEnvelope, ModeBOffer } from "@voar/core";
import { describe, expect, it } from "vitest";
import { airlineSaving } from "../../src/shared/airline-saving.js";
import { cliCommand } from "../../src/web/search/cli-command.js";
import { comparisonRows, nextInCabin } from "../../src/web/search/comparison-rows.js";
import { localEnvelopes } from "../support/local-envelopes.js";

describe("the OTA comparison of a flight", () => {
  it("lists the best offer first, then the other agencies from cheapest to dearest, none cheaper than the best", async () => {
    const final = (await localEnvelopes({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", Companhia: 1300 })).at(-1) as ModeBEnvelope;
    const offer = final.Data[0]!.Ida.find((o) => (o.Outros?.length ?? 0) > 1)!;
    const rows = comparisonRows(offer);
    expect(rows).toHaveLength(offer.Outros!.length + 1);
    expect(rows[0]).toMatchObject({ nome: offer.Nome, valor: offer.ValorTotalComTaxa, url: offer.UrlPesquisa, best: true, cabinCheapest: true, difference: 0 });
    const sameCabin = rows.filter((r) => r.cabine === rows[0]!.cabine).map((r) => r.valor);
    expect(sameCabin).toEqual([...sameCabin].sort((a, b) => a - b));
    expect(rows.every((v) => v.valor >= offer.ValorTotalComTaxa)).toBe(true);
  });

  it("compares fares within a cabin: another cabin's offers come after, against the cheapest of their own cabin", async () => {
    const final = (await localEnvelopes({ Origem: "GRU", Destino: "LIS", Ida: "2026-12-20", Companhia: 1300 })).at(-1) as ModeBEnvelope;
    const offers = [...final.Data[0]!.Ida, ...final.Data[0]!.Volta];
    const mixed = offers.filter((o) => new Set(comparisonRows(o).map((r) => r.cabine)).size > 1);
    expect(mixed.length, "flights with offers in two cabins").toBeGreaterThan(0);
    for (const offer of mixed) {
      const rows = comparisonRows(offer);
      const cabins = rows.map((r) => r.cabine);
      // Each cabin's rows together, the best offer's cabin first.
      expect(cabins.filter((c, i) => c !== cabins[i - 1])).toEqual([...new Set(cabins)]);
      expect(cabins[0]).toBe(rows[0]!.cabine);
      for (const cabin of new Set(cabins)) {
        const of = rows.filter((r) => r.cabine === cabin);
        expect(of[0]!.cabinCheapest).toBe(true);
        expect(of.every((r) => r.valor >= of[0]!.valor && Math.abs(r.difference - (r.valor - of[0]!.valor)) < 0.005)).toBe(true);
      }
      const next = nextInCabin(offer);
      if (next) expect(next.cabine).toBe(rows[0]!.cabine);
    }
  });
});

describe("the saving against the airline, like for like", () => {
  /** A cash OTA offer for two adults: 2 x 1000.00 of fare at the agency, 5 % off, 2 x 60.00 of boarding fees. */
  const offer = {
    PontosAdulto: -1,
    Adultos: 2,
    ValorAdulto: 1000,
    ValorTotal: 2000,
    ValorAdultoNaCia: 1050,
    Taxas: { Embarque: 60, Servico: -5 },
    ValorTotalTaxas: 120 - 100,
    ValorTotalComTaxa: 2020,
    PercentualEconomia: 4.545454545454546,
  } as unknown as ModeBOffer;

  it("compares the offer's total with taxes with the airline's price with taxes for the same passengers, and gives that price", () => {
    const s = airlineSaving(offer)!;
    // The airline: 2 x 1050.00 of fare plus 2 x 60.00 of boarding fees; never one adult's fare without taxes.
    expect(s.airlinePrice).toBe(2220);
    expect(s.amount).toBe(200);
    expect(s.percent).toBeCloseTo((200 / 2220) * 100, 10);
    expect(s.sellerDiscountPercent).toBe(5);
  });

  it("on an award fare takes the taxes as the boarding fees (the seller's percentage is not applied there)", () => {
    const award = { ...offer, PontosAdulto: 20_000, Taxas: { Embarque: 60, Servico: -5 }, ValorTotalTaxas: 120, ValorTotalComTaxa: 2120 } as ModeBOffer;
    expect(airlineSaving(award)).toMatchObject({ airlinePrice: 2220, amount: 100, sellerDiscountPercent: 0 });
  });

  it("shows nothing when the answer gives no airline price (Livelo)", () => {
    expect(airlineSaving({ ...offer, ValorAdultoNaCia: 0 } as ModeBOffer)).toBeUndefined();
  });

  it("on the simulator's comparison, each saving is of the airline's price with taxes, which exceeds one adult's fare", async () => {
    const final = (await localEnvelopes({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", Companhia: 1300, Adultos: 2 })).at(-1) as ModeBEnvelope;
    const savings = final.Data[0]!.Ida.flatMap((o) => {
      const s = airlineSaving(o);
      return s ? [{ o, s }] : [];
    });
    expect(savings.length).toBeGreaterThan(5);
    expect(savings.some(({ s }) => s.percent >= 1)).toBe(true);
    for (const { o, s } of savings) {
      expect(s.airlinePrice).toBeGreaterThan(o.ValorAdultoNaCia * 2);
      expect(s.airlinePrice - s.amount).toBeCloseTo(o.ValorTotalComTaxa, 2);
    }
  });
});

describe("the same search on the command line", () => {
  it("writes the CLI's flags for the request's mode and passengers", () => {
    const base = { Origem: "CNF", Destino: "SDU", Ida: "2026-12-20" };
    expect(cliCommand(base, "http://localhost:8787/api", "k")).toBe("npx -y pnpm@10.34.9 -s voar search CNF SDU 2026-12-20 --base-url http://localhost:8787/api --token k");
    expect(cliCommand({ ...base, Volta: "2026-12-27", Companhia: 1300, Adultos: 2, Criancas: 1, Bebes: 1 }, "u", "k")).toBe(
      "npx -y pnpm@10.34.9 -s voar search CNF SDU 2026-12-20 --volta 2026-12-27 --modo b --adultos 2 --criancas 1 --bebes 1 --base-url u --token k",
    );
    expect(cliCommand({ ...base, Companhia: 3 }, "u", "k")).toContain("--modo 3");
    expect(cliCommand({ ...base, Volta: "2026-12-27", Filtros: { ParadasIda: [0], ParadasVolta: [0, 1] } }, "u", "k")).toContain("--volta 2026-12-27 --paradas-ida 0 --paradas-volta 0,1");
  });
});
