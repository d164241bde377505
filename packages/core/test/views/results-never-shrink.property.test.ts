/**
 * "Results only grow" (decisions.md), as a client sees them: over every answer of a search, one-way and round
 * trip, `TotalItens` never goes down and no offer once shown (on any page) leaves the answers, whatever order
 * the sources' offers arrive in. A flight's cheaper fare, arriving after a dearer one was shown, adds price
 * groups; it removes none. Polls, pages and SSE all write the answers with `snapshotToEnvelope`, which is what
 * this reads. Every round-trip group stays exact: its price is an outbound alternative's total plus a return
 * alternative's, for every alternative it lists, each way. The offers of a world have distinct ids, sent once
 * or repeated exactly; a source that re-prices an offer under the same id (decisions.md: "a price may be
 * refined") moves it to the group of its new price, which may already exist.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { airports } from "../../src/airports/index.js";
import type { Offer } from "../../src/domain/offer.js";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot, type SearchSnapshot } from "../../src/engine/snapshot.js";
import { snapshotToEnvelope } from "../../src/envelope/to-envelope.js";
import type { ModeAResultGroup } from "../../src/envelope/mode-a-schema.js";
import type { SearchQuery } from "../../src/query/query.js";
import { MIN_STAY_MINUTES } from "../../src/views/round-trip.js";
import { makeOffer, queryA } from "../support/offers.js";

const hh = (n: number) => String(n).padStart(2, "0");
const at = (date: string, minutes: number) => `${date}T${hh(Math.floor(minutes / 60))}:${hh(minutes % 60)}:00`;

/** One flight of a direction: its schedule and stops follow from its number, as a flight has one itinerary. */
interface FlightSpec {
  readonly carrier: { readonly carrier: string; readonly airlineId: number };
  readonly number: number;
  readonly seller: string;
  readonly points: number | undefined;
  /** Its fares' totals in centavos (LIGHT, PLUS, MAX...): 1 to 3 of them. */
  readonly fares: readonly number[];
}

const flightArb = fc.record({
  carrier: fc.constantFrom({ carrier: "LA", airlineId: 1 }, { carrier: "G3", airlineId: 2 }),
  number: fc.integer({ min: 1, max: 9 }),
  seller: fc.constantFrom("latam", "livelo"),
  points: fc.option(fc.constant(10_000), { nil: undefined }),
  // Few price levels, so that totals of different combinations meet in one group.
  fares: fc.uniqueArray(fc.integer({ min: 0, max: 5 }).map((n) => 20_000 + n * 2_500), { minLength: 1, maxLength: 3 }),
});

const FAMILIES = ["LIGHT", "PLUS", "MAX"];

const offersOf = (date: string, direction: "outbound" | "return", f: FlightSpec): Offer[] => {
  const start = (5 + ((f.number * 5) % 15)) * 60;
  const stops = f.number % 3;
  const minutes = 60 + stops * 45;
  return f.fares.map((total, i) => {
    const o = makeOffer({ ...f.carrier, flightNumber: f.number, direction, departure: at(date, start), total, seller: f.seller, ...(f.points === undefined ? {} : { points: f.points }) });
    const id = `${o.id}:${FAMILIES[i]}`;
    return {
      ...o,
      id,
      fareToken: `ft:${id}`,
      fareFamily: FAMILIES[i],
      baggage: { ...o.baggage, checked: i },
      itinerary: { ...o.itinerary, durationMinutes: minutes, arrival: at(date, start + minutes), stops },
    };
  });
};

/** Every offer of a world once (the same flight drawn twice keeps its first fares), in a random order, cut into batches, some sent again. */
const worldArb = (back: fc.Arbitrary<string | undefined>) =>
  fc
    .record({
      back,
      outs: fc.array(flightArb, { maxLength: 8 }),
      backs: fc.array(flightArb, { maxLength: 8 }),
    })
    .chain(({ back, outs, backs }) => {
      const unique = new Map<string, Offer>();
      for (const f of outs) for (const o of offersOf("2026-12-20", "outbound", f)) if (!unique.has(o.id)) unique.set(o.id, o);
      if (back !== undefined) for (const f of backs) for (const o of offersOf(back, "return", f)) if (!unique.has(o.id)) unique.set(o.id, o);
      const offers = [...unique.values()];
      return fc.record({
        back: fc.constant(back),
        order: fc.shuffledSubarray(offers, { minLength: offers.length, maxLength: offers.length }),
        cuts: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 40 }),
        resend: fc.array(fc.nat(), { maxLength: 4 }),
      });
    })
    .map(({ back, order, cuts, resend }) => {
      const batches: Offer[][] = [];
      let i = 0;
      for (const n of cuts) {
        if (i >= order.length) break;
        batches.push(order.slice(i, i + n));
        i += n;
      }
      if (i < order.length) batches.push(order.slice(i));
      // Exact repeats of offers already sent change nothing.
      for (const k of resend) if (order.length > 0) batches.splice(Math.min(batches.length, 1 + (k % Math.max(1, batches.length))), 0, [order[k % order.length]!]);
      return { back, batches };
    });

