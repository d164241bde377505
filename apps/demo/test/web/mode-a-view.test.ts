import type { ModeAEnvelope } from "@voar/core";
import { beforeAll, describe, expect, it } from "vitest";
import { filterOptionsOf, filtrosOf, keyedFlights, NO_FILTERS, periodOf, withView } from "../../src/web/search/mode-a-view.js";
import { localEnvelopes } from "../support/local-envelopes.js";

const BASE = { Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", Companhia: -1, NumeroPagina: 3, QuantidadePorPagina: 10 };
const flightsOf = (e: ModeAEnvelope) => e.Data[0]?.flights ?? [];
const finalOf = async (body: Record<string, unknown>) => (await localEnvelopes(body)).at(-1) as ModeAEnvelope;

let snapshots: readonly ModeAEnvelope[];
let final: ModeAEnvelope;

beforeAll(async () => {
  snapshots = (await localEnvelopes({ ...BASE, NumeroPagina: 1 })) as readonly ModeAEnvelope[];
  final = snapshots.at(-1)!;
});

describe("Mode A view: filters and order asked of the API", () => {
  it("asks the same search from page 1 with Filtros and Ordenacao, and drops them when nothing is set", () => {
    const request = withView({ ...BASE, Filtros: { Paradas: [1] }, Ordenacao: "partida" }, { ...NO_FILTERS, stops: new Set([0]), outbound: "manha" }, "duracao");
    expect(request).toEqual({ ...BASE, NumeroPagina: 1, Filtros: { Paradas: [0], Ida: { Saida: { De: "06:00", Ate: "11:59" } } }, Ordenacao: "duracao" });
    expect(withView(request, NO_FILTERS, "preco")).toEqual({ ...BASE, NumeroPagina: 1 });
    expect(filtrosOf({ stops: new Set([2, 0]), airlines: new Set(["LA", "G3"]), payment: "milhas", inbound: "noite" })).toEqual({
      Paradas: [0, 2],
      Companhias: ["G3", "LA"],
      Pagamento: "milhas",
      Volta: { Saida: { De: "18:00", Ate: "23:59" } },
    });
  });

  it("filters the whole result: the nonstop groups of every page, as many as meta.Contagens counts", async () => {
    const counts = final.Data[0]!.meta.Contagens;
    const nonstops = counts.Paradas.find((p) => p.Key === 0)!.Value;
    expect(nonstops).toBeGreaterThan(0);
    const direct = await finalOf({ ...withView(BASE, { ...NO_FILTERS, stops: new Set([0]) }, "preco"), QuantidadePorPagina: 100 });
    expect(direct.pagination.totalItems).toBe(nonstops);
    expect(flightsOf(direct)).toHaveLength(nonstops);
    expect(flightsOf(direct).every((f) => f.segments.every((s) => s.numberOfStops === 0))).toBe(true);
    // The counts stay those of the whole result whatever is filtered, so the options keep their numbers.
    expect(direct.Data[0]!.meta.Contagens).toEqual(counts);
  });

  it("sorts the whole result: page 1 by duration holds the shortest trips of all pages", async () => {
    const all = await finalOf({ ...BASE, NumeroPagina: 1, QuantidadePorPagina: 100 });
    const byDuration = await finalOf(withView(BASE, NO_FILTERS, "duracao"));
    const shortest = Math.min(...flightsOf(all).map((f) => f.FlyTime.Total));
    const durations = flightsOf(byDuration).map((f) => f.FlyTime.Total);
    expect(durations[0]).toBe(shortest);
    expect(durations).toEqual([...durations].sort((a, b) => a - b));
  });

  it("offers stops, airlines and payment with the counts of meta.Contagens, and the parts of the day that have departures", () => {
    const meta = final.Data[0]!.meta;
    const options = filterOptionsOf(meta, new Map());
    expect(options.stops.map((s) => [s.key, s.count])).toEqual(meta.Contagens.Paradas.map((p) => [p.Key, p.Value]));
    expect(new Map(options.airlines.map((a) => [a.key, a.count]))).toEqual(new Map(meta.Contagens.Companhias.map((c) => [c.Key, c.Value])));
    expect(options.airlines.map((a) => a.label)).toContain("GOL");
    expect(options.payments.map((p) => p.count)).toEqual([meta.Contagens.Milhas, meta.Contagens.Dinheiro].filter((n) => n > 0));
    expect(new Set(options.outbound.map((p) => p.key))).toEqual(new Set(meta.WayFilter.DepartureDate.map(periodOf)));
    expect(options.inbound).toEqual([]);
  });

  it("on a round trip asks and counts stops per leg: each leg's options add up to the result, each filter gives its count", async () => {
    const trip = { ...BASE, Volta: "2026-12-27", NumeroPagina: 1 };
    const whole = await finalOf(trip);
    const meta = whole.Data[0]!.meta;
    const options = filterOptionsOf(meta, new Map());
    const sum = (list: readonly { count?: number | undefined }[]) => list.reduce((n, o) => n + (o.count ?? 0), 0);
    expect([sum(options.stops), sum(options.returnStops)]).toEqual([whole.TotalItens, whole.TotalItens]);
    expect(options.stops.length + options.returnStops.length).toBeGreaterThan(2);
    expect(withView(trip, { ...NO_FILTERS, stops: new Set([0]), returnStops: new Set([1, 0]) }, "preco").Filtros).toEqual({ ParadasIda: [0], ParadasVolta: [0, 1] });
    for (const o of options.returnStops) {
      const filtered = await finalOf(withView(trip, { ...NO_FILTERS, returnStops: new Set([o.key]) }, "preco"));
      expect([o.key, filtered.TotalItens]).toEqual([o.key, o.count]);
      expect(flightsOf(filtered).every((f) => f.segmentsBack!.every((s) => Math.min(s.numberOfStops, 2) === o.key))).toBe(true);
    }
    // One way: no return leg, Paradas as before.
    expect(filterOptionsOf(final.Data[0]!.meta, new Map()).returnStops).toEqual([]);
  });

  it("keeps an option the person set listed, with 0, when the answer no longer has it", () => {
    const options = filterOptionsOf(final.Data[0]!.meta, new Map(), { ...NO_FILTERS, airlines: new Set(["CM"]), stops: new Set([2]) });
    expect(options.airlines.find((a) => a.key === "CM")).toEqual({ key: "CM", label: "Copa", count: 0 });
    expect(options.stops.find((s) => s.key === 2)?.count).toBe(0);
  });

  it("gives every row a unique key that stays the same from one snapshot to the next", () => {
    const finalKeys = new Map(keyedFlights(flightsOf(final)).map((r) => [r.flight.segments[0]!.rateToken, r.key]));
    expect(new Set(finalKeys.values()).size).toBe(finalKeys.size);
    const partial = snapshots.find((s) => !s.Completed && flightsOf(s).length > 0)!;
    expect(partial).toBeDefined();
    for (const r of keyedFlights(flightsOf(partial))) {
      const later = finalKeys.get(r.flight.segments[0]!.rateToken);
      if (later !== undefined) expect(later).toBe(r.key);
    }
  });
});
