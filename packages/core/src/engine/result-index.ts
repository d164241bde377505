import * as HashMap from "effect/HashMap";
import * as Option from "effect/Option";
import type { Carrier, Direction } from "../domain/itinerary.js";
import type { Offer } from "../domain/offer.js";
import type { SearchMode } from "../query/query.js";
import { BEST_CENTAVOS_PER_MINUTE, stopsBucket, type SortKey } from "../query/result-view.js";
import { hasMember, memberCount, memberId, memberIds, oneMember, removeMember, setMember, type Members } from "./members.js";
import { addSorted, emptySortedStrings, type SortedStrings } from "./sorted-set.js";
import { compareStrings, SortedIndex } from "./sorted-index.js";
import { StringMap } from "./string-map.js";

/**
 * How a search groups its offers for presentation:
 * - `price-group` (Mode A): one validating airline at one price, one payment kind and one fare (family and
 *   checked bags) is a group whose members are the distinct flights sold at that price, so the same flight
 *   sold as LIGHT and as PLUS at one price is two groups, each showing its family;
 * - `comparison` (Mode B): one flight is a group whose members are every seller's offer for it;
 * - `single` (single airline): every offer is its own group.
 */
export type GroupingKind = "price-group" | "comparison" | "single";

/** The grouping a search mode uses. */
export const groupingFor = (mode: SearchMode): GroupingKind =>
  mode.kind === "all-airlines" ? "price-group" : mode.kind === "ota-comparison" ? "comparison" : "single";

/** A group of offers in one direction, kept sorted by {@link Group.price}. */
export interface Group {
  readonly key: string;
  readonly direction: Direction;
  readonly airlineId: number;
  readonly carrier: Carrier;
  /** Ordering price in centavos: the group price (Mode A), the cheapest member (Mode B), the offer total (single). */
  readonly price: number;
  /** Whether the group is paid in cash (Mode A groups never mix cash and miles). */
  readonly cash: boolean;
  /** Mode A: flightKey -> offer id. Mode B and single: offer id -> offer id. */
  readonly members: Members;
  /** The cheapest member's offer id. */
  readonly mainId: string;
  /** Bit b set when a member itinerary has stops bucket b (0, 1, 2 = two or more). */
  readonly stopsMask: number;
  /** The shortest member itinerary, minutes. */
  readonly minDuration: number;
  /** The earliest local departure of a member. */
  readonly firstDeparture: string;
  /** The earliest local arrival of a member. */
  readonly firstArrival: string;
}

const byPrice = (a: Group, b: Group): number => a.price - b.price || compareStrings(a.key, b.key);

/**
 * The order of groups in each sort: the sort value, then price, then the stable group key (`best`: price plus
 * duration at {@link BEST_CENTAVOS_PER_MINUTE}, then the key). Groups themselves are the keys of the sorted
 * indexes, compared field by field (numbers as numbers): no key text is built per change.
 */
export const SORT_ORDERS: { readonly [K in SortKey]: (a: Group, b: Group) => number } = {
  price: byPrice,
  duration: (a, b) => a.minDuration - b.minDuration || byPrice(a, b),
  departure: (a, b) => compareStrings(a.firstDeparture, b.firstDeparture) || byPrice(a, b),
  arrival: (a, b) => compareStrings(a.firstArrival, b.firstArrival) || byPrice(a, b),
  best: (a, b) => a.price + a.minDuration * BEST_CENTAVOS_PER_MINUTE - (b.price + b.minDuration * BEST_CENTAVOS_PER_MINUTE) || compareStrings(a.key, b.key),
};

const SORTS: readonly SortKey[] = ["price", "duration", "departure", "arrival", "best"];

/** Groups in one order: group (by its sort values) -> group key. */
export type GroupOrder = SortedIndex<Group, string>;

/** The groups of one signature in every sort order. */
export type SignatureOrders = { readonly [K in SortKey]: GroupOrder };

type MutableOrders = { -readonly [K in SortKey]: SignatureOrders[K] };

