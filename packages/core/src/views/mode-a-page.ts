import * as HashMap from "effect/HashMap";
import type { AirportDirectory } from "../domain/airport.js";
import type { Offer } from "../domain/offer.js";
import { groupOf, parseSignature, type DirectionIndex, type Group } from "../engine/result-index.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { metaOf } from "./meta.js";
import {
  acceptedStops,
  DEFAULT_VIEW,
  groupValuesMatch,
  hasFilters,
  itineraryMatches,
  needsItineraries,
  onlyCategorical,
  priceMatches,
  stopsMaskMatches,
  viewKey,
  type ResultFilters,
  type ResultView,
} from "../query/result-view.js";
import { mergedOrder, mergedSize } from "./merged-order.js";
import { filterPair, roundTripPairs, type RoundTripPair } from "./round-trip.js";
import { byDeparture, groupOffers } from "./select.js";
import type { GroupCounts, MetaView, PageView, PriceGroupView } from "./views.js";

/** One page of a Mode A result. */
export interface ModeAPage {
  readonly flights: readonly PriceGroupView[];
  readonly pagination: PageView;
  /** Over the whole result set, whatever the filters. */
  readonly meta: MetaView;
  /** The view applied and how many groups pass its filters (= `pagination.totalItems`). */
  readonly view: ResultView;
}

const pageOf = (totalItems: number, page: number, pageSize: number): PageView => ({
  currentPage: page,
  pageSize,
  totalPages: pageSize > 0 ? Math.ceil(totalItems / pageSize) : 0,
  totalItems,
});

/**
 * The page size asked, or, for the one page that holds every group, the number of groups: 0 while there is
 * none (with `totalPages` 0, as an empty result of any page size), never a size of 1 that no page has.
 */
const sizeOf = (pageSize: number | "all", totalItems: number): number => (pageSize === "all" ? totalItems : pageSize);

/** The members of a group that pass the itinerary filters, by departure; empty when none does. */
const matchingMembers = (s: SearchSnapshot, g: Group, f: ResultFilters): Offer[] => {
  const all = groupOffers(s, g, byDeparture);
  return acceptedStops(f, "outbound") === undefined && !needsItineraries(f) ? all : all.filter((o) => itineraryMatches(f, o));
};

/** Whether a group passes, looking at its members only when its summary cannot tell. */
const groupPasses = (s: SearchSnapshot, g: Group, f: ResultFilters): boolean => {
  if (!groupValuesMatch(f, g.carrier.iata, g.cash) || !priceMatches(f, g.price) || !stopsMaskMatches(f, g.stopsMask)) return false;
  if (f.maxDurationMinutes !== undefined && g.minDuration > f.maxDurationMinutes) return false;
  return onlyCategorical(f) || matchingMembers(s, g, f).length > 0;
};

/** Whether a partition's signature (airline, payment, stops mask) passes the categorical filters. */
const signaturePasses = (f: ResultFilters) => (sig: string): boolean => {
  const { iata, cash, stopsMask } = parseSignature(sig);
  return groupValuesMatch(f, iata, cash) && stopsMaskMatches(f, stopsMask);
};

/**
 * A walk of one sort order over the partitions the categorical filters accept, extended as pages ask for
 * more and kept per snapshot version and view: page 1 costs O(log n + page) for categorical filters (every
 * group walked passes), plus the groups skipped for time, duration or price filters; later pages of the
 * same version continue the walk.
 */
interface Scan {
  readonly keys: string[];
  readonly rest: Iterator<string>;
  done: boolean;
}

const scans = new WeakMap<SearchSnapshot, Map<string, Scan>>();

const scanOf = (s: SearchSnapshot, view: ResultView): Scan => {
  const k = viewKey(view);
  let byView = scans.get(s);
  let scan = byView?.get(k);
  if (!scan) {
    scan = { keys: [], rest: mergedOrder(s.outbound, view.sort, signaturePasses(view.filters)), done: false };
    if (!byView) scans.set(s, (byView = new Map()));
    byView.set(k, scan);
  }
  return scan;
};

const extend = (s: SearchSnapshot, scan: Scan, f: ResultFilters, until: number): void => {
  while (!scan.done && scan.keys.length < until) {
    const next = scan.rest.next();
    if (next.done) {
      scan.done = true;
      break;
    }
    const key = next.value;
    if (onlyCategorical(f) || groupPasses(s, groupOf(s.outbound, key), f)) scan.keys.push(key);
  }
};

