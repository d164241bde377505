import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compareStrings, FANOUT, SortedIndex, sortedIndexStats } from "../../src/engine/sorted-index.js";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot, type SearchSnapshot } from "../../src/engine/snapshot.js";
import type { Offer } from "../../src/domain/offer.js";
import type { SearchQuery } from "../../src/query/query.js";
import { flightKey } from "../../src/domain/itinerary.js";

const KEYS = Array.from({ length: 200 }, (_, n) => `k${String(n).padStart(3, "0")}`);
// A value of -1 deletes the key; `batch` starts a new owner (a new batch of changes that share their copies).
const opArb = fc.record({ key: fc.constantFrom(...KEYS), value: fc.integer({ min: -2, max: 5 }).map((n) => Math.max(-1, n)), batch: fc.boolean() });

describe("SortedIndex (a persistent B+tree with order statistics)", () => {
  it("holds what a sorted Map holds after the same sets and deletes, reads the i-th entry on, and every earlier version stays as it was, batched or not", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 600 }), fc.boolean(), (ops, batched) => {
        let m = SortedIndex.empty<string, number>(compareStrings);
        let model = new Map<string, number>();
        let owner: object | undefined = batched ? {} : undefined;
        // Versions kept: the one before each new batch (the ones a snapshot hands out).
        const kept: [SortedIndex<string, number>, [string, number][]][] = [];
        const sorted = (x: Map<string, number>) => [...x].sort(([a], [b]) => compareStrings(a, b));
        for (const { key, value, batch } of ops) {
          if (batch) {
            kept.push([m, sorted(model)]);
            owner = batched ? {} : undefined;
          }
          model = new Map(model);
          if (value < 0) {
            model.delete(key);
            m = m.delete(key, owner);
          } else {
            model.set(key, value);
            m = m.set(key, value, owner);
          }
        }
        kept.push([m, sorted(model)]);
        for (const [version, entries] of kept) {
          expect(version.size).toBe(entries.length);
          expect([...version]).toEqual(entries);
          for (const from of [0, 1, Math.floor(entries.length / 2), entries.length - 1, entries.length]) {
            expect([...version.entries(from)]).toEqual(entries.slice(Math.max(0, from)));
          }
          for (const k of KEYS.slice(0, 40)) expect(version.get(k)).toBe(entries.find(([e]) => e === k)?.[1]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("an insert copies one path (O(log n) nodes), never the whole tree: copies per insert stay flat as the tree grows 16x", () => {
    const copiesPerInsert = (n: number) => {
      let m = SortedIndex.empty<number, number>((a, b) => a - b);
      // A scattered order (a multiplicative hash of 0..n-1), so inserts land everywhere in the tree.
      for (let i = 0; i < n; i++) m = m.set((i * 2_654_435_761) % 4_294_967_291, i);
      const before = sortedIndexStats.copies;
      for (let i = 0; i < 1_000; i++) m = m.set(n * 7 + i * 13 + 0.5, i);
      return { copies: (sortedIndexStats.copies - before) / 1_000, depth: m.depth() };
    };
    const small = copiesPerInsert(2_000);
    const large = copiesPerInsert(32_000);
    // One copy per level: the depth grows by at most one level per FANOUT/2-fold growth.
    expect(large.depth).toBeLessThanOrEqual(Math.ceil(Math.log(33_000) / Math.log(FANOUT / 2)) + 1);
    expect(large.copies).toBeLessThanOrEqual(large.depth + 0.1);
    expect(large.copies).toBeLessThan(small.copies * 1.5 + 0.1);
  });
});

const CARRIERS = [
  { iata: "LA", name: "LATAM", id: 1 },
  { iata: "G3", name: "GOL", id: 2 },
  { iata: "AD", name: "Azul", id: 3 },
];

/** `n` distinct one-way offers, each a flight of its own at a price of its own (each a group). */
const offers = (n: number, from = 0): Offer[] =>
  Array.from({ length: n }, (_, j) => {
    const i = from + j;
    const c = CARRIERS[i % 3]!;
    const minute = ((i * 7) % 216) * 5;
    const hh = String(5 + Math.floor(minute / 60)).padStart(2, "0");
    const mm = String(minute % 60).padStart(2, "0");
    const departure = `2030-01-10T${hh}:${mm}:00`;
    const arrival = `2030-01-10T${String(Number(hh) + 1).padStart(2, "0")}:${mm}:00`;
    const carrier = { iata: c.iata, name: c.name };
    const legs = [{ carrier, operatingCarrier: carrier, flightNumber: 1000 + i, origin: "CNF", destination: "SDU", departure, arrival, durationMinutes: 60, cabin: "Economica" }];
    const itinerary = { direction: "outbound" as const, legs, origin: "CNF", destination: "SDU", departure, arrival, durationMinutes: 60, stops: 0 };
    const total = { amount: 30_000 + i * 3, currency: "BRL" };
    const taxes = { amount: 3_356, currency: "BRL" };
    return {
      id: `o${i}`, flightKey: flightKey(itinerary), sourceId: "s", airlineId: c.id, validatingCarrier: carrier,
      seller: { kind: "airline", id: "s", name: "S", site: "s.example", url: "https://s.example" },
      itinerary, fares: [{ type: "ADT", count: 1, base: { amount: total.amount - taxes.amount, currency: "BRL" }, taxes }],
      total, taxes, airlinePrice: { amount: total.amount * 2, currency: "BRL" }, miles: undefined, cabin: "Economica",
      bookingOption: "Tarifa Light", baggage: { checked: 0, checkedText: "", cabinText: "" }, fareToken: `f${i}`, searchToken: "t",
    } as Offer;
  });

const query: SearchQuery = { origin: "CNF", destination: "SDU", departureDate: "2030-01-10", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } };

describe("the engine's sorted orders under ingestion", () => {
  it("a batch of 100 offers into a search of 20,000 copies a few order nodes per offer: no rebuild per batch (n / 32 nodes per order), no path copied per offer (depth x orders)", () => {
    const copiesPerOffer = (held: number) => {
      let s: SearchSnapshot = initialSnapshot(query, [{ id: "s", name: "S" }]);
      const all = offers(held + 1_000);
      for (let i = 0; i < held; i += 1_000) s = reduce(s, { type: "batch", sourceId: "s", offers: all.slice(i, i + 1_000) });
      const before = sortedIndexStats.copies;
      for (let i = held; i < held + 1_000; i += 100) s = reduce(s, { type: "batch", sourceId: "s", offers: all.slice(i, i + 100) });
      expect(s.offers.size).toBe(held + 1_000);
      return (sortedIndexStats.copies - before) / 1_000;
    };
    const large = copiesPerOffer(20_000);
    // A rebuild of the six orders (price, and the five sorts of the offer's partition) per batch would copy
    // 20,000 / 32 nodes each, over 37 per offer; a path copied per change of each, without the batch sharing
    // them, 6 orders x 4 levels, 24 per offer. Sharing the batch's copies leaves about one leaf per order and offer.
    expect(large).toBeGreaterThan(0);
    expect(large).toBeLessThan(6);
  });
});
