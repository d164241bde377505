import type { Airport } from "../domain/airport.js";
import type { Carrier } from "../domain/itinerary.js";
import type { Offer } from "../domain/offer.js";
import type { Passengers } from "../query/query.js";

/**
 * A Mode A price group, ready to be written as one `flights[]` element: one validating airline at one price,
 * whose `outbound` offers are the ALTERNATIVE itineraries at that price (one per distinct flight), and whose
 * `inbound` offers are the return alternatives of a round trip.
 */
export interface PriceGroupView {
  /** Stable id of the group (its ordering tie-breaker). */
  readonly id: string;
  readonly airlineId: number;
  readonly validatingCarrier: Carrier;
  /** Outbound alternatives, distinct flights, sorted by departure. Never empty. */
  readonly outbound: readonly Offer[];
  /** Return alternatives of a round trip (sorted by departure); undefined for one-way. */
  readonly inbound?: readonly Offer[] | undefined;
  /**
   * Round trip: one outbound and one return offer that combine at the group's price (its fare group is
   * theirs). Absent: the first outbound (and first return) alternative.
   */
  readonly pricedBy?: readonly [Offer, Offer] | undefined;
  readonly passengers: Passengers;
}

/**
 * A Mode B comparison: one flight, its cheapest offer, that seller's other fares for it, and the other
 * sellers' offers, each sorted by price.
 */
export interface ComparisonView {
  /** The flight identity key. */
  readonly id: string;
  readonly main: Offer;
  /** The main seller's other offers for the flight (fare options: Plus, Max...), cheapest first. */
  readonly fareOptions: readonly Offer[];
  /** Offers of OTHER sellers only (spec 1, 2.6), cheapest first. */
  readonly others: readonly Offer[];
  readonly passengers: Passengers;
}

/** Filter values of one direction, over the whole result set (`WayFilter` / `ReturnFilter`). */
export interface FilterView {
  /** [number of stops, number of itineraries with it], ascending by stops. */
  readonly stops: readonly (readonly [number, number])[];
  /** Airline display names, sorted. */
  readonly airlines: readonly string[];
  /** Airline IATA designators, sorted. */
  readonly airlineIatas: readonly string[];
  /** Distinct local departure date-times, sorted. */
  readonly departures: readonly string[];
  /** Distinct local arrival date-times, sorted. */
  readonly arrivals: readonly string[];
  /** Distinct departure airport codes, sorted. */
  readonly departureAirports: readonly string[];
  /** Distinct arrival airport codes, sorted. */
  readonly arrivalAirports: readonly string[];
  /** Number of itineraries counted. */
  readonly total: number;
}

/**
 * Price groups per filter value over the whole result set: each number is the `totalItems` that filter
 * value alone gives (a one-way group with a nonstop and a one-stop alternative counts under both stops).
 */
export interface GroupCounts {
  /**
   * [stops bucket (2 = two or more), groups], ascending: `Paradas`, every leg. On a round trip, the groups
   * whose legs both have that many stops.
   */
  readonly stops: readonly (readonly [number, number])[];
  /**
   * [stops bucket, groups] of the outbound leg (`ParadasIda`). On a round trip every group counts under
   * exactly one bucket, so they add up to the total; on a one-way search, the same as `stops` (absent: that).
   */
  readonly outboundStops?: readonly (readonly [number, number])[] | undefined;
  /** [stops bucket, groups] of the return leg of a round trip (`ParadasVolta`), adding up to the total; undefined one-way. */
  readonly returnStops?: readonly (readonly [number, number])[] | undefined;
  /** [validating airline IATA, groups], by IATA. */
  readonly airlines: readonly (readonly [string, number])[];
  readonly miles: number;
  readonly cash: number;
}

/** Mode A `meta`, over the whole result set. */
export interface MetaView {
  /** Airports referenced by the results, with whether each is only a connection (`stop`). */
  readonly airports: readonly { readonly airport: Airport; readonly stop: boolean; readonly international: boolean }[];
  readonly totalGroups: number;
  /** Distinct itineraries over all groups. */
  readonly countFlights: number;
  readonly way: FilterView;
  /** Present for a round trip. */
  readonly back?: FilterView | undefined;
  /** Price groups per filter value. */
  readonly counts: GroupCounts;
}

/** Pagination of a Mode A answer (decisions.md names). */
export interface PageView {
  readonly currentPage: number;
  readonly pageSize: number;
  readonly totalPages: number;
  readonly totalItems: number;
}
