import { AIRLINES, INTERLINE, LIVELO, type ModeAEnvelope } from "@voar/core";
import { describe, expect, it } from "vitest";
import { formatCabin } from "../../src/shared/pt-br-format.js";
import { airlineLabel, airlineNoteById } from "../../src/web/format/airline-label.js";
import { fareLabel, groupFareLabel } from "../../src/web/format/fare-label.js";
import { cliCommand } from "../../src/web/search/cli-command.js";
import { localEnvelopes } from "../support/local-envelopes.js";

describe("what the page writes", () => {
  it("names every Companhia without empty brackets: the IATA code, or what a programme or Interline is", () => {
    const labels = AIRLINES.map(airlineLabel);
    expect(labels.filter((l) => l.includes("()"))).toEqual([]);
    expect(labels).toContain("LATAM (LA)");
    expect(airlineLabel(AIRLINES.find((a) => a.id === LIVELO)!)).toBe("Livelo (programa de pontos)");
    expect(airlineLabel(AIRLINES.find((a) => a.id === INTERLINE)!)).toBe("Interline (tarifas entre companhias)");
    expect(airlineNoteById(LIVELO, "")).toBe("programa de pontos");
    expect(airlineNoteById(2, "G3")).toBe("G3");
    expect(airlineNoteById(999, "")).toBe("");
  });

  it("writes the wire's Economica as Econômica, other cabins as they come", () => {
    expect(formatCabin("Economica")).toBe("Econômica");
    expect(formatCabin("economica ")).toBe("Econômica");
    expect(formatCabin("Executiva")).toBe("Executiva");
  });

  it("gives the CLI the page asked for: --pagina and --por-pagina when not the defaults", () => {
    const base = { Origem: "CNF", Destino: "SDU", Ida: "2026-12-20" };
    expect(cliCommand({ ...base, NumeroPagina: 1, QuantidadePorPagina: 10 }, "http://h/api", "k")).not.toMatch(/--pagina|--por-pagina/);
    expect(cliCommand({ ...base, NumeroPagina: 3, QuantidadePorPagina: 20 }, "http://h/api", "k")).toContain(" --pagina 3 --por-pagina 20 ");
  });

  it("says what a fare includes, which sets apart two prices of one flight", () => {
    const light = { baggage: null, services: [], fareFamily: "LIGHT", fareFamilyId: null, fareFamilyProgramId: null };
    const plus = { ...light, fareFamily: "PLUS", baggage: { isIncluded: true, type: "CHECKED_BAGGAGE", quantity: 1, texto: "1 bagagem despachada" } } as const;
    expect(fareLabel(light)).toBe("Tarifa Light · só bagagem de mão");
    expect(fareLabel(plus)).toBe("Tarifa Plus · 1 bagagem despachada");
    expect(fareLabel({ ...light, fareFamily: null })).toBe("só bagagem de mão");
    const segment = (fareProfile: typeof light | typeof plus) => ({ fareProfile }) as never;
    expect(groupFareLabel({ segments: [segment(light)], segmentsBack: [segment(light)] })).toBe("Tarifa Light · só bagagem de mão");
    expect(groupFareLabel({ segments: [segment(light)], segmentsBack: [segment(plus)] })).toBe("Ida: Tarifa Light · só bagagem de mão; volta: Tarifa Plus · 1 bagagem despachada");
  });

  it("on the simulator, two price groups of the same flights, paid the same way, never read the same", async () => {
    const final = (await localEnvelopes({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", QuantidadePorPagina: 100 })).at(-1) as ModeAEnvelope;
    const seen = new Map<string, { price: number; fare: string }[]>();
    for (const g of final.Data[0]!.flights) {
      const first = g.segments[0]!;
      const key = [g.validatingBy.iata, first.legs.map((l) => l.flightNumber).join("+"), first.departureDate, first.PontosAdulto < 0 ? "pagante" : "milhas"].join("|");
      seen.set(key, [...(seen.get(key) ?? []), { price: g.fareGroup.priceWithTax, fare: groupFareLabel(g) }]);
    }
    const repeated = [...seen.values()].filter((groups) => groups.length > 1 && groups[0]!.fare.startsWith("Tarifa"));
    expect(repeated.length, "flights sold at several cash prices").toBeGreaterThan(0);
    for (const groups of repeated) expect(new Set(groups.map((g) => g.fare)).size, JSON.stringify(groups)).toBe(groups.length);
  });
});
