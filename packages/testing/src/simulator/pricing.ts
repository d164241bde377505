import { money, type Money, type PassengerFare, type Passengers } from "@voar/core";
import { distanceKm } from "@voar/core/airports";
import type { CarrierProfile } from "./carriers.js";
import type { SimulatedItinerary } from "./itineraries.js";
import { hash53, rngFor } from "./prng.js";
import { weekday } from "./timetable.js";

/** Amounts for one passenger of each type, in integer centavos. */
export interface PerPassenger {
  readonly adult: number;
  readonly child: number;
  readonly infant: number;
}

/** Points asked by a programme for one adult and one child. */
export interface AwardPoints {
  readonly adult: number;
  readonly child: number;
}

/** Demand by day of the week, Sunday first: Fridays and Sundays cost more, midweek and Saturdays less. */
const DAY_FACTOR = [1.12, 1.05, 0.92, 0.92, 1.0, 1.15, 0.9] as const;
/** Great-circle distance from which a route is a long haul, where nonstops sell at a premium. */
const LONG_HAUL_KM = 3000;
/** Infants fly on a lap for a tenth of the adult fare. */
const INFANT_FARE_SHARE = 0.1;

const endpoints = (sim: SimulatedItinerary) => {
  const first = sim.path.hops[0]!;
  const last = sim.path.hops[sim.path.hops.length - 1]!;
  return { origin: first.origin, destination: last.destination };
};

/** True when any hop of the itinerary crosses a border. */
export const isInternational = (sim: SimulatedItinerary): boolean => sim.path.hops.some((h) => h.origin.country !== h.destination.country);

/**
 * The fare classes an airline files on a route, as shares of the route's reference fare. Every flight sells
 * its cheapest seat in one of them, so flights of one airline on one route and day often cost exactly the
 * same, as real answers show (price groups of several itineraries: connections through different hubs and
 * nonstops at different hours at one price).
 */
export const FARE_LADDER = [0.8, 0.95, 1.1, 1.3, 1.6, 2.1] as const;

/** Boarding fee of a domestic departure, per passenger, in centavos: R$ 25-45 by airport. */
const boardingFee = (iata: string): number => 2500 + (hash53(`tax|${iata}`) % 2000);
/** Connection fee of a domestic connection, per passenger, in centavos (charged instead of a second boarding fee). */
const CONNECTION_FEE = 1200;

/**
 * The cheapest cash fare of one adult ("Tarifa Light"), taxes excluded, in centavos, in whole reais less ten
 * centavos (R$ 389,90). The route's reference fare, R$ 250 + 2.2 × km^0.8 of the great circle between origin
 * and destination (about R$ 480 for CNF-SDU, R$ 3,100 for GRU-LIS), times the airline's factor, day-of-week
 * demand and stops (over 3,000 km a nonstop premium of +12 % and -8 % for two stops; shorter, +8 % for one
 * stop and +15 % for two), and the fare class the flight sells in ({@link FARE_LADDER}, 0.8 to 2.1): drawn
 * skewed to the cheap end, less so at the peak hours (06-09 h and 17-20 h), more so at night.
 */
export const cashAdultFare = (seed: number, profile: CarrierProfile, sim: SimulatedItinerary, key: string): number => {
  const { origin, destination } = endpoints(sim);
  const km = distanceKm(origin, destination);
  const rng = rngFor(seed, "fare", profile.airlineId, key);
  const hour = Number(sim.itinerary.departure.slice(11, 13));
  const skew = (hour >= 6 && hour < 9) || (hour >= 17 && hour < 20) ? 1.4 : hour >= 22 || hour < 5 ? 2.8 : 2;
  // Long hauls sell nonstops at a premium over connections through another hub; on shorter routes a
  // connection costs the airline two seats and sells for more, so the nonstop is the fare to beat.
  const stopsFactor =
    km > LONG_HAUL_KM
      ? sim.itinerary.stops === 0 ? 1.12 : sim.itinerary.stops === 1 ? 1 : 0.92
      : sim.itinerary.stops === 0 ? 1 : sim.itinerary.stops === 1 ? 1.08 : 1.15;
  const step = FARE_LADDER[Math.min(FARE_LADDER.length - 1, Math.floor(FARE_LADDER.length * rng.next() ** skew))]!;
  const day = DAY_FACTOR[weekday(sim.itinerary.departure.slice(0, 10))] ?? 1;
  const reais = (250 + 2.2 * km ** 0.8) * profile.priceFactor * day * stopsFactor * step;
  return Math.max(1, Math.round(reais)) * 100 - 10;
};

