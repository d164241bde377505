import { describe, expect, it } from "vitest";
import { parseSearchRequest } from "../../src/request/request.js";
import { filtrosOf, FiltrosSchema, readResultView } from "../../src/envelope/view-members.js";
import { ctx } from "./airport-fixtures.js";

const base = { Origem: "CNF", Destino: "SDU", Ida: "2025-07-20", Volta: "2025-07-25" };

describe("Filtros and Ordenacao in a request", () => {
  it("reads every filter and the order, keys and words case- and accent-insensitively", () => {
    const r = parseSearchRequest(
      {
        ...base,
        filtros: {
          paradas: 0,
          COMPANHIAS: ["la", "G3"],
          pagamento: "Milhas",
          Ida: { Saída: { De: "6:00", Ate: "12:30" } },
          volta: { chegada: { de: "22:00", ate: "02:00" } },
          DuracaoMaxima: 180,
          PrecoMinimo: "100,50",
          precoMaximo: 900,
        },
        ordenação: "Duração",
      },
      ctx,
    );
    expect(r.kind).toBe("query");
    if (r.kind !== "query") return;
    expect(r.view).toEqual({
      sort: "duration",
      filters: {
        stops: [0],
        airlines: ["G3", "LA"],
        payment: "miles",
        outbound: { departure: { from: 360, to: 750 }, arrival: undefined },
        inbound: { departure: undefined, arrival: { from: 1320, to: 120 } },
        maxDurationMinutes: 180,
        priceMin: 10_050,
        priceMax: 90_000,
      },
    });
    expect(FiltrosSchema.parse(filtrosOf(r.view!.filters))).toEqual(filtrosOf(r.view!.filters));
  });

  it("is accepted on a poll too, and absent means no view", () => {
    const poll = parseSearchRequest({ Token: "s-1", Ordenacao: "melhor" }, ctx);
    expect(poll).toMatchObject({ kind: "poll", view: { sort: "best", filters: {} } });
    expect(parseSearchRequest({ Token: "s-1" }, ctx)).not.toHaveProperty("view");
  });

  it("names every failing member with a pt-BR message", () => {
    const r = parseSearchRequest(
      {
        ...base,
        Filtros: { Paradas: [0, 5], Companhias: "LATAM", Pagamento: "cartao", Ida: { Saida: { De: "25:00" } }, DuracaoMaxima: 0, PrecoMinimo: 500, PrecoMaximo: 100 },
        Ordenacao: "barato",
      },
      ctx,
    );
    expect(r.kind).toBe("invalid");
    if (r.kind !== "invalid") return;
    expect(r.campos.map((c) => c.Campo).sort()).toEqual(
      ["Filtros.Companhias", "Filtros.DuracaoMaxima", "Filtros.Ida.Saida", "Filtros.Pagamento", "Filtros.Paradas", "Filtros.PrecoMinimo", "Ordenacao"].sort(),
    );
    expect(r.campos.find((c) => c.Campo === "Ordenacao")?.Mensagem).toBe('Ordenacao deve ser "preco", "duracao", "partida", "chegada" ou "melhor".');
    expect(r.campos.find((c) => c.Campo === "Filtros.Paradas")?.Mensagem).toContain("0 (direto)");
  });

  it("rejects a Filtros that is not an object, but ignores members it does not know (legacy clients send their own)", () => {
    expect(parseSearchRequest({ ...base, Filtros: "direto" }, ctx)).toMatchObject({ kind: "invalid", campos: [{ Campo: "Filtros" }] });
    expect(parseSearchRequest({ ...base, Filtros: { Cias: ["x"] } }, ctx)).toMatchObject({ kind: "query", view: { filters: {}, sort: "price" } });
    expect(readResultView(null, "", [])).toEqual({ filters: {}, sort: "price" });
  });
});
