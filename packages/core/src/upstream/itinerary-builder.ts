/**
 * Builds domain legs and itineraries from what either wire shape says about them, filling in the airports'
 * time zones and the durations the upstream left at zero.
 */
import type { AirportDirectory } from "../domain/airport.js";
import type { Carrier, Direction, Itinerary, Leg } from "../domain/itinerary.js";
import { durationMinutes, timeZoneOf } from "./durations.js";

/** A leg as read from the wire, before time zones and durations are settled. */
export interface LegFacts {
  readonly carrier: Carrier;
  readonly operatingCarrier: Carrier;
  readonly flightNumber: number;
  /** The flight number as the answer wrote it (`G3-2053`, `G31660`), when it wrote one. */
  readonly designator?: string | undefined;
  readonly origin: string;
  readonly destination: string;
  /** Local date-time, normalized by `localDateTime`. */
  readonly departure: string;
  readonly arrival: string;
  /** The upstream's minutes; 0 or absent means unknown. */
  readonly givenMinutes?: number | null | undefined;
  /** The upstream's duration text (`Tempo`), used only when time zones are unknown. */
  readonly durationText?: string | null | undefined;
  readonly cabin: string;
  readonly aircraft?: string | null | undefined;
}

/** A domain leg from wire facts: time zones from the directory, duration settled (see `durationMinutes`). */
export const buildLeg = (airports: AirportDirectory, f: LegFacts): Leg => {
  const departureTimeZone = timeZoneOf(airports, f.origin);
  const arrivalTimeZone = timeZoneOf(airports, f.destination);
  return {
    carrier: f.carrier,
    operatingCarrier: f.operatingCarrier,
    flightNumber: f.flightNumber,
    ...(f.designator ? { designator: f.designator } : {}),
    origin: f.origin,
    destination: f.destination,
    departure: f.departure,
    arrival: f.arrival,
    ...(departureTimeZone === undefined ? {} : { departureTimeZone }),
    ...(arrivalTimeZone === undefined ? {} : { arrivalTimeZone }),
    durationMinutes: durationMinutes(airports, f, f.givenMinutes, f.durationText),
    cabin: f.cabin,
    ...(f.aircraft ? { aircraft: f.aircraft } : {}),
  };
};

/**
 * An itinerary from its legs (at least one): ends from the first and last legs, stops = legs - 1, and the
 * door-to-door duration from the upstream when positive, else first takeoff to last landing.
 */
export const buildItinerary = (
  airports: AirportDirectory,
  direction: Direction,
  legs: readonly [Leg, ...Leg[]],
  givenMinutes: number | null | undefined,
  durationText?: string | null,
): Itinerary => {
  const first = legs[0];
  const last = legs[legs.length - 1] ?? first;
  const span = { origin: first.origin, destination: last.destination, departure: first.departure, arrival: last.arrival };
  return {
    direction,
    legs,
    ...span,
    durationMinutes: durationMinutes(airports, span, givenMinutes, durationText),
    stops: legs.length - 1,
  };
};
