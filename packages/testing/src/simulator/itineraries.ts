import { airlineById, elapsedMinutes, flightKey, type Carrier, type Direction, type Itinerary, type Leg } from "@voar/core";
import type { CarrierProfile } from "./carriers.js";
import type { Network, RouteHop, RoutePath } from "./network.js";
import { hash53 } from "./prng.js";
import { addDays, timetable, type ScheduledFlight } from "./timetable.js";

/** An itinerary an airline sells, with what pricing needs to know about how it is flown. */
export interface SimulatedItinerary {
  readonly itinerary: Itinerary;
  readonly path: RoutePath;
}

/** What to build itineraries for: one airline, one direction, one local date. */
export interface ItineraryRequest {
  readonly seed: number;
  readonly airlineId: number;
  readonly origin: string;
  readonly destination: string;
  readonly date: string;
  readonly direction: Direction;
}

const MINUTE = 60_000;
/** Up to two connections within this wait are offered; past it, only the next departure. */
const MAX_SHORT_LAYOVER = 6 * 60 * MINUTE;
/** Thin routes fly once a day: a connection may wait up to a day (the path filter drops it if better exists). */
const MAX_LAYOVER = 24 * 60 * MINUTE;
const MAX_PER_PATH = 12;
/** Itineraries of a path taking this much longer than its fastest one are not worth selling. */
const MAX_EXTRA_MINUTES = 6 * 60;
/** Keeps a typical domestic route at 10-40 itineraries per airline. */
const MAX_PER_AIRLINE = 36;

/** Minimum connection time: 45 minutes between domestic flights, 75 when either is international. */
const minConnection = (a: RouteHop, b: RouteHop): number =>
  (a.origin.country === a.destination.country && b.origin.country === b.destination.country ? 45 : 75) * MINUTE;

const carrierOf = (p: CarrierProfile): Carrier => {
  const airline = airlineById(p.airlineId);
  return { iata: airline?.iata ?? "XX", name: airline?.name ?? p.slug };
};

/** A codeshare number in the marketing airline's range, stable for the operating flight. */
const codeshareNumber = (hop: RouteHop, operated: number): number => {
  const [min, max] = hop.marketing.numbers.codeshare;
  return min + (hash53(`${hop.marketing.airlineId}|${hop.operating.airlineId}|${operated}`) % (max - min + 1));
};

const legOf = (hop: RouteHop, f: ScheduledFlight): Leg => ({
  carrier: carrierOf(hop.marketing),
  operatingCarrier: carrierOf(hop.operating),
  flightNumber: hop.marketing === hop.operating ? f.number : codeshareNumber(hop, f.number),
  origin: hop.origin.iata,
  destination: hop.destination.iata,
  departure: f.departure,
  arrival: f.arrival,
  departureTimeZone: hop.origin.timeZone,
  arrivalTimeZone: hop.destination.timeZone,
  durationMinutes: f.durationMinutes,
  cabin: "Economica",
  aircraft: f.aircraft,
});

/** The flights of a path's hops chained with realistic layovers: each chain holds one flight per hop. */
const chains = (seed: number, path: RoutePath, date: string): ScheduledFlight[][] => {
  const [first, ...rest] = path.hops;
  if (!first) return [];
  let partial: ScheduledFlight[][] = timetable(seed, first.operating, first.origin, first.destination, date).map((f) => [f]);
  let previous = first;
  for (const hop of rest) {
    const byDate = new Map<string, readonly ScheduledFlight[]>();
    const departuresOn = (d: string) => {
      let list = byDate.get(d);
      if (!list) byDate.set(d, (list = timetable(seed, hop.operating, hop.origin, hop.destination, d)));
      return list;
    };
    const min = minConnection(previous, hop);
    const next: ScheduledFlight[][] = [];
    for (const chain of partial) {
      const landed = chain[chain.length - 1]!;
      const day = landed.arrival.slice(0, 10);
      const options = [...departuresOn(day), ...departuresOn(addDays(day, 1))].filter(
        (f) => f.departureUtcMs >= landed.arrivalUtcMs + min && f.departureUtcMs <= landed.arrivalUtcMs + MAX_LAYOVER,
      );
      const short = options.filter((f) => f.departureUtcMs <= landed.arrivalUtcMs + MAX_SHORT_LAYOVER);
      // With nothing soon, the next departure: often a night at the hub and the first flight of the morning.
      for (const f of short.length > 0 ? short.slice(0, 2) : options.slice(0, 1)) next.push([...chain, f]);
    }
    partial = next;
    previous = hop;
  }
  return partial;
};

const itineraryOf = (direction: Direction, legs: readonly Leg[]): Itinerary => {
  const first = legs[0]!;
  const last = legs[legs.length - 1]!;
  return {
    direction,
    legs,
    origin: first.origin,
    destination: last.destination,
    departure: first.departure,
    arrival: last.arrival,
    durationMinutes: elapsedMinutes(first.departure, first.departureTimeZone ?? "UTC", last.arrival, last.arrivalTimeZone ?? "UTC"),
    stops: legs.length - 1,
  };
};

/**
 * Every itinerary an airline sells for one direction and date: its nonstops and connections through its
 * hubs (and partner-flown codeshare hops to its gateways): at most 12 per path, none more than 6 hours
 * slower than the path's fastest, and 36 in all, fewest stops and shortest first; listed by departure.
 * Empty when the airline does not fly the route.
 */
export const buildItineraries = (network: Network, req: ItineraryRequest): readonly SimulatedItinerary[] => {
  const seen = new Set<string>();
  const all: (SimulatedItinerary & { readonly key: string })[] = [];
  for (const path of network.paths(req.airlineId, req.origin, req.destination)) {
    const sorted = chains(req.seed, path, req.date)
      .map((chain) => itineraryOf(req.direction, chain.map((f, i) => legOf(path.hops[i]!, f))))
      .sort((a, b) => a.durationMinutes - b.durationMinutes);
    const fastest = sorted[0]?.durationMinutes ?? 0;
    const built = sorted.filter((it) => it.durationMinutes <= fastest + MAX_EXTRA_MINUTES).slice(0, MAX_PER_PATH);
    for (const itinerary of built) {
      const key = flightKey(itinerary);
      if (seen.has(key)) continue;
      seen.add(key);
      all.push({ itinerary, path, key });
    }
  }
  return all
    .sort((a, b) => a.itinerary.stops - b.itinerary.stops || a.itinerary.durationMinutes - b.itinerary.durationMinutes || a.key.localeCompare(b.key))
    .slice(0, MAX_PER_AIRLINE)
    .sort((a, b) => a.itinerary.departure.localeCompare(b.itinerary.departure) || a.key.localeCompare(b.key))
    .map(({ itinerary, path }) => ({ itinerary, path }));
};
