/**
 * The property the calendar is for: in any simulated world (seed, route, passengers, one way or round trip,
 * Pagante switches), each day's MenorValor and MenorPontos are the cheapest fares of that day's own search,
 * read from the search's complete result (`Consultar { Token: TokenBusca }`, every page) the way a client
 * reads it: not from the calendar's code.
 */
import type { ModeAFlight } from "@voar/core";
import { createSimulator } from "@voar/testing";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ADMIN_KEY, consultar, NOW, testApp } from "../support/app.js";
import { calendario, completedCalendar } from "./support.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

type App = ReturnType<typeof testApp>["app"];

/** Every price group of a completed search, page after page. */
const allGroups = async (app: App, token: string): Promise<ModeAFlight[]> => {
  const groups: ModeAFlight[] = [];
  for (let page = 1; ; page++) {
    const { body } = await consultar(app, { Token: token, NumeroPagina: page, QuantidadePorPagina: 100 });
    expect(body.Completed).toBe(true);
    groups.push(...body.Data[0].flights);
    if (page >= body.pagination.totalPages) return groups;
  }
};

const minOf = (values: readonly number[]): number | null => (values.length === 0 ? null : Math.min(...values));

const world = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  route: fc.constantFrom(["CNF", "SDU"], ["GRU", "SSA"], ["POA", "REC"], ["BSB", "GIG"], ["GRU", "LIS"]),
  adults: fc.integer({ min: 1, max: 3 }),
  children: fc.integer({ min: 0, max: 2 }),
  stay: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  hidden: fc.subarray([1, 2, 3]),
});

describe("a calendar's prices in random simulated worlds", () => {
  it("each day's MenorValor and MenorPontos are that day's search's cheapest cash and award fares", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { app } = testApp({ sources: createSimulator({ seed: w.seed, latencyMs: 100, batches: 2 }).sources });
        for (const IdCia of w.hidden) {
          await app.request("/api/admin/pagante", { method: "PUT", headers: { "Content-Type": "application/json", "X-Admin-Key": ADMIN_KEY }, body: JSON.stringify({ IdCia, Pagante: false }) });
        }
        const ida = "2026-03-20";
        const volta = w.stay === undefined ? undefined : `2026-03-${20 + w.stay}`;
        const body = { Origem: w.route[0], Destino: w.route[1], Ida: ida, ...(volta ? { Volta: volta } : {}), Adultos: w.adults, Criancas: w.children, DiasFlexiveis: 1 };
        const done = await completedCalendar(app, (await calendario(app, body)).body.Token, 50);
        expect(done.body.Completed).toBe(true);
        for (const day of done.body.Data) {
          const groups = await allGroups(app, day.TokenBusca!);
          const cash = groups.filter((g) => g.segments[0]!.PontosAdulto < 0);
          const miles = groups.filter((g) => g.segments[0]!.PontosAdulto >= 0);
          expect(day.MenorValor).toBe(minOf(cash.map((g) => g.fareGroup.priceWithTax)));
          // Pagante off: no cash fare of those airlines, in the search or in the calendar.
          expect(cash.some((g) => w.hidden.includes(g.segments[0]!.IdCiaResponsavel))).toBe(false);
          if (w.hidden.includes(day.CiaMenorValor?.Id ?? 0)) expect.fail(`hidden airline ${day.CiaMenorValor?.Id} is a day's cheapest`);
          const points = (s: { PontosAdulto: number; PontosCrianca: number }) => s.PontosAdulto * w.adults + s.PontosCrianca * w.children;
          if (volta === undefined) {
            expect(day.MenorPontos).toBe(minOf(miles.flatMap((g) => g.segments.map(points))));
          } else if (day.MenorPontos === null) {
            expect(miles).toEqual([]);
          } else {
            // The cheapest pairing is one the results show, and none of their groups pairs cheaper.
            const pairs = miles.flatMap((g) => g.segments.flatMap((s) => (g.segmentsBack ?? []).map((b) => points(s) + points(b))));
            expect(pairs).toContain(day.MenorPontos);
            expect(day.MenorPontos).toBeGreaterThanOrEqual(minOf(miles.map((g) => Math.min(...g.segments.map(points)) + Math.min(...(g.segmentsBack ?? []).map(points))))!);
          }
        }
      }),
      { numRuns: 6 },
    );
  });
});