/**
 * A higher fare family as a share of the Light fare, filed per airline, route and day (so flights that share
 * a Light price share the family's): Plus 1.18-1.35, Max 1.45-1.7, Executiva 2.8-3.6.
 */
export const familyMultiplier = (seed: number, family: "plus" | "max" | "business", routeKey: string): number => {
  const rng = rngFor(seed, "family", family, routeKey);
  return family === "plus" ? rng.between(1.18, 1.35) : family === "max" ? rng.between(1.45, 1.7) : rng.between(2.8, 3.6);
};

/**
 * Boarding taxes per passenger, in centavos: the departure airport's fee (R$ 25-45) for a domestic trip,
 * plus a connection fee of R$ 12 per domestic connection (as Brazil charges a connecting passenger), and
 * R$ 90 + R$ 0.015 per km per international hop. Children pay as adults; infants pay nothing on domestic
 * trips and 30 % abroad.
 */
export const taxesPerPassenger = (sim: SimulatedItinerary): PerPassenger => {
  let adult = 0;
  sim.path.hops.forEach((hop, i) => {
    const domestic = hop.origin.country === hop.destination.country;
    adult += !domestic ? 9000 + Math.round(hop.km * 1.5) : i === 0 ? boardingFee(hop.origin.iata) : CONNECTION_FEE;
  });
  return { adult, child: adult, infant: isInternational(sim) ? Math.round(adult * 0.3) : 0 };
};

/** Cash fares per passenger from the adult fare: children pay the airline's child share, infants 10 %. */
export const cashPerPassenger = (profile: CarrierProfile, adult: number): PerPassenger => ({
  adult,
  child: Math.round(adult * profile.childFareShare),
  infant: Math.round(adult * INFANT_FARE_SHARE),
});

/**
 * The award price of a flight, or undefined when the programme has no award seats on it. Points = cash adult
 * fare in reais × the programme's points-per-real rate for the route and day (drawn in its range), rounded to
 * the programme's step: flights in one fare class ask the same points, as programmes price by fare class.
 */
export const awardPoints = (seed: number, profile: CarrierProfile, cashAdult: number, key: string, routeKey: string): AwardPoints | undefined => {
  const rng = rngFor(seed, "award", profile.airlineId, key);
  if (!rng.chance(profile.miles.awardShare)) return undefined;
  const { rounding, childShare } = profile.miles;
  const roundTo = (points: number) => Math.max(rounding, Math.round(points / rounding) * rounding);
  const rate = rngFor(seed, "award-rate", routeKey).between(profile.miles.pointsPerReal[0], profile.miles.pointsPerReal[1]);
  const adult = roundTo((cashAdult / 100) * rate);
  return { adult, child: roundTo(adult * childShare) };
};

/** The cash value of points, in centavos, at the programme's value per point. */
export const pointsValue = (profile: CarrierProfile, points: number): number => Math.round(points * profile.miles.realPerPoint * 100);

/** The fares of a booking, one entry per passenger type present, amounts multiplied by the counts. */
export const passengerFares = (passengers: Passengers, base: PerPassenger, taxes: PerPassenger): readonly PassengerFare[] => {
  const fares: PassengerFare[] = [];
  const add = (type: PassengerFare["type"], count: number, b: number, t: number) => {
    if (count > 0) fares.push({ type, count, base: money(b * count), taxes: money(t * count) });
  };
  add("ADT", passengers.adults, base.adult, taxes.adult);
  add("CHD", passengers.children, base.child, taxes.child);
  add("INF", passengers.infants, base.infant, taxes.infant);
  return fares;
};

/** Total and taxes of a list of fares. */
export const sumFares = (fares: readonly PassengerFare[]): { readonly total: Money; readonly taxes: Money } => {
  let total = 0;
  let taxes = 0;
  for (const f of fares) {
    total += f.base.amount + f.taxes.amount;
    taxes += f.taxes.amount;
  }
  return { total: money(total), taxes: money(taxes) };
};
