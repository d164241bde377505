import { describe, expect, it } from "vitest";
import type { ModeAEnvelope } from "@voar/core";
import { localEnvelopes } from "../support/local-envelopes.js";

const last = async (body: Record<string, unknown>) => (await localEnvelopes(body)).at(-1) as ModeAEnvelope;

describe("results on the embedded simulator", () => {
  it("a round trip CNF-SDU gives tens to low hundreds of price groups, each with every outbound and return at its price", async () => {
    const env = await last({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", Volta: "2026-12-27", QuantidadePorPagina: 100 });
    expect(env.Completed).toBe(true);
    expect(env.TotalItens).toBeGreaterThanOrEqual(10);
    expect(env.TotalItens).toBeLessThan(400);
    for (const f of env.Data[0]!.flights) {
      expect(f.segmentsBack!.length).toBeGreaterThan(0);
      // No 11-hour itinerary on a 1-hour route.
      for (const seg of [...f.segments, ...f.segmentsBack!]) expect(seg.duration).toBeLessThan(6 * 60);
    }
  });

  it("price groups hold several itineraries at one price, one-way and round trip, as real answers do", async () => {
    for (const body of [{ Ida: "2026-12-20" }, { Ida: "2026-12-20", Volta: "2026-12-27" }]) {
      const env = await last({ Origem: "CNF", Destino: "SDU", ...body, QuantidadePorPagina: 100 });
      const flights = env.Data[0]!.flights;
      const several = flights.filter((f) => f.segments.length > 1 || (f.segmentsBack?.length ?? 0) > 1);
      expect(several.length, JSON.stringify(body)).toBeGreaterThanOrEqual(5);
      // Every alternative of a group is sold at the group's price: an outbound's (and a return's) own value is one of the group's.
      for (const f of several) expect(new Set(f.segments.map((s) => s.PontosAdulto < 0)).size).toBe(1);
    }
  });

  it("Filtros and Ordenacao apply to the whole result: nonstops only, shortest first, totals as meta.Contagens says", async () => {
    const all = await last({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20" });
    const direct = all.Data[0]!.meta.Contagens.Paradas.find((p) => p.Key === 0)!.Value;
    expect(direct).toBeGreaterThan(0);
    const env = await last({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", QuantidadePorPagina: 100, Filtros: { Paradas: [0] }, Ordenacao: "duracao" });
    expect(env.TotalItens).toBe(direct);
    expect(env.Data[0]!.flights.length).toBe(Math.min(100, direct));
    for (const f of env.Data[0]!.flights) expect(f.segments.every((s) => s.numberOfStops === 0)).toBe(true);
    const shortest = env.Data[0]!.flights.map((f) => Math.min(...f.segments.map((s) => s.duration)));
    expect(shortest).toEqual([...shortest].sort((a, b) => a - b));
  });
});
