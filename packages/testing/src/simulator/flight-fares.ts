import { flightKey, money, type Money, type PassengerFare, type Passengers } from "@voar/core";
import type { CarrierProfile } from "./carriers.js";
import type { SimulatedItinerary } from "./itineraries.js";
import {
  awardPoints,
  cashAdultFare,
  cashPerPassenger,
  familyMultiplier,
  isInternational,
  passengerFares,
  pointsValue,
  sumFares,
  taxesPerPassenger,
  type AwardPoints,
  type PerPassenger,
} from "./pricing.js";
import { unitHash } from "./prng.js";

/** A way a flight is sold: the airline's fare families and the award (miles) fare. */
export type FareOption = "light" | "plus" | "max" | "business" | "miles";

/** What one option looks like to a customer. */
export interface FareOptionInfo {
  readonly bookingOption: string;
  /** The fare family as airlines name it on the wire (`Tarifas[].Tipo`, `fareFamily`); none for award fares. */
  readonly fareFamily?: string | undefined;
  readonly cabin: string;
  /** Checked bags included per passenger, domestic and international. */
  readonly bags: readonly [domestic: number, international: number];
}

/**
 * Display names, families, cabins and bags of each option: LIGHT without a checked bag, PLUS with one,
 * MAX with two, EXECUTIVA (business) with two; every fare includes one carry-on bag.
 */
export const FARE_OPTIONS: Readonly<Record<FareOption, FareOptionInfo>> = {
  light: { bookingOption: "Tarifa Light", fareFamily: "LIGHT", cabin: "Economica", bags: [0, 0] },
  plus: { bookingOption: "Tarifa Plus", fareFamily: "PLUS", cabin: "Economica", bags: [1, 1] },
  max: { bookingOption: "Tarifa Max", fareFamily: "MAX", cabin: "Economica", bags: [2, 2] },
  business: { bookingOption: "Tarifa Executiva", fareFamily: "EXECUTIVA", cabin: "Executiva", bags: [2, 2] },
  miles: { bookingOption: "Emissão com milhas", cabin: "Economica", bags: [0, 1] },
};

/** Everything an airline asks for one flight, for the passengers of a query. */
export interface FlightFares {
  readonly sim: SimulatedItinerary;
  /** The flight identity (`flightKey`) shared by every seller. */
  readonly key: string;
  /** The validating (marketing) airline. */
  readonly profile: CarrierProfile;
  readonly international: boolean;
  readonly passengers: Passengers;
  readonly taxes: PerPassenger;
  /** Cash fares per passenger of each family the airline sells on this flight. */
  readonly cash: Readonly<Partial<Record<Exclude<FareOption, "miles">, PerPassenger>>> & { readonly light: PerPassenger };
  /** Award points, when the programme sells the flight. */
  readonly award?: AwardPoints | undefined;
}

/**
 * Prices one flight: the Light fare always; Plus on 60 % of flights; Max on 45 %; Executiva on 50 % of
 * international flights flown over 3,000 km by the airline itself; award seats per the programme's share.
 */
export const priceFlight = (seed: number, profile: CarrierProfile, sim: SimulatedItinerary, passengers: Passengers): FlightFares => {
  const key = flightKey(sim.itinerary);
  // Fare families are filed per airline, route and day, like the fare classes they are built on.
  const route = `${profile.airlineId}|${sim.itinerary.origin}|${sim.itinerary.destination}|${sim.itinerary.departure.slice(0, 10)}`;
  const light = cashAdultFare(seed, profile, sim, key);
  const international = isInternational(sim);
  const ownLongHaul = sim.path.hops.some((h) => h.operating === h.marketing && h.km > 3000);
  const cash: { light: PerPassenger; plus?: PerPassenger; max?: PerPassenger; business?: PerPassenger } = { light: cashPerPassenger(profile, light) };
  if (unitHash(seed, "sells-plus", key) < 0.6) {
    cash.plus = cashPerPassenger(profile, Math.round(light * familyMultiplier(seed, "plus", route)));
  }
  if (unitHash(seed, "sells-max", key) < 0.45) {
    cash.max = cashPerPassenger(profile, Math.round(light * familyMultiplier(seed, "max", route)));
  }
  if (international && ownLongHaul && unitHash(seed, "sells-business", key) < 0.5) {
    cash.business = cashPerPassenger(profile, Math.round(light * familyMultiplier(seed, "business", route)));
  }
  return { sim, key, profile, international, passengers, taxes: taxesPerPassenger(sim), cash, award: awardPoints(seed, profile, light, key, route) };
};

/** The fares of a booking under one option; undefined when the option is not sold on the flight. */
export const faresOf = (flight: FlightFares, option: FareOption): readonly PassengerFare[] | undefined => {
  if (option === "miles") {
    const award = flight.award;
    if (!award) return undefined;
    const base: PerPassenger = {
      adult: pointsValue(flight.profile, award.adult),
      child: pointsValue(flight.profile, award.child),
      infant: flight.cash.light.infant,
    };
    return passengerFares(flight.passengers, base, flight.taxes);
  }
  const base = flight.cash[option];
  return base ? passengerFares(flight.passengers, base, flight.taxes) : undefined;
};

/**
 * The airline's own cash price of the flight for the booking, taxes included (`priceInCompany`):
 * the family's own price for a cash option, the Light price for an award fare.
 */
export const airlinePriceOf = (flight: FlightFares, option: FareOption): Money => {
  const fares = faresOf(flight, option === "miles" ? "light" : option) ?? faresOf(flight, "light");
  return fares ? sumFares(fares).total : money(0);
};

/**
 * The airline's own cash fare of the flight for the booking, without taxes (what `ValorAdultoNaCia` is per
 * adult): the family's own fare for a cash option, the Light fare for an award fare; 0 when not sold.
 */
export const airlineFareOf = (flight: FlightFares, option: FareOption): number => {
  const fares = faresOf(flight, option === "miles" ? "light" : option) ?? faresOf(flight, "light");
  return fares ? fares.reduce((sum, f) => sum + f.base.amount, 0) : 0;
};