const emptyOrder = (sort: SortKey): GroupOrder => SortedIndex.empty<Group, string>(SORT_ORDERS[sort]);

const emptyOrders = (): SignatureOrders => ({
  price: emptyOrder("price"),
  duration: emptyOrder("duration"),
  departure: emptyOrder("departure"),
  arrival: emptyOrder("arrival"),
  best: emptyOrder("best"),
});

/** A group moved within one order: out from its old place and in at its new one (or its key object replaced, same place). */
const moveIn = (order: GroupOrder, sort: SortKey, before: Group | undefined, after: Group | undefined, owner: object | undefined): GroupOrder => {
  if (before && after && SORT_ORDERS[sort](before, after) === 0) return order.set(after, after.key, owner);
  if (before) order = order.delete(before, owner);
  return after ? order.set(after, after.key, owner) : order;
};

/** The signature of a group in the counts of its filter values: airline, payment kind, stops mask. */
export const signatureOf = (g: Pick<Group, "carrier" | "cash" | "stopsMask">): string => `${g.carrier.iata}|${g.cash ? "C" : "M"}|${g.stopsMask}`;

/** Reads a signature back. */
export const parseSignature = (sig: string): { readonly iata: string; readonly cash: boolean; readonly stopsMask: number } => {
  const [iata = "", pay, mask] = sig.split("|");
  return { iata, cash: pay === "C", stopsMask: Number(mask) };
};

/** Everything known about one direction of a search, maintained incrementally. */
export interface DirectionIndex {
  readonly groups: StringMap<Group>;
  readonly order: GroupOrder;
  /**
   * Price groups (Mode A) partitioned by {@link signatureOf}, each partition in every sort order. A page
   * of any sort under any stops, airline or payment filter merges the partitions that pass, so it costs
   * O(partitions x log n + page) whatever the share of groups the filter drops; a partition's size is the
   * count of its filter values. There are few partitions (airlines x payment kinds x stops masks).
   */
  readonly bySignature: HashMap.HashMap<string, SignatureOrders>;
  /*
   * The filter values and counts of Mode A's `meta`, from here to the end: kept for price groups only (a
   * comparison or a single airline's answer has no `meta`, and they would cost about as much as its groups).
   */
  /** Distinct flights (by flightKey) with their number of stops. */
  readonly flights: StringMap<number>;
  /** Distinct flights per number of stops. */
  readonly stops: HashMap.HashMap<number, number>;
  /** Validating airlines seen: IATA -> display name. */
  readonly airlines: HashMap.HashMap<string, string>;
  readonly departures: SortedStrings;
  readonly arrivals: SortedStrings;
  readonly departureAirports: SortedStrings;
  readonly arrivalAirports: SortedStrings;
  /** Every airport touched, origin/destination or connection. */
  readonly airports: SortedStrings;
}

/** The group of a key the index holds (its orders name only groups it holds); throws for any other key. */
export const groupOf = (ix: DirectionIndex, key: string): Group => {
  const g = ix.groups.get(key);
  if (g === undefined) throw new Error(`no group ${key} in the index`);
  return g;
};

/** An empty direction index. */
export const emptyDirectionIndex = (): DirectionIndex => ({
  groups: StringMap.empty(),
  order: emptyOrder("price"),
  bySignature: HashMap.empty(),
  flights: StringMap.empty(),
  stops: HashMap.empty(),
  airlines: HashMap.empty(),
  departures: emptySortedStrings(),
  arrivals: emptySortedStrings(),
  departureAirports: emptySortedStrings(),
  arrivalAirports: emptySortedStrings(),
  airports: emptySortedStrings(),
});

/** The key of the group an offer belongs to. */
export const groupKeyOf = (kind: GroupingKind, offer: Offer): string => {
  switch (kind) {
    case "price-group": {
      // The seller too: Livelo's award seats on a LATAM flight are not LATAM Pass's, even at the same points.
      const fare = `${offer.seller.id}/${offer.fareFamily ?? ""}/${offer.baggage.checked}`;
      return `${offer.validatingCarrier.iata}|${offer.miles ? `M${offer.miles.pointsAdult}` : "C"}|${fare}|${String(offer.total.amount).padStart(12, "0")}`;
    }
    case "comparison":
      return offer.flightKey;
    case "single":
      return offer.id;
  }
};

