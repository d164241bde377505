import { airlineById, elapsedMinutes, flightKey, zonedToUtcMs, type Carrier, type Direction, type Itinerary, type Leg } from "@voar/core";
import { distanceKm } from "@voar/core/airports";
import type { CarrierProfile } from "./carriers.js";
import type { Network, RouteHop, RoutePath } from "./network.js";
import { hash53 } from "./prng.js";
import { addDays, blockMinutes, timetable, type ScheduledFlight } from "./timetable.js";

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
/**
 * The longest wait between two flights of one day, in minutes: 6 hours between domestic flights, 10 when
 * either is international (long hauls bank once or twice a day). Up to two such connections are offered.
 */
export const maxLayoverMinutes = (a: Pick<RouteHop, "origin" | "destination">, b: Pick<RouteHop, "origin" | "destination">): number =>
  a.origin.country === a.destination.country && b.origin.country === b.destination.country ? 6 * 60 : 10 * 60;
/**
 * Thin routes fly once a day: with nothing within {@link maxLayoverMinutes}, a connection takes the next
 * departure (often a night at the hub and the first flight of the morning) if it leaves within this long.
 */
export const MAX_LONG_LAYOVER_MINUTES = 16 * 60;
const MAX_PER_PATH = 12;
/** Itineraries of a path taking this much longer than its fastest one are not worth selling. */
const MAX_EXTRA_MINUTES = 6 * 60;
/** Keeps a typical domestic route at 10-40 itineraries per airline. */
const MAX_PER_AIRLINE = 36;

/** Minimum connection time in minutes: 45 between domestic flights, 75 when either is international. */
export const minLayoverMinutes = (a: Pick<RouteHop, "origin" | "destination">, b: Pick<RouteHop, "origin" | "destination">): number =>
  a.origin.country === a.destination.country && b.origin.country === b.destination.country ? 45 : 75;

/**
 * The longest itinerary sold on a route some airline flies nonstop, from the nonstop's block time: twice
 * it, or it plus three and a half hours, whichever is more. A 1-hour route (CNF-SDU, 65-70 minutes) sells
 * connections of up to 4h40, never 11 hours; a 9-hour one (GRU-LIS) up to 19 hours.
 */
export const maxItineraryMinutes = (nonstopMinutes: number): number => Math.max(2 * nonstopMinutes, nonstopMinutes + 210);

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
    const min = minLayoverMinutes(previous, hop) * MINUTE;
    const next: ScheduledFlight[][] = [];
    for (const chain of partial) {
      const landed = chain[chain.length - 1]!;
      const day = landed.arrival.slice(0, 10);
      const options = [...departuresOn(day), ...departuresOn(addDays(day, 1))].filter((f) => f.departureUtcMs >= landed.arrivalUtcMs + min);
      const short = options.filter((f) => f.departureUtcMs <= landed.arrivalUtcMs + maxLayoverMinutes(previous, hop) * MINUTE);
      // With nothing soon, the next departure: often a night at the hub and the first flight of the morning.
      const later = options.slice(0, 1).filter((f) => f.departureUtcMs <= landed.arrivalUtcMs + MAX_LONG_LAYOVER_MINUTES * MINUTE);
      for (const f of short.length > 0 ? short.slice(0, 2) : later) next.push([...chain, f]);
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

const utcOf = (local: string, zone: string | undefined): number => zonedToUtcMs(local, zone ?? "UTC");
const departureUtc = (it: Itinerary): number => utcOf(it.departure, it.legs[0]?.departureTimeZone);
const arrivalUtc = (it: Itinerary): number => utcOf(it.arrival, it.legs[it.legs.length - 1]?.arrivalTimeZone);

/** Whether a nonstop leaves no earlier and lands no later than a connection: nobody would buy the connection. */
export const dominates = (nonstop: Itinerary, connection: Itinerary): boolean =>
  departureUtc(nonstop) >= departureUtc(connection) && arrivalUtc(nonstop) <= arrivalUtc(connection);

/**
 * Every itinerary an airline sells for one direction and date: its nonstops and connections through its
 * hubs (and partner-flown codeshare hops to its gateways): at most 12 per path, none more than 6 hours
 * slower than the path's fastest, and 36 in all, fewest stops and shortest first; listed by departure.
 * Where any airline flies the route nonstop, connections compete with it as a search engine shows them:
 * none longer than {@link maxItineraryMinutes} of the nonstop's block time, and none that one of the
 * airline's own nonstops dominates (leaving later and landing earlier). Empty when the airline does not fly the route.
 */
export const buildItineraries = (network: Network, req: ItineraryRequest): readonly SimulatedItinerary[] => {
  const seen = new Set<string>();
  const all: (SimulatedItinerary & { readonly key: string })[] = [];
  const paths = network.paths(req.airlineId, req.origin, req.destination);
  const first = paths[0]?.hops[0];
  const last = paths[0]?.hops.at(-1);
  const limit =
    first && last && network.hasNonstop(req.origin, req.destination)
      ? maxItineraryMinutes(blockMinutes(distanceKm(first.origin, last.destination)))
      : Number.POSITIVE_INFINITY;
  const nonstops: Itinerary[] = [];
  for (const path of paths) {
    const sorted = chains(req.seed, path, req.date)
      .map((chain) => itineraryOf(req.direction, chain.map((f, i) => legOf(path.hops[i]!, f))))
      .filter((it) => it.stops === 0 || (it.durationMinutes <= limit && !nonstops.some((n) => dominates(n, it))))
      .sort((a, b) => a.durationMinutes - b.durationMinutes);
    if (path.hops.length === 1) nonstops.push(...sorted);
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
