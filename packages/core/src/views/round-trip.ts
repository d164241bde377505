import type { AirportDirectory } from "../domain/airport.js";
import type { Carrier } from "../domain/itinerary.js";
import type { Offer } from "../domain/offer.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { stopsBucket } from "../query/result-view.js";
import { byDeparture } from "./select.js";

/**
 * Offers of one seller bucket and direction at one price and one stops bucket, by departure, with the
 * earliest landing and the latest takeoff among them: a round trip pairs cells, never single offers, so
 * telling whether two cells combine costs O(1), and a page's work grows with the prices each way, not with
 * the product of the offers.
 */
export interface RoundTripCell {
  readonly offers: readonly Offer[];
  /** Minutes (local, as an epoch count) of the earliest arrival among `offers`. */
  readonly firstLanding: number;
  /** Minutes of the latest departure among `offers`. */
  readonly lastTakeoff: number;
}

/**
 * A round-trip price group, as the legacy shape has it: one seller's outbound and return alternatives that
 * combine at one total price, with one number of stops (bucket) each way. Every outbound alternative
 * combines with at least one return alternative of the group at exactly `price`, and the other way round.
 * The alternatives are worked out when first read (a page reads ten groups, not all of them).
 */
export interface RoundTripPair {
  readonly id: string;
  /** Total price in centavos: an outbound offer's plus a return offer's. */
  readonly price: number;
  /** Stops bucket (0, 1, 2 = two or more) of every outbound alternative. */
  readonly outboundStops: number;
  /** Stops bucket of every return alternative. */
  readonly returnStops: number;
  readonly airlineId: number;
  readonly carrier: Carrier;
  readonly cash: boolean;
  /** Outbound alternatives, by departure. */
  readonly outbound: readonly Offer[];
  /** Return alternatives, by departure. */
  readonly inbound: readonly Offer[];
  /** One outbound and one return alternative that combine at `price`: the group's fare (its cheapest outbound part's earliest outbound). */
  readonly pricedBy: readonly [Offer, Offer];
  /**
   * The cells the group is made of, each [outbound cell, return cell] at prices that add up to `price`, by
   * ascending outbound price; any outbound offer of a part combines with any of its return offers that leaves
   * {@link MIN_STAY_MINUTES} after it lands, and every part has such a pair.
   */
  readonly parts: readonly (readonly [RoundTripCell, RoundTripCell])[];
}

/** Least time between the outbound arrival and the return departure (a same-day round trip). */
export const MIN_STAY_MINUTES = 120;

const EARTH_KM = 6371;
const rad = (d: number) => (d * Math.PI) / 180;
const distanceKm = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number => {
  const h = Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.sqrt(h));
};

/**
 * The longest itinerary a round trip pairs on a route: two and a half times a nonstop's expected time
 * (800 km/h plus 30 minutes), and at least that time plus 4 hours. Fixed by the route (never by what
 * arrived), so an alternative once shown is never dropped later; undefined when an airport is unknown.
 * A 1-hour route (CNF-SDU) pairs itineraries of up to about 5 hours, not 11.
 */
export const maxPlausibleMinutes = (airports: AirportDirectory, origin: string, destination: string): number | undefined => {
  const a = airports.get(origin);
  const b = airports.get(destination);
  if (!a || !b) return undefined;
  const direct = (distanceKm(a, b) / 800) * 60 + 30;
  return Math.round(Math.max(direct * 2.5, direct + 240));
};

/** Minutes since an epoch of a local date-time, for comparing arrival and departure (same time zone assumed). */
const minutesOf = (dateTime: string): number => Date.parse(`${dateTime.slice(0, 16)}:00Z`) / 60_000;
const arrivals = new WeakMap<Offer, number>();
const departures = new WeakMap<Offer, number>();
const memo = (m: WeakMap<Offer, number>, o: Offer, t: string): number => {
  let v = m.get(o);
  if (v === undefined) m.set(o, (v = minutesOf(t)));
  return v;
};
const arrivalOf = (o: Offer) => memo(arrivals, o, o.itinerary.arrival);
const departureOf = (o: Offer) => memo(departures, o, o.itinerary.departure);

/** A cell of offers (sorted by departure); undefined when empty. */
const cellOf = (offers: readonly Offer[]): RoundTripCell | undefined => {
  if (offers.length === 0) return undefined;
  let firstLanding = Number.POSITIVE_INFINITY;
  for (const o of offers) firstLanding = Math.min(firstLanding, arrivalOf(o));
  // By departure: the last one leaves latest.
  return { offers, firstLanding, lastTakeoff: departureOf(offers[offers.length - 1]!) };
};

/** Whether some outbound offer of `out` lands {@link MIN_STAY_MINUTES} before some return of `back` leaves. */
const combine = (out: RoundTripCell, back: RoundTripCell): boolean => out.firstLanding + MIN_STAY_MINUTES <= back.lastTakeoff;

type Head = Omit<RoundTripPair, "outbound" | "inbound" | "pricedBy" | "parts">;

