import type { Direction } from "../domain/itinerary.js";
import type { Offer } from "../domain/offer.js";

/**
 * How a client wants a result shown: which groups (filters) in which order (sort). Applied to the WHOLE
 * result set on the server, so that pages, `pagination` and `meta` agree whatever the client shows.
 */

/** Sort orders: cheapest, shortest, earliest departure, earliest arrival, or price and duration blended. */
export type SortKey = "price" | "duration" | "departure" | "arrival" | "best";

/** The sort keys, in the order the API documents them. */
export const SORT_KEYS: readonly SortKey[] = ["price", "duration", "departure", "arrival", "best"];

/** A window of local time of day, in minutes since midnight, both ends included (`from` may exceed `to`: over midnight). */
export interface TimeWindow {
  readonly from: number;
  readonly to: number;
}

/** Time windows of one direction, on the local departure and arrival time of its itineraries. */
export interface DirectionTimes {
  readonly departure?: TimeWindow | undefined;
  readonly arrival?: TimeWindow | undefined;
}

/**
 * Filters of a result. Every member is optional; absent means "any". A price group (or a round-trip pair)
 * passes when its group-level values match and, in each direction, at least one of its alternative
 * itineraries matches the itinerary-level ones (stops, times, duration); only matching alternatives are shown.
 */
export interface ResultFilters {
  /** Numbers of stops accepted on every leg (both directions of a round trip); 2 means "2 or more". */
  readonly stops?: readonly number[] | undefined;
  /** Numbers of stops accepted on the outbound leg only (with `stops`: both must accept). */
  readonly outboundStops?: readonly number[] | undefined;
  /** Numbers of stops accepted on the return leg of a round trip only (with `stops`: both must accept). */
  readonly returnStops?: readonly number[] | undefined;
  /** Validating airlines accepted (IATA). */
  readonly airlines?: readonly string[] | undefined;
  /** Miles only or cash only. */
  readonly payment?: "miles" | "cash" | undefined;
  readonly outbound?: DirectionTimes | undefined;
  readonly inbound?: DirectionTimes | undefined;
  /** Longest door-to-door duration accepted for each direction, minutes. */
  readonly maxDurationMinutes?: number | undefined;
  /** Price range of the group (a round trip: the sum), centavos, both ends included. */
  readonly priceMin?: number | undefined;
  readonly priceMax?: number | undefined;
}

/** Filters and sort of one answer. */
export interface ResultView {
  readonly filters: ResultFilters;
  readonly sort: SortKey;
}

/**
 * No filter, cheapest first: the order decisions.md mandates (price with taxes, ties by a stable id), so
 * pages never reshuffle while results arrive. It is not blended with duration on purpose: a 1-hour nonstop
 * reaches page 1 by its price, as it does in real results, where on short routes a connection costs at
 * least as much as the nonstop; a client that wants time weighed in asks for `best`.
 */
export const DEFAULT_VIEW: ResultView = { filters: {}, sort: "price" };

/**
 * Centavos one minute of travel is worth in the "best" order (R$ 1 per minute, R$ 60 per hour): a fare
 * R$ 60 dearer but an hour shorter ranks the same. A constant, so the order of a group never moves
 * while results arrive.
 */
export const BEST_CENTAVOS_PER_MINUTE = 100;

/** Stops bucket: 0, 1, or 2 for "2 or more". */
export const stopsBucket = (stops: number): number => Math.min(stops, 2);

/** Whether any filter is set. */
export const hasFilters = (f: ResultFilters): boolean =>
  f.stops !== undefined ||
  f.outboundStops !== undefined ||
  f.returnStops !== undefined ||
  f.airlines !== undefined ||
  f.payment !== undefined ||
  hasTimes(f.outbound) ||
  hasTimes(f.inbound) ||
  f.maxDurationMinutes !== undefined ||
  f.priceMin !== undefined ||
  f.priceMax !== undefined;

const hasTimes = (t: DirectionTimes | undefined): boolean => t !== undefined && (t.departure !== undefined || t.arrival !== undefined);

