import { elapsedMinutes, utcMsToLocal, zonedToUtcMs, type Airport } from "@voar/core";
import { distanceKm } from "@voar/core/airports";
import type { CarrierProfile } from "./carriers.js";
import { rngFor, type Rng } from "./prng.js";

/** One departure of a nonstop route on one day, in the operating airline's timetable. */
export interface ScheduledFlight {
  /** The operating airline's flight number. */
  readonly number: number;
  /** Local departure at the origin, ISO 8601 without zone, seconds included. */
  readonly departure: string;
  /** Local arrival at the destination, ISO 8601 without zone. */
  readonly arrival: string;
  readonly departureUtcMs: number;
  readonly arrivalUtcMs: number;
  /** Elapsed minutes between the two local times, time zones accounted for. */
  readonly durationMinutes: number;
  /** IATA aircraft type code. */
  readonly aircraft: string;
}

const REGIONAL_AIRCRAFT: ReadonlySet<string> = new Set(["AT7", "E90"]);

/**
 * Block time of a nonstop in minutes: 40 minutes of taxi, climb and descent plus cruise at a speed that
 * grows from 720 km/h on short hops to 882 km/h from 3,000 km, rounded to 5 minutes.
 */
export const blockMinutes = (km: number): number => {
  const kmPerMinute = 12 + 2.7 * Math.min(1, km / 3000);
  return Math.round((40 + km / kmPerMinute) / 5) * 5;
};

/** The ISO date `days` after a `YYYY-MM-DD` date. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Day of the week of a `YYYY-MM-DD` date, 0 = Sunday. */
export const weekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();

const dailyFrequencies = (rng: Rng, p: CarrierProfile, o: Airport, d: Airport, km: number): number => {
  if (o.country !== d.country) {
    if (km >= 4000) return rng.chance(0.35) ? 2 : 1;
    // A connecting hub (Panama, Miami) banks its regional departures several times a day.
    return p.hubs.includes(o.iata) || p.hubs.includes(d.iata) ? rng.int(2, 4) : rng.int(1, 3);
  }
  const oHub = p.hubs.includes(o.iata);
  const dHub = p.hubs.includes(d.iata);
  const big = (a: Airport) => p.hubs.includes(a.iata) || p.majors.includes(a.iata);
  const n = oHub && dHub ? rng.int(5, 10) : big(o) && big(d) ? (oHub || dHub ? rng.int(3, 7) : rng.int(2, 5)) : oHub || dHub ? rng.int(1, 2) : rng.int(1, 3);
  return km > 2500 ? Math.min(n, rng.int(1, 3)) : n;
};

/**
 * Minutes after local midnight when departures may be scheduled: 05:30-23:00 for short and medium hauls;
 * long hauls leave the Americas in the evening to fly overnight (17:00-23:45) and leave elsewhere 09:30-23:30.
 */
const departureWindow = (origin: Airport, km: number): readonly [number, number] => {
  if (km <= 4500) return [5 * 60 + 30, 23 * 60];
  return origin.longitude < -30 ? [17 * 60, 23 * 60 + 45] : [9 * 60 + 30, 23 * 60 + 30];
};

/** Days of the week a route operates: domestic routes every day, international ones four to seven days a week. */
const operatesOn = (rng: Rng, international: boolean, day: number): boolean => {
  if (!international) return true;
  const days = rng.int(4, 7);
  const offset = rng.int(0, 6);
  return (day - offset + 7) % 7 < days;
};

/** Local and UTC times of a flight leaving at `minute` after local midnight, and whether they read back unambiguously. */
const flightTimes = (date: string, minute: number, minutes: number, origin: Airport, destination: Airport) => {
  const local = `${date}T${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00`;
  const departureUtcMs = zonedToUtcMs(local, origin.timeZone);
  // Re-read the instant so a time inside a DST gap becomes the local time that exists.
  const departure = utcMsToLocal(departureUtcMs, origin.timeZone);
  const arrivalUtcMs = departureUtcMs + minutes * 60_000;
  const arrival = utcMsToLocal(arrivalUtcMs, destination.timeZone);
  const durationMinutes = elapsedMinutes(departure, origin.timeZone, arrival, destination.timeZone);
  return {
    flight: { departure, arrival, departureUtcMs, arrivalUtcMs, durationMinutes },
    unambiguous: zonedToUtcMs(departure, origin.timeZone) === departureUtcMs && zonedToUtcMs(arrival, destination.timeZone) === arrivalUtcMs,
  };
};

/**
 * The departures of the nonstop route `origin`-`destination` flown by `operating` on a local date.
 * The timetable repeats weekly (it is keyed by seed, airline and route, not by date), like a real one;
 * departures spread over the day (see `departureWindow`); arrivals are computed in the destination's zone.
 */
export const timetable = (seed: number, operating: CarrierProfile, origin: Airport, destination: Airport, date: string): readonly ScheduledFlight[] => {
  const rng = rngFor(seed, "timetable", operating.airlineId, origin.iata, destination.iata);
  const km = distanceKm(origin, destination);
  const international = origin.country !== destination.country;
  const frequencies = dailyFrequencies(rng, operating, origin, destination, km);
  if (!operatesOn(rng, international, weekday(date))) return [];
  const [start, end] = departureWindow(origin, km);
  const range = international ? operating.numbers.international : operating.numbers.domestic;
  const block = blockMinutes(km);
  const fleet = km > 4000 ? operating.aircraft.long : operating.aircraft.short;
  const suitable = fleet.filter((a) => km < 700 || !REGIONAL_AIRCRAFT.has(a));
  const flights: ScheduledFlight[] = [];
  for (let i = 0; i < frequencies; i++) {
    const minute = Math.round((start + ((i + rng.between(0.15, 0.85)) * (end - start)) / frequencies) / 5) * 5;
    const minutes = block + rng.int(-1, 2) * 5;
    let times = flightTimes(date, minute, minutes, origin, destination);
    // A local time inside the hour repeated when DST ends reads back as another instant: fly earlier.
    if (!times.unambiguous) times = flightTimes(date, minute - 70, minutes, origin, destination);
    flights.push({
      number: rng.int(range[0], range[1]),
      ...times.flight,
      aircraft: rng.pick(suitable.length > 0 ? (suitable as [string, ...string[]]) : fleet),
    });
  }
  return flights.sort((a, b) => a.departureUtcMs - b.departureUtcMs);
};