/** A group whose alternatives are worked out from its parts when first read. */
const pairOf = (head: Head, parts: readonly (readonly [RoundTripCell, RoundTripCell])[]): RoundTripPair => {
  let members: { outbound: Offer[]; inbound: Offer[]; pricedBy: readonly [Offer, Offer] } | undefined;
  const built = () => {
    if (members) return members;
    const outbound: Offer[] = [];
    const inbound: Offer[] = [];
    // Each cell is in at most one part of a group (its price and stops fix the other cell's), so nothing repeats.
    for (const [out, back] of parts) {
      for (const o of out.offers) if (arrivalOf(o) + MIN_STAY_MINUTES <= back.lastTakeoff) outbound.push(o);
      for (const r of back.offers) if (departureOf(r) >= out.firstLanding + MIN_STAY_MINUTES) inbound.push(r);
    }
    if (parts.length > 1) {
      outbound.sort(byDeparture);
      inbound.sort(byDeparture);
    }
    const [out, back] = parts[0]!;
    const o = out.offers.find((x) => arrivalOf(x) === out.firstLanding)!;
    const r = back.offers.find((x) => departureOf(x) >= out.firstLanding + MIN_STAY_MINUTES)!;
    return (members = { outbound, inbound, pricedBy: [o, r] });
  };
  return {
    ...head,
    parts,
    get outbound() {
      return built().outbound;
    },
    get inbound() {
      return built().inbound;
    },
    get pricedBy() {
      return built().pricedBy;
    },
  };
};

/** The group with only the alternatives `accept` takes, each way, that still combine at its price; undefined when none do. */
export const filterPair = (p: RoundTripPair, accept: (o: Offer) => boolean): RoundTripPair | undefined => {
  const parts: (readonly [RoundTripCell, RoundTripCell])[] = [];
  for (const [out, back] of p.parts) {
    const o = cellOf(out.offers.filter(accept));
    const r = o && cellOf(back.offers.filter(accept));
    if (o && r && combine(o, r)) parts.push([o, r]);
  }
  const { id, price, outboundStops, returnStops, airlineId, carrier, cash } = p;
  return parts.length > 0 ? pairOf({ id, price, outboundStops, returnStops, airlineId, carrier, cash }, parts) : undefined;
};

const cacheOf = new WeakMap<SearchSnapshot, readonly RoundTripPair[]>();

const pad = (n: number) => String(n).padStart(15, "0");

type Cells = Map<string, Map<string, Offer[]>>;

/** Offers into cells: seller bucket -> `price|stops` -> offers. */
const addTo = (side: Cells, bucket: string, o: Offer): void => {
  let cells = side.get(bucket);
  if (!cells) side.set(bucket, (cells = new Map()));
  const key = `${pad(o.total.amount)}|${stopsBucket(o.itinerary.stops)}`;
  const cell = cells.get(key);
  if (cell) cell.push(o);
  else cells.set(key, [o]);
};

/** The cells of a bucket, cheapest first. */
const sortedCells = (cells: Map<string, Offer[]>): RoundTripCell[] =>
  [...cells.keys()].sort().map((k) => cellOf(cells.get(k)!.sort(byDeparture))!);

/**
 * Round-trip price groups (legacy shape): per seller, payment kind and validating airline, EVERY offer of each
 * direction (every fare of a flight, not only its cheapest); an outbound and a return combine when the return
 * leaves at least {@link MIN_STAY_MINUTES} after the outbound lands and neither is longer than
 * {@link maxPlausibleMinutes}; one group per total price and stops each way (buckets, as real answers group: a
 * group's alternatives all have the same stops) holds every outbound and return that combine at it, so a
 * stops filter of either leg takes or leaves a whole group and the groups per stops of a leg add up to the
 * result. Each group is a function of the offers alone, and a new offer only adds combinations: a cheaper fare
 * of a flight already shown adds groups and removes none, whatever the order offers arrive in (results only
 * grow, decisions.md). Sorted by total price, then id; once per snapshot version.
 */
export const roundTripPairs = (s: SearchSnapshot, airports: AirportDirectory): readonly RoundTripPair[] => {
  const cached = cacheOf.get(s);
  if (cached) return cached;
  const limitOut = maxPlausibleMinutes(airports, s.query.origin, s.query.destination) ?? Number.POSITIVE_INFINITY;
  const limitBack = maxPlausibleMinutes(airports, s.query.destination, s.query.origin) ?? Number.POSITIVE_INFINITY;
  const outs: Cells = new Map();
  const backs: Cells = new Map();
  for (const o of s.offers.values()) {
    const outbound = o.itinerary.direction === "outbound";
    if (o.itinerary.durationMinutes > (outbound ? limitOut : limitBack)) continue;
    addTo(outbound ? outs : backs, `${o.validatingCarrier.iata}|${o.seller.id}|${o.miles === undefined ? "C" : "M"}`, o);
  }
  const pairs: RoundTripPair[] = [];
  for (const [bucket, outCells] of outs) {
    const backCells = backs.get(bucket);
    if (!backCells) continue;
    const returns = sortedCells(backCells);
    // This bucket's groups by price and stops each way (a number: no text built per pair of cells).
    const groups = new Map<number, { head: Head; parts: (readonly [RoundTripCell, RoundTripCell])[] }>();
    // Outbound cells cheapest first, so each group's first part (its fare) is its cheapest outbound.
    for (const oc of sortedCells(outCells)) {
      const o = oc.offers[0]!;
      const so = stopsBucket(o.itinerary.stops);
      for (const rc of returns) {
        if (!combine(oc, rc)) continue;
        const r = rc.offers[0]!;
        const price = o.total.amount + r.total.amount;
        const sr = stopsBucket(r.itinerary.stops);
        const key = price * 9 + so * 3 + sr;
        const g = groups.get(key);
        if (g) g.parts.push([oc, rc]);
        else {
          const head = { id: `${bucket}|${pad(price)}|${so}${sr}`, price, outboundStops: so, returnStops: sr, airlineId: o.airlineId, carrier: o.validatingCarrier, cash: o.miles === undefined };
          groups.set(key, { head, parts: [[oc, rc]] });
        }
      }
    }
    for (const g of groups.values()) pairs.push(pairOf(g.head, g.parts));
  }
  pairs.sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  cacheOf.set(s, pairs);
  return pairs;
};