const memberKeyOf = (kind: GroupingKind, offer: Offer): string => (kind === "price-group" ? offer.flightKey : offer.id);

/** Records the filters and counts of a flight seen for the first time. */
const addFlight = (ix: DirectionIndex, offer: Offer, owner: object | undefined): DirectionIndex => {
  if (ix.flights.has(offer.flightKey)) return ix;
  const it = offer.itinerary;
  let airports = ix.airports;
  for (const leg of it.legs) airports = addSorted(addSorted(airports, leg.origin, owner), leg.destination, owner);
  return {
    ...ix,
    flights: ix.flights.set(offer.flightKey, it.stops, owner),
    stops: HashMap.set(ix.stops, it.stops, Option.getOrElse(HashMap.get(ix.stops, it.stops), () => 0) + 1),
    airlines: HashMap.has(ix.airlines, offer.validatingCarrier.iata)
      ? ix.airlines
      : HashMap.set(ix.airlines, offer.validatingCarrier.iata, offer.validatingCarrier.name),
    departures: addSorted(ix.departures, it.departure, owner),
    arrivals: addSorted(ix.arrivals, it.arrival, owner),
    departureAirports: addSorted(ix.departureAirports, it.origin, owner),
    arrivalAirports: addSorted(ix.arrivalAirports, it.destination, owner),
    airports,
  };
};

/** Moves a group within the partitions: out of its old signature's orders, into its new one's. */
const setPartitioned = (
  parts: HashMap.HashMap<string, SignatureOrders>,
  before: Group | undefined,
  after: Group | undefined,
  owner: object | undefined,
): HashMap.HashMap<string, SignatureOrders> => {
  const bs = before && signatureOf(before);
  const as = after && signatureOf(after);
  if (bs !== undefined && as === bs && before && after) {
    const next: MutableOrders = { ...HashMap.unsafeGet(parts, bs) };
    for (const sort of SORTS) next[sort] = moveIn(next[sort], sort, before, after, owner);
    return HashMap.set(parts, bs, next);
  }
  if (bs !== undefined && before) {
    const next: MutableOrders = { ...HashMap.unsafeGet(parts, bs) };
    for (const sort of SORTS) next[sort] = next[sort].delete(before, owner);
    parts = next.price.size === 0 ? HashMap.remove(parts, bs) : HashMap.set(parts, bs, next);
  }
  if (as !== undefined && after) {
    const next: MutableOrders = { ...Option.getOrElse(HashMap.get(parts, as), emptyOrders) };
    for (const sort of SORTS) next[sort] = next[sort].set(after, after.key, owner);
    parts = HashMap.set(parts, as, next);
  }
  return parts;
};

/** Replaces a group (or adds one, `before` undefined; or removes one, `after` undefined) in every order and count. */
const setGroup = (ix: DirectionIndex, kind: GroupingKind, before: Group | undefined, after: Group | undefined, owner: object | undefined): DirectionIndex => {
  const order = moveIn(ix.order, "price", before, after, owner);
  const bySignature = kind === "price-group" ? setPartitioned(ix.bySignature, before, after, owner) : ix.bySignature;
  const groups = after ? ix.groups.set(after.key, after, owner) : before ? ix.groups.delete(before.key) : ix.groups;
  return { ...ix, groups, order, bySignature };
};

const withMember = (g: Group, offer: Offer): Pick<Group, "stopsMask" | "minDuration" | "firstDeparture" | "firstArrival"> => {
  const it = offer.itinerary;
  return {
    stopsMask: g.stopsMask | (1 << stopsBucket(it.stops)),
    minDuration: Math.min(g.minDuration, it.durationMinutes),
    firstDeparture: it.departure < g.firstDeparture ? it.departure : g.firstDeparture,
    firstArrival: it.arrival < g.firstArrival ? it.arrival : g.firstArrival,
  };
};