const oneWayCounts = (ix: DirectionIndex): GroupCounts => {
  const stops = new Map<number, number>();
  const airlines = new Map<string, number>();
  let miles = 0;
  let cash = 0;
  for (const [sig, orders] of HashMap.entries(ix.bySignature)) {
    const count = orders.price.size;
    const p = parseSignature(sig);
    for (let b = 0; b <= 2; b++) if (p.stopsMask & (1 << b)) stops.set(b, (stops.get(b) ?? 0) + count);
    airlines.set(p.iata, (airlines.get(p.iata) ?? 0) + count);
    if (p.cash) cash += count;
    else miles += count;
  }
  const byStops = [...stops].sort((a, b) => a[0] - b[0]);
  return {
    stops: byStops,
    outboundStops: byStops,
    airlines: [...airlines].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    miles,
    cash,
  };
};

const oneWayPage = (s: SearchSnapshot, page: number, askedSize: number | "all", view: ResultView) => {
  const f = view.filters;
  const flights: PriceGroupView[] = [];
  const passengers = s.query.passengers;
  const viewOf = (g: Group, outbound: readonly Offer[]): PriceGroupView => ({ id: g.key, airlineId: g.airlineId, validatingCarrier: g.carrier, outbound, passengers });
  if (!hasFilters(f) && view.sort === "price") {
    const tree = s.outbound.order;
    const totalItems = tree.size;
    const pageSize = sizeOf(askedSize, totalItems);
    const start = (page - 1) * pageSize;
    if (start < totalItems) {
      for (const [, key] of tree.entries(start)) {
        if (flights.length === pageSize) break;
        const g = groupOf(s.outbound, key);
        flights.push(viewOf(g, groupOffers(s, g, byDeparture)));
      }
    }
    return { flights, totalItems, pageSize };
  }
  const scan = scanOf(s, view);
  let totalItems: number;
  if (onlyCategorical(f)) totalItems = mergedSize(s.outbound, signaturePasses(f));
  else {
    extend(s, scan, f, Number.POSITIVE_INFINITY);
    totalItems = scan.keys.length;
  }
  const pageSize = sizeOf(askedSize, totalItems);
  const start = (page - 1) * pageSize;
  extend(s, scan, f, start + pageSize);
  for (const key of scan.keys.slice(start, start + pageSize)) {
    const g = groupOf(s.outbound, key);
    flights.push(viewOf(g, matchingMembers(s, g, f)));
  }
  return { flights, totalItems, pageSize };
};

const pairsCache = new WeakMap<SearchSnapshot, Map<string, readonly RoundTripPair[]>>();

/** The round-trip pairs passing a view, in its order; once per snapshot version and view. */
const viewPairs = (s: SearchSnapshot, view: ResultView, airports: AirportDirectory): readonly RoundTripPair[] => {
  const k = viewKey(view);
  let byView = pairsCache.get(s);
  const cached = byView?.get(k);
  if (cached) return cached;
  const f = view.filters;
  const all = roundTripPairs(s, airports);
  const accept = (o: Offer) => itineraryMatches(f, o);
  const kept: RoundTripPair[] = hasFilters(f)
    ? all.flatMap((p) =>
        // Only alternatives that pass and still combine at the group's price with one that passes the other way.
        groupValuesMatch(f, p.carrier.iata, p.cash) && priceMatches(f, p.price) ? (filterPair(p, accept) ?? []) : [],
      )
    : all.slice();
  kept.sort(pairOrder(view.sort));
  if (!byView) pairsCache.set(s, (byView = new Map()));
  byView.set(k, kept);
  return kept;
};

const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const minOf = (offers: readonly Offer[], f: (o: Offer) => number): number => offers.reduce((m, o) => Math.min(m, f(o)), Number.POSITIVE_INFINITY);
const firstOf = (offers: readonly Offer[], f: (o: Offer) => string): string => offers.reduce((m, o) => (f(o) < m ? f(o) : m), "\uffff");
const duration = (p: RoundTripPair): number =>
  minOf(p.outbound, (o) => o.itinerary.durationMinutes) + minOf(p.inbound, (o) => o.itinerary.durationMinutes);

