import type { ModeAEnvelope } from "@voar/core";
import { beforeAll, describe, expect, it } from "vitest";
import { filterOptionsOf, keyedFlights, NO_FILTERS, passesFilters, periodOf, visibleFlights } from "../../src/web/search/mode-a-view.js";
import { localEnvelopes } from "../support/local-envelopes.js";

let snapshots: readonly ModeAEnvelope[];
let final: ModeAEnvelope;
const flightsOf = (e: ModeAEnvelope) => e.Data[0]?.flights ?? [];

beforeAll(async () => {
  snapshots = (await localEnvelopes({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", QuantidadePorPagina: 100 })) as readonly ModeAEnvelope[];
  final = snapshots.at(-1)!;
});

describe("Mode A filters, sorting and row keys", () => {
  it("offers the filters of meta: stops with the API's counts, airlines, and parts of the day that have departures", () => {
    const meta = final.Data[0]!.meta;
    const options = filterOptionsOf(meta);
    expect(options.stops.map((s) => s.count)).toEqual(meta.WayFilter.Stops.map((s) => s.Value));
    expect(options.airlines.map((a) => a.key)).toEqual([...meta.WayFilter.Airlines].sort((a, b) => a.localeCompare(b, "pt-BR")));
    expect(options.periods.reduce((n, p) => n + (p.count ?? 0), 0)).toBe(meta.WayFilter.DepartureDate.length);
  });

  it("keeps a group when one of its outbound itineraries matches the stops and time filters, and its airline matches", () => {
    const flights = flightsOf(final);
    const direct = flights.filter((f) => passesFilters(f, { ...NO_FILTERS, stops: new Set([0]) }));
    expect(direct.length).toBeGreaterThan(0);
    expect(direct.every((f) => f.segments.some((s) => s.numberOfStops === 0))).toBe(true);
    const morningGol = flights.filter((f) => passesFilters(f, { ...NO_FILTERS, airlines: new Set(["GOL"]), periods: new Set(["manha"]) }));
    expect(morningGol.every((f) => f.validatingBy.name === "GOL" && f.segments.some((s) => periodOf(s.departureDate) === "manha"))).toBe(true);
    expect(flights.filter((f) => passesFilters(f, NO_FILTERS))).toHaveLength(flights.length);
  });

  it("keeps the API's order for price, and sorts by duration or departure with ties in price order", () => {
    const rows = keyedFlights(flightsOf(final));
    expect(visibleFlights(rows, NO_FILTERS, "preco").map((r) => r.key)).toEqual(rows.map((r) => r.key));
    const byDuration = visibleFlights(rows, NO_FILTERS, "duracao").map((r) => r.flight.FlyTime.Total);
    expect(byDuration).toEqual([...byDuration].sort((a, b) => a - b));
    const byDeparture = visibleFlights(rows, NO_FILTERS, "partida").map((r) => r.flight.segments[0]!.departureDate);
    expect(byDeparture).toEqual([...byDeparture].sort());
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
