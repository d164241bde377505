import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot, type SearchSnapshot } from "../../src/engine/snapshot.js";
import type { SearchQuery } from "../../src/query/query.js";
import { modeAPage } from "../../src/views/mode-a-page.js";
import { modeBResult } from "../../src/views/mode-b-result.js";
import { toWireComparison } from "../../src/envelope/mode-b.js";
import { airports } from "../../src/airports/index.js";
import { makeOffer, queryA } from "../support/offers.js";

const CARRIERS = [
  { carrier: "LA", airlineId: 1 },
  { carrier: "G3", airlineId: 2 },
  { carrier: "AD", airlineId: 3 },
] as const;

/** Offers drawn from a small space, so ids, flights and prices collide often. */
const offerArb = fc
  .record({
    airline: fc.constantFrom(...CARRIERS),
    flightNumber: fc.integer({ min: 1, max: 12 }),
    hour: fc.integer({ min: 6, max: 20 }),
    total: fc.integer({ min: 20_000, max: 20_010 }).map((n) => (n - 20_000) * 5_000 + 20_000),
    points: fc.option(fc.constantFrom(10_000, 20_000), { nil: undefined }),
    seller: fc.constantFrom("latam", "gol", "ota:voaja", "ota:passagem"),
    direction: fc.constantFrom("outbound" as const, "return" as const),
  })
  .map((r) =>
    makeOffer({
      carrier: r.airline.carrier,
      airlineId: r.airline.airlineId,
      flightNumber: r.flightNumber,
      departure: `2026-12-20T${String(r.hour).padStart(2, "0")}:00:00`,
      total: r.total,
      ...(r.points === undefined ? {} : { points: r.points }),
      seller: r.seller,
      direction: r.direction,
    }),
  );

const batchesArb = fc.array(fc.array(offerArb, { maxLength: 15 }), { maxLength: 12 });
const SOURCES = [{ id: "s", name: "S" }];

const fold = (query: SearchQuery, batches: readonly (readonly ReturnType<typeof makeOffer>[])[], hidden: number[] = []) =>
  batches.reduce<SearchSnapshot[]>(
    (acc, offers) => [...acc, reduce(acc.at(-1)!, { type: "batch", sourceId: "s", offers })],
    [initialSnapshot(query, SOURCES, { hiddenCashAirlines: hidden })],
  );

const groupIds = (s: SearchSnapshot) => new Set(s.outbound.groups.keys());
const modeB: SearchQuery = { ...queryA, returnDate: "2026-12-27", mode: { kind: "ota-comparison" } };
const roundTrip: SearchQuery = { ...queryA, returnDate: "2026-12-27" };

