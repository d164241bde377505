import * as HashMap from "effect/HashMap";
import * as RedBlackTree from "effect/RedBlackTree";
import type { AirportDirectory } from "../domain/airport.js";
import type { Group } from "../engine/result-index.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { metaOf } from "./meta.js";
import { byDeparture, groupOffers } from "./select.js";
import type { MetaView, PageView, PriceGroupView } from "./views.js";

/** One page of a Mode A result. */
export interface ModeAPage {
  readonly flights: readonly PriceGroupView[];
  readonly pagination: PageView;
  readonly meta: MetaView;
}

interface RoundTripPair {
  readonly id: string;
  readonly price: number;
  readonly out: Group;
  readonly back: Group;
}

const pairCache = new WeakMap<SearchSnapshot, readonly RoundTripPair[]>();

/**
 * Round-trip price groups: each outbound group paired with each return group of the same airline and
 * payment kind (airlines here price one-ways, so a round trip costs the sum). Sorted by total price, then
 * id. Computed once per snapshot version.
 */
const roundTripPairs = (s: SearchSnapshot): readonly RoundTripPair[] => {
  const cached = pairCache.get(s);
  if (cached) return cached;
  const backs = new Map<string, Group[]>();
  for (const g of HashMap.values(s.inbound.groups)) {
    const k = `${g.carrier.iata}|${g.cash}`;
    const list = backs.get(k);
    if (list) list.push(g);
    else backs.set(k, [g]);
  }
  const pairs: RoundTripPair[] = [];
  for (const out of HashMap.values(s.outbound.groups)) {
    for (const back of backs.get(`${out.carrier.iata}|${out.cash}`) ?? []) {
      pairs.push({ id: `${out.key}~${back.key}`, price: out.price + back.price, out, back });
    }
  }
  pairs.sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  pairCache.set(s, pairs);
  return pairs;
};

const pageOf = (totalItems: number, page: number, pageSize: number): PageView => ({
  currentPage: page,
  pageSize,
  totalPages: Math.ceil(totalItems / pageSize),
  totalItems,
});

/** The size of the one page that holds every group (at least 1, as `pagination.pageSize` must be). */
const sizeOf = (pageSize: number | "all", totalItems: number): number => (pageSize === "all" ? Math.max(1, totalItems) : pageSize);

/**
 * A page of Mode A price groups, in stable order: cheapest first, ties broken by the group id, so a new
 * group lands where its price puts it and pages do not reshuffle. A page past the end is empty with the
 * true totals. One-way pages cost O(log n + page size) on top of `meta`. `pageSize: "all"` is page 1 holding
 * every group.
 */
export const modeAPage = (s: SearchSnapshot, askedPage: number, askedSize: number | "all", airports: AirportDirectory): ModeAPage => {
  const page = askedSize === "all" ? 1 : askedPage;
  const passengers = s.query.passengers;
  const flights: PriceGroupView[] = [];
  let totalItems: number;
  let pageSize: number;
  if (s.query.returnDate === undefined) {
    totalItems = RedBlackTree.size(s.outbound.order);
    pageSize = sizeOf(askedSize, totalItems);
    const start = (page - 1) * pageSize;
    if (start < totalItems) {
      for (const [, key] of RedBlackTree.at(s.outbound.order, start)) {
        if (flights.length === pageSize) break;
        const g = HashMap.unsafeGet(s.outbound.groups, key);
        flights.push({ id: g.key, airlineId: g.airlineId, validatingCarrier: g.carrier, outbound: groupOffers(s, g, byDeparture), passengers });
      }
    }
  } else {
    const pairs = roundTripPairs(s);
    totalItems = pairs.length;
    pageSize = sizeOf(askedSize, totalItems);
    const start = (page - 1) * pageSize;
    for (const p of pairs.slice(start, start + pageSize)) {
      flights.push({
        id: p.id,
        airlineId: p.out.airlineId,
        validatingCarrier: p.out.carrier,
        outbound: groupOffers(s, p.out, byDeparture),
        inbound: groupOffers(s, p.back, byDeparture),
        passengers,
      });
    }
  }
  return { flights, pagination: pageOf(totalItems, page, pageSize), meta: metaOf(s, airports, totalItems) };
};
