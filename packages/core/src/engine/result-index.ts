import * as HashMap from "effect/HashMap";
import * as Option from "effect/Option";
import * as RedBlackTree from "effect/RedBlackTree";
import * as Order from "effect/Order";
import type { Carrier, Direction } from "../domain/itinerary.js";
import type { Offer } from "../domain/offer.js";
import type { SearchMode } from "../domain/query.js";
import { addSorted, emptySortedStrings, type SortedStrings } from "./sorted-set.js";

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
  readonly members: HashMap.HashMap<string, string>;
  /** The cheapest member's offer id. */
  readonly mainId: string;
}

/**
 * Key of the sorted order: the price zero-padded, then the stable group key, so that plain string order is
 * price order with ties broken by key. (A string, not a tuple: the tree removes by value equality.)
 */
export type OrderKey = string;

/** The order key of a group price and key. */
export const orderKeyOf = (price: number, key: string): OrderKey => `${String(price).padStart(15, "0")}|${key}`;

/** Everything known about one direction of a search, maintained incrementally. */
export interface DirectionIndex {
  readonly groups: HashMap.HashMap<string, Group>;
  readonly order: RedBlackTree.RedBlackTree<OrderKey, string>;
  /** Distinct flights (by flightKey) with their number of stops. */
  readonly flights: HashMap.HashMap<string, number>;
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

/** An empty direction index. */
export const emptyDirectionIndex = (): DirectionIndex => ({
  groups: HashMap.empty(),
  order: RedBlackTree.empty<OrderKey, string>(Order.string),
  flights: HashMap.empty(),
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
const addFlight = (ix: DirectionIndex, offer: Offer): DirectionIndex => {
  if (HashMap.has(ix.flights, offer.flightKey)) return ix;
  const it = offer.itinerary;
  let airports = ix.airports;
  for (const leg of it.legs) airports = addSorted(addSorted(airports, leg.origin), leg.destination);
  return {
    ...ix,
    flights: HashMap.set(ix.flights, offer.flightKey, it.stops),
    stops: HashMap.set(ix.stops, it.stops, Option.getOrElse(HashMap.get(ix.stops, it.stops), () => 0) + 1),
    airlines: HashMap.has(ix.airlines, offer.validatingCarrier.iata)
      ? ix.airlines
      : HashMap.set(ix.airlines, offer.validatingCarrier.iata, offer.validatingCarrier.name),
    departures: addSorted(ix.departures, it.departure),
    arrivals: addSorted(ix.arrivals, it.arrival),
    departureAirports: addSorted(ix.departureAirports, it.origin),
    arrivalAirports: addSorted(ix.arrivalAirports, it.destination),
    airports,
  };
};

const setGroup = (ix: DirectionIndex, before: Group | undefined, after: Group): DirectionIndex => {
  let order = ix.order;
  if (before && before.price !== after.price) order = RedBlackTree.removeFirst(order, orderKeyOf(before.price, before.key));
  if (!before || before.price !== after.price) order = RedBlackTree.insert(order, orderKeyOf(after.price, after.key), after.key);
  return { ...ix, groups: HashMap.set(ix.groups, after.key, after), order };
};

/** Adds an offer (new, or a refined version of one already known under the same id). */
export const indexOffer = (ix: DirectionIndex, kind: GroupingKind, offer: Offer): DirectionIndex => {
  const key = groupKeyOf(kind, offer);
  const member = memberKeyOf(kind, offer);
  const before = Option.getOrUndefined(HashMap.get(ix.groups, key));
  let next: Group;
  if (!before) {
    next = {
      key,
      direction: offer.itinerary.direction,
      airlineId: offer.airlineId,
      carrier: offer.validatingCarrier,
      price: offer.total.amount,
      cash: offer.miles === undefined,
      members: HashMap.make([member, offer.id]),
      mainId: offer.id,
    };
  } else {
    if (kind === "price-group" && HashMap.has(before.members, member)) return addFlight(ix, offer);
    const cheaper = kind === "comparison" && offer.total.amount < before.price;
    next = {
      ...before,
      members: HashMap.set(before.members, member, offer.id),
      price: cheaper ? offer.total.amount : before.price,
      mainId: cheaper ? offer.id : before.mainId,
    };
  }
  return addFlight(setGroup(ix, before, next), offer);
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
): DirectionIndex => {
  const key = groupKeyOf(kind, offer);
  const before = Option.getOrUndefined(HashMap.get(ix.groups, key));
  if (!before) return ix;
  const member = memberKeyOf(kind, offer);
  if (Option.getOrUndefined(HashMap.get(before.members, member)) !== offer.id) return ix;
  const members = HashMap.remove(before.members, member);
  if (HashMap.size(members) === 0) {
    return { ...ix, groups: HashMap.remove(ix.groups, key), order: RedBlackTree.removeFirst(ix.order, orderKeyOf(before.price, key)) };
  }
  let mainId = before.mainId;
  let price = before.price;
  if (mainId === offer.id) {
    mainId = "";
    price = Number.POSITIVE_INFINITY;
    for (const id of HashMap.values(members)) {
      const o = lookup(id);
      if (o && (o.total.amount < price || (o.total.amount === price && id < mainId))) {
        mainId = id;
        price = o.total.amount;
      }
    }
    if (kind === "price-group") price = before.price;
  }
  return setGroup(ix, before, { ...before, members, mainId, price });
};