/** Whether the filters need each itinerary looked at (beyond what a group summarizes). */
export const needsItineraries = (f: ResultFilters): boolean =>
  hasTimes(f.outbound) || hasTimes(f.inbound) || f.maxDurationMinutes !== undefined;

/** Whether only the filters a group summarizes exactly (stops, airline, payment) are set. */
export const onlyCategorical = (f: ResultFilters): boolean =>
  !needsItineraries(f) && f.priceMin === undefined && f.priceMax === undefined;

const win = (w: TimeWindow | undefined, dateTime: string): boolean => {
  if (!w) return true;
  const minutes = Number(dateTime.slice(11, 13)) * 60 + Number(dateTime.slice(14, 16));
  return w.from <= w.to ? minutes >= w.from && minutes <= w.to : minutes >= w.from || minutes <= w.to;
};

/**
 * The stops buckets a direction's itineraries may have: those of `stops` (every leg) that its own list
 * (`outboundStops`, `returnStops`) accepts too; undefined when neither is set.
 */
export const acceptedStops = (f: ResultFilters, direction: Direction): readonly number[] | undefined => {
  const own = direction === "outbound" ? f.outboundStops : f.returnStops;
  if (own === undefined) return f.stops;
  return f.stops === undefined ? own : own.filter((b) => f.stops!.includes(b));
};

/** Whether one itinerary (offer) of a direction passes the itinerary-level filters. */
export const itineraryMatches = (f: ResultFilters, offer: Offer): boolean => {
  const it = offer.itinerary;
  const stops = acceptedStops(f, it.direction);
  if (stops !== undefined && !stops.includes(stopsBucket(it.stops))) return false;
  if (f.maxDurationMinutes !== undefined && it.durationMinutes > f.maxDurationMinutes) return false;
  const times = it.direction === "outbound" ? f.outbound : f.inbound;
  return win(times?.departure, it.departure) && win(times?.arrival, it.arrival);
};

/** Whether an outbound stops bitmask (bit b: an itinerary with stops bucket b) has a bucket the filter accepts. */
export const stopsMaskMatches = (f: ResultFilters, mask: number): boolean => {
  const stops = acceptedStops(f, "outbound");
  return stops === undefined || stops.some((b) => (mask & (1 << b)) !== 0);
};

/** Whether a group's own values (airline, payment) pass. */
export const groupValuesMatch = (f: ResultFilters, iata: string, cash: boolean): boolean =>
  (f.airlines === undefined || f.airlines.includes(iata)) && (f.payment === undefined || (f.payment === "cash") === cash);

/** Whether a price (centavos) is in the range. */
export const priceMatches = (f: ResultFilters, price: number): boolean =>
  (f.priceMin === undefined || price >= f.priceMin) && (f.priceMax === undefined || price <= f.priceMax);

const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const timesKey = (t: DirectionTimes | undefined): string =>
  t ? `${t.departure ? `${hhmm(t.departure.from)}-${hhmm(t.departure.to)}` : ""}/${t.arrival ? `${hhmm(t.arrival.from)}-${hhmm(t.arrival.to)}` : ""}` : "/";

/**
 * A canonical text of a view: two views that select and order the same groups have the same key (lists
 * sorted and deduplicated). For caches of written answers.
 */
export const viewKey = (v: ResultView): string => {
  const f = v.filters;
  const list = (xs: readonly (string | number)[] | undefined) => (xs === undefined ? "*" : [...new Set(xs)].sort().join(","));
  return [
    v.sort,
    `s${list(f.stops)}`,
    `so${list(f.outboundStops)}`,
    `sr${list(f.returnStops)}`,
    `a${list(f.airlines)}`,
    `p${f.payment ?? "*"}`,
    `o${timesKey(f.outbound)}`,
    `i${timesKey(f.inbound)}`,
    `d${f.maxDurationMinutes ?? "*"}`,
    `r${f.priceMin ?? "*"}-${f.priceMax ?? "*"}`,
  ].join("|");
};
