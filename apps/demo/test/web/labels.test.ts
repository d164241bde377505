import { AIRLINES, INTERLINE, LIVELO } from "@voar/core";
import { describe, expect, it } from "vitest";
import { formatCabin } from "../../src/shared/pt-br-format.js";
import { airlineLabel, airlineNoteById } from "../../src/web/format/airline-label.js";
import { cliCommand } from "../../src/web/search/cli-command.js";

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
});