const pairOrder = (sort: ResultView["sort"]) => (a: RoundTripPair, b: RoundTripPair): number => {
  const byPrice = a.price - b.price;
  const tie = byPrice || cmpStr(a.id, b.id);
  switch (sort) {
    case "price":
      return tie;
    case "duration":
      return duration(a) - duration(b) || tie;
    case "departure":
      return cmpStr(firstOf(a.outbound, (o) => o.itinerary.departure), firstOf(b.outbound, (o) => o.itinerary.departure)) || tie;
    case "arrival":
      return cmpStr(firstOf(a.outbound, (o) => o.itinerary.arrival), firstOf(b.outbound, (o) => o.itinerary.arrival)) || tie;
    case "best":
      return a.price + duration(a) * 100 - (b.price + duration(b) * 100) || tie;
  }
};

const countsCache = new WeakMap<SearchSnapshot, GroupCounts>();

const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);
const ascending = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]);

/**
 * Counts of filter values over every round-trip pair: each is the total that filter alone gives. A pair has
 * one stops bucket each way, so the counts of each leg add up to the number of pairs.
 */
const roundTripCounts = (s: SearchSnapshot, airports: AirportDirectory): GroupCounts => {
  const cached = countsCache.get(s);
  if (cached) return cached;
  const stops = new Map<number, number>();
  const outboundStops = new Map<number, number>();
  const returnStops = new Map<number, number>();
  const airlines = new Map<string, number>();
  let miles = 0;
  let cash = 0;
  for (const p of roundTripPairs(s, airports)) {
    if (p.outboundStops === p.returnStops) bump(stops, p.outboundStops);
    bump(outboundStops, p.outboundStops);
    bump(returnStops, p.returnStops);
    bump(airlines, p.carrier.iata);
    if (p.cash) cash++;
    else miles++;
  }
  const counts: GroupCounts = {
    stops: ascending(stops),
    outboundStops: ascending(outboundStops),
    returnStops: ascending(returnStops),
    airlines: [...airlines].sort((a, b) => cmpStr(a[0], b[0])),
    miles,
    cash,
  };
  countsCache.set(s, counts);
  return counts;
};

/**
 * A page of Mode A price groups for a view (filters and sort over the WHOLE result set; default: every
 * group, cheapest first). Order is stable: ties broken by price then the group id, so a new group lands
 * where its values put it and pages do not reshuffle. A page past the end is empty with the true totals.
 * One-way pages cost O(log n + page size) in the default order (the price tree's order statistics); in
 * another order or under stops, airline or payment filters, page 1 merges the signature partitions that
 * pass (see `mergedOrder`) in O(partitions x log n + page size), its total summed from the partitions'
 * sizes, and later pages of the same version continue that walk; time, duration or price filters count by
 * one walk of the whole order (kept for the snapshot version).
 * `pageSize: "all"` is page 1 holding every group.
 */
export const modeAPage = (
  s: SearchSnapshot,
  askedPage: number,
  askedSize: number | "all",
  airports: AirportDirectory,
  view: ResultView = DEFAULT_VIEW,
): ModeAPage => {
  const page = askedSize === "all" ? 1 : askedPage;
  const passengers = s.query.passengers;
  if (s.query.returnDate === undefined) {
    const r = oneWayPage(s, page, askedSize, view);
    const meta = metaOf(s, airports, s.outbound.order.size, () => oneWayCounts(s.outbound));
    return { flights: r.flights, pagination: pageOf(r.totalItems, page, r.pageSize), meta, view };
  }
  const pairs = viewPairs(s, view, airports);
  const totalItems = pairs.length;
  const pageSize = sizeOf(askedSize, totalItems);
  const start = (page - 1) * pageSize;
  const flights: PriceGroupView[] = pairs.slice(start, start + pageSize).map((p) => ({
    id: p.id,
    airlineId: p.airlineId,
    validatingCarrier: p.carrier,
    outbound: p.outbound,
    inbound: p.inbound,
    pricedBy: p.pricedBy,
    passengers,
  }));
  const meta = metaOf(s, airports, roundTripPairs(s, airports).length, () => roundTripCounts(s, airports));
  return { flights, pagination: pageOf(totalItems, page, pageSize), meta, view };
};