/** A group as one literal: built by spreads, it would keep its members in a separate, larger store. */
const compactGroup = (g: Group): Group => ({
  key: g.key,
  direction: g.direction,
  airlineId: g.airlineId,
  carrier: g.carrier,
  price: g.price,
  cash: g.cash,
  members: g.members,
  mainId: g.mainId,
  stopsMask: g.stopsMask,
  minDuration: g.minDuration,
  firstDeparture: g.firstDeparture,
  firstArrival: g.firstArrival,
});

const EMPTY_SUMMARY = { stopsMask: 0, minDuration: Number.POSITIVE_INFINITY, firstDeparture: "\uffff", firstArrival: "\uffff" };

/**
 * Adds an offer (new, or a refined version of one already known under the same id). `owner`: the batch's, so
 * that its changes share their copies (see {@link SortedIndex}); none makes every change copy.
 */
export const indexOffer = (ix: DirectionIndex, kind: GroupingKind, offer: Offer, owner?: object): DirectionIndex => {
  const key = groupKeyOf(kind, offer);
  const member = memberKeyOf(kind, offer);
  const before = ix.groups.get(key);
  let next: Group;
  if (!before) {
    next = compactGroup({
      key,
      direction: offer.itinerary.direction,
      airlineId: offer.airlineId,
      carrier: offer.validatingCarrier,
      price: offer.total.amount,
      cash: offer.miles === undefined,
      members: oneMember(member, offer.id),
      mainId: offer.id,
      ...withMember(EMPTY_SUMMARY as Group, offer),
    });
  } else {
    if (kind === "price-group" && hasMember(before.members, member)) return addFlight(ix, offer, owner);
    const cheaper = kind === "comparison" && offer.total.amount < before.price;
    next = compactGroup({
      ...before,
      members: setMember(before.members, member, offer.id),
      price: cheaper ? offer.total.amount : before.price,
      mainId: cheaper ? offer.id : before.mainId,
      ...withMember(before, offer),
    });
  }
  const grouped = setGroup(ix, kind, before, next, owner);
  return kind === "price-group" ? addFlight(grouped, offer, owner) : grouped;
};

/**
 * Removes an offer from its group, for when a refined version moves it elsewhere.
 * `lookup` finds the current version of other members, to elect a new cheapest one.
 */
export const unindexOffer = (
  ix: DirectionIndex,
  kind: GroupingKind,
  offer: Offer,
  lookup: (id: string) => Offer | undefined,
  owner?: object,
): DirectionIndex => {
  const key = groupKeyOf(kind, offer);
  const before = ix.groups.get(key);
  if (!before) return ix;
  const member = memberKeyOf(kind, offer);
  if (memberId(before.members, member) !== offer.id) return ix;
  const members = removeMember(before.members, member);
  if (memberCount(members) === 0) return setGroup(ix, kind, before, undefined, owner);
  let mainId = before.mainId;
  let price = before.price;
  if (mainId === offer.id) {
    mainId = "";
    price = Number.POSITIVE_INFINITY;
    for (const id of memberIds(members)) {
      const o = lookup(id);
      if (o && (o.total.amount < price || (o.total.amount === price && id < mainId))) {
        mainId = id;
        price = o.total.amount;
      }
    }
    if (kind === "price-group") price = before.price;
  }
  let summary = EMPTY_SUMMARY as Group;
  for (const id of memberIds(members)) {
    const o = lookup(id);
    if (o) summary = { ...summary, ...withMember(summary, o) };
  }
  return setGroup(ix, kind, before, compactGroup({ ...before, members, mainId, price, ...pickSummary(summary) }), owner);
};

const pickSummary = (g: Group): Pick<Group, "stopsMask" | "minDuration" | "firstDeparture" | "firstArrival"> => ({
  stopsMask: g.stopsMask,
  minDuration: g.minDuration,
  firstDeparture: g.firstDeparture,
  firstArrival: g.firstArrival,
});
