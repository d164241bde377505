import type { AirportDirectory } from "../domain/airport.js";
import type { Carrier } from "../domain/itinerary.js";
import type { Offer } from "../domain/offer.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { stopsBucket } from "../query/result-view.js";
import { byDeparture } from "./select.js";

/**
 * A round-trip price group, as the legacy shape has it: one seller's outbound and return alternatives that
 * combine at one total price, with one number of stops (bucket) each way. Every outbound alternative
 * combines with at least one return alternative of the group at exactly `price`, and the other way round
 * (`combos` lists those combinations).
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
  /** The (outbound, return) combinations at `price`. */
  readonly combos: readonly (readonly [Offer, Offer])[];
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

const cacheOf = new WeakMap<SearchSnapshot, readonly RoundTripPair[]>();

const pad = (n: number) => String(n).padStart(15, "0");

/**
 * Round-trip price groups (legacy shape): per seller, payment kind and validating airline, each flight's
 * cheapest offer in each direction; an outbound and a return combine when the return leaves at least
 * {@link MIN_STAY_MINUTES} after the outbound lands and neither is longer than {@link maxPlausibleMinutes};
 * one group per total price and stops each way (buckets, as real answers group: a group's alternatives all
 * have the same stops) holds every outbound and return that combine at it, so a stops filter of either leg
 * takes or leaves a whole group and the groups per stops of a leg add up to the result. At most (outbound
 * flights x return flights) groups, usually far fewer. Sorted by total price, then id; once per snapshot version.
 */
export const roundTripPairs = (s: SearchSnapshot, airports: AirportDirectory): readonly RoundTripPair[] => {
  const cached = cacheOf.get(s);
  if (cached) return cached;
  const limitOut = maxPlausibleMinutes(airports, s.query.origin, s.query.destination) ?? Number.POSITIVE_INFINITY;
  const limitBack = maxPlausibleMinutes(airports, s.query.destination, s.query.origin) ?? Number.POSITIVE_INFINITY;
  // bucket -> flightKey -> cheapest offer, per direction.
  const outs = new Map<string, Map<string, Offer>>();
  const backs = new Map<string, Map<string, Offer>>();
  for (const o of s.offers.values()) {
    const outbound = o.itinerary.direction === "outbound";
    if (o.itinerary.durationMinutes > (outbound ? limitOut : limitBack)) continue;
    const bucket = `${o.validatingCarrier.iata}|${o.seller.id}|${o.miles === undefined ? "C" : "M"}`;
    const side = outbound ? outs : backs;
    let flights = side.get(bucket);
    if (!flights) side.set(bucket, (flights = new Map()));
    const best = flights.get(o.flightKey);
    if (!best || o.total.amount < best.total.amount || (o.total.amount === best.total.amount && o.id < best.id)) flights.set(o.flightKey, o);
  }
  const groups = new Map<
    string,
    { price: number; stops: readonly [number, number]; first: Offer; outbound: Map<string, Offer>; inbound: Map<string, Offer>; combos: [Offer, Offer][] }
  >();
  for (const [bucket, outFlights] of outs) {
    const backFlights = backs.get(bucket);
    if (!backFlights) continue;
    for (const o of outFlights.values()) {
      const earliest = minutesOf(o.itinerary.arrival) + MIN_STAY_MINUTES;
      for (const r of backFlights.values()) {
        if (minutesOf(r.itinerary.departure) < earliest) continue;
        const price = o.total.amount + r.total.amount;
        const stops = [stopsBucket(o.itinerary.stops), stopsBucket(r.itinerary.stops)] as const;
        const id = `${bucket}|${pad(price)}|${stops[0]}${stops[1]}`;
        let g = groups.get(id);
        if (!g) groups.set(id, (g = { price, stops, first: o, outbound: new Map(), inbound: new Map(), combos: [] }));
        g.outbound.set(o.id, o);
        g.inbound.set(r.id, r);
        g.combos.push([o, r]);
      }
    }
  }
  const pairs: RoundTripPair[] = [...groups].map(([id, g]) => ({
    id,
    price: g.price,
    outboundStops: g.stops[0],
    returnStops: g.stops[1],
    airlineId: g.first.airlineId,
    carrier: g.first.validatingCarrier,
    cash: g.first.miles === undefined,
    outbound: [...g.outbound.values()].sort(byDeparture),
    inbound: [...g.inbound.values()].sort(byDeparture),
    combos: g.combos,
  }));
  pairs.sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  cacheOf.set(s, pairs);
  return pairs;
};