const SOURCES = [{ id: "s", name: "S" }];

/** The snapshot after each batch. */
const snapshotsOf = (query: SearchQuery, batches: readonly Offer[][]): SearchSnapshot[] => {
  let s = initialSnapshot(query, SOURCES);
  return batches.map((offers) => (s = reduce(s, { type: "batch", sourceId: "s", offers })));
};

interface Shown {
  readonly totalItems: number;
  /** The fare tokens (one per offer) of every segment of every page. */
  readonly tokens: ReadonlySet<string>;
  readonly groups: readonly ModeAResultGroup["flights"][number][];
}

const PAGE = 4;

/** What the answers of one snapshot show over all their pages, as the wire writes them. */
const shownBy = (s: SearchSnapshot): Shown => {
  const tokens = new Set<string>();
  const groups: ModeAResultGroup["flights"][number][] = [];
  let totalItems = -1;
  for (let page = 1; ; page++) {
    const { body } = snapshotToEnvelope(s, { searchId: "b", requestId: "r", page, pageSize: PAGE, airports });
    if (!body.Success) throw new Error("a failure envelope");
    const data = body.Data[0] as ModeAResultGroup;
    if (totalItems === -1) totalItems = body.TotalItens;
    expect(body.TotalItens).toBe(totalItems);
    for (const f of data.flights) {
      groups.push(f);
      for (const seg of [...f.segments, ...(f.segmentsBack ?? [])]) tokens.add(seg.rateToken);
    }
    if (page >= Math.ceil(totalItems / PAGE)) break;
  }
  expect(groups).toHaveLength(totalItems);
  return { totalItems, tokens, groups };
};

const minutesOf = (t: string) => Date.parse(`${t.slice(0, 16)}:00Z`) / 60_000;

/** Every alternative a round-trip group lists combines with one listed the other way at exactly the group's price. */
const expectExact = (g: Shown["groups"][number], byToken: ReadonlyMap<string, Offer>) => {
  const price = Math.round(g.fareGroup.priceWithTax * 100);
  const outs = g.segments.map((seg) => byToken.get(seg.rateToken)!);
  const backs = (g.segmentsBack ?? []).map((seg) => byToken.get(seg.rateToken)!);
  const combine = (o: Offer, r: Offer) =>
    o.total.amount + r.total.amount === price && minutesOf(r.itinerary.departure) >= minutesOf(o.itinerary.arrival) + MIN_STAY_MINUTES;
  for (const o of outs) expect(backs.some((r) => combine(o, r))).toBe(true);
  for (const r of backs) expect(outs.some((o) => combine(o, r))).toBe(true);
};

describe("results never shrink (properties)", () => {
  it("round trip: TotalItens and the offers shown over all pages never go down, in any arrival order; every group is exact to the centavo", () => {
    fc.assert(
      fc.property(worldArb(fc.constantFrom("2026-12-20", "2026-12-23")), ({ back, batches }) => {
        const query: SearchQuery = { ...queryA, returnDate: back };
        const byToken = new Map(batches.flat().map((o) => [o.fareToken, o]));
        let prev: Shown = { totalItems: 0, tokens: new Set(), groups: [] };
        for (const s of snapshotsOf(query, batches)) {
          const next = shownBy(s);
          expect(next.totalItems).toBeGreaterThanOrEqual(prev.totalItems);
          for (const t of prev.tokens) expect(next.tokens.has(t)).toBe(true);
          for (const g of next.groups) expectExact(g, byToken);
          prev = next;
        }
      }),
      { numRuns: 60 },
    );
  });

  it("one way: TotalItens and the offers shown over all pages never go down, in any arrival order", () => {
    fc.assert(
      fc.property(worldArb(fc.constant(undefined)), ({ batches }) => {
        let prev: Shown = { totalItems: 0, tokens: new Set(), groups: [] };
        for (const s of snapshotsOf(queryA, batches)) {
          const next = shownBy(s);
          expect(next.totalItems).toBeGreaterThanOrEqual(prev.totalItems);
          for (const t of prev.tokens) expect(next.tokens.has(t)).toBe(true);
          prev = next;
        }
      }),
      { numRuns: 60 },
    );
  });
});
