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
 * The cheapest cash fare of one adult ("Tarifa Light"), taxes excluded, in centavos.
 * Base R$ 250 + 2.2 × km^0.8 of the great circle between origin and destination (about R$ 480 for
 * CNF-SDU, R$ 3,100 for GRU-LIS), times the airline's factor, day-of-week demand, peak hours (+10 %
 * at 06-09 h and 17-20 h, -15 % at night), stops (over 3,000 km a nonstop premium of +12 % and -8 % for
 * two stops; shorter, +8 % for one stop and +15 % for two), and a fare bucket between 0.8 and 2.2 skewed
 * to the cheap end.
 */
export const cashAdultFare = (seed: number, profile: CarrierProfile, sim: SimulatedItinerary, key: string): number => {
  const { origin, destination } = endpoints(sim);
  const km = distanceKm(origin, destination);
  const rng = rngFor(seed, "fare", profile.airlineId, key);
  const hour = Number(sim.itinerary.departure.slice(11, 13));
  const hourFactor = (hour >= 6 && hour < 9) || (hour >= 17 && hour < 20) ? 1.1 : hour >= 22 || hour < 5 ? 0.85 : 1;
  // Long hauls sell nonstops at a premium over connections through another hub; on shorter routes a
  // connection costs the airline two seats and sells for more, so the nonstop is the fare to beat.
  const stopsFactor =
    km > LONG_HAUL_KM
      ? sim.itinerary.stops === 0 ? 1.12 : sim.itinerary.stops === 1 ? 1 : 0.92
      : sim.itinerary.stops === 0 ? 1 : sim.itinerary.stops === 1 ? 1.08 : 1.15;
  const bucket = 0.8 + 1.4 * rng.next() ** 2;
  const day = DAY_FACTOR[weekday(sim.itinerary.departure.slice(0, 10))] ?? 1;
  const reais = (250 + 2.2 * km ** 0.8) * profile.priceFactor * day * hourFactor * stopsFactor * bucket;
  return Math.round(reais * 100);
};

/** A higher fare family as a share of the Light fare, drawn per flight: Plus 1.18-1.35, Max 1.45-1.7, Executiva 2.8-3.6. */
export const familyMultiplier = (seed: number, family: "plus" | "max" | "business", key: string): number => {
  const rng = rngFor(seed, "family", family, key);
  return family === "plus" ? rng.between(1.18, 1.35) : family === "max" ? rng.between(1.45, 1.7) : rng.between(2.8, 3.6);
};

/**
 * Boarding taxes per passenger, in centavos: R$ 25-45 per domestic departure (by airport),
 * R$ 90 + R$ 0.015 per km per international hop. Children pay as adults; infants pay nothing on
 * domestic trips and 30 % abroad.
 */
export const taxesPerPassenger = (sim: SimulatedItinerary): PerPassenger => {
  let adult = 0;
  for (const hop of sim.path.hops) {
    adult += hop.origin.country === hop.destination.country ? 2500 + (hash53(`tax|${hop.origin.iata}`) % 2000) : 9000 + Math.round(hop.km * 1.5);
  }
  return { adult, child: adult, infant: isInternational(sim) ? Math.round(adult * 0.3) : 0 };
};

/** Cash fares per passenger from the adult fare: children pay the airline's child share, infants 10 %. */
export const cashPerPassenger = (profile: CarrierProfile, adult: number): PerPassenger => ({
  adult,
  child: Math.round(adult * profile.childFareShare),
  infant: Math.round(adult * INFANT_FARE_SHARE),
});

/**
 * The award price of a flight, or undefined when the programme has no award seats on it.
 * Points = cash adult fare in reais × a points-per-real rate drawn in the programme's range, rounded.
 */
export const awardPoints = (seed: number, profile: CarrierProfile, cashAdult: number, key: string): AwardPoints | undefined => {
  const rng = rngFor(seed, "award", profile.airlineId, key);
  if (!rng.chance(profile.miles.awardShare)) return undefined;
  const { rounding, childShare } = profile.miles;
  const roundTo = (points: number) => Math.max(rounding, Math.round(points / rounding) * rounding);
  const adult = roundTo((cashAdult / 100) * rng.between(profile.miles.pointsPerReal[0], profile.miles.pointsPerReal[1]));
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