describe("reduce (properties)", () => {
  it("results only grow: every offer id once seen stays, and versions never go back", () => {
    fc.assert(
      fc.property(batchesArb, fc.constantFrom(queryA, modeB), (batches, query) => {
        const snaps = fold(query, batches);
        for (let i = 1; i < snaps.length; i++) {
          const [prev, next] = [snaps[i - 1]!, snaps[i]!];
          for (const id of prev.offers.keys()) expect(next.offers.has(id)).toBe(true);
          expect(next.version).toBeGreaterThanOrEqual(prev.version);
        }
      }),
    );
  });

  it("merging the same batch twice changes nothing", () => {
    fc.assert(
      fc.property(batchesArb, offerArb.chain((o) => fc.array(fc.constant(o), { minLength: 1, maxLength: 3 })), (batches, extra) => {
        const once = fold(queryA, [...batches, extra]).at(-1)!;
        const twice = reduce(once, { type: "batch", sourceId: "s", offers: extra });
        expect(twice).toBe(once);
      }),
    );
  });

  it("every Mode A price group appears on exactly one page, in price order", () => {
    fc.assert(
      fc.property(batchesArb, fc.integer({ min: 1, max: 7 }), fc.constantFrom(queryA, roundTrip), (batches, pageSize, query) => {
        const s = fold(query, batches).at(-1)!;
        const first = modeAPage(s, 1, pageSize, airports);
        const seen: string[] = [];
        const prices: number[] = [];
        for (let p = 1; p <= first.pagination.totalPages + 1; p++) {
          const page = modeAPage(s, p, pageSize, airports);
          expect(page.pagination.totalItems).toBe(first.pagination.totalItems);
          for (const f of page.flights) {
            seen.push(f.id);
            const [o, r] = f.pricedBy ?? [f.outbound[0]!, undefined];
            prices.push(o.total.amount + (r?.total.amount ?? 0));
          }
        }
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.length).toBe(first.pagination.totalItems);
        expect(prices).toEqual([...prices].sort((a, b) => a - b));
        if (query.returnDate === undefined) expect(new Set(seen)).toEqual(groupIds(s));
      }),
    );
  });

  it('pageSize "all" is page 1 holding every group in page order, with a single-page pagination', () => {
    fc.assert(
      fc.property(batchesArb, fc.constantFrom(queryA, roundTrip), fc.integer({ min: 1, max: 9 }), (batches, query, askedPage) => {
        const s = fold(query, batches).at(-1)!;
        const paged: string[] = [];
        const first = modeAPage(s, 1, 7, airports);
        for (let p = 1; p <= first.pagination.totalPages; p++) paged.push(...modeAPage(s, p, 7, airports).flights.map((f) => f.id));
        const all = modeAPage(s, askedPage, "all", airports);
        const total = first.pagination.totalItems;
        expect(all.flights.map((f) => f.id)).toEqual(paged);
        expect(all.pagination).toEqual({ currentPage: 1, pageSize: total, totalPages: total > 0 ? 1 : 0, totalItems: total });
      }),
    );
  });

  it("the main Mode B offer is the cheapest of its flight; its seller's other fares are its fare options, Outros holds other sellers only", () => {
    fc.assert(
      fc.property(batchesArb, (batches) => {
        const s = fold(modeB, batches).at(-1)!;
        const result = modeBResult(s);
        let count = 0;
        for (const c of [...result.outbound, ...result.inbound]) {
          count += 1 + c.fareOptions.length + c.others.length;
          for (const o of [...c.fareOptions, ...c.others]) {
            expect(o.flightKey).toBe(c.main.flightKey);
            expect(o.total.amount).toBeGreaterThanOrEqual(c.main.total.amount);
          }
          for (const o of c.fareOptions) expect(o.seller.id).toBe(c.main.seller.id);
          for (const o of c.others) expect(o.seller.id).not.toBe(c.main.seller.id);
          for (const list of [c.fareOptions, c.others]) {
            const totals = list.map((o) => o.total.amount);
            expect(totals).toEqual([...totals].sort((a, b) => a - b));
          }
          // On the wire: Outros names other sellers only; the seller's own fares follow its fare in Tarifas.
          const wire = toWireComparison(c);
          expect(wire.Outros!.every((alt) => alt.Site !== c.main.seller.site)).toBe(true);
          expect(wire.Outros).toHaveLength(c.others.length);
          expect((wire.Tarifas ?? []).slice(1).map((t) => t.Token)).toEqual(c.fareOptions.map((o) => o.fareToken));
        }
        expect(count).toBe(s.offers.size);
        const mains = result.outbound.map((c) => c.main.total.amount);
        expect(mains).toEqual([...mains].sort((a, b) => a - b));
        expect(s.outbound.order.size).toBe(result.outbound.length);
        expect(s.inbound.order.size).toBe(result.inbound.length);
      }),
    );
  });

  it("with Pagante off for an airline, none of its offers is a cash offer", () => {
    fc.assert(
      fc.property(batchesArb, fc.subarray([1, 2, 3]), fc.constantFrom(queryA, modeB), (batches, hidden, query) => {
        const s = fold(query, batches, hidden).at(-1)!;
        for (const o of s.offers.values()) {
          if (hidden.includes(o.airlineId)) expect(o.miles).toBeDefined();
        }
      }),
    );
  });
});
