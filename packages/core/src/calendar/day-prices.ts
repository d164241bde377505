import type { AirportDirectory } from "../domain/airport.js";
import type { Carrier } from "../domain/itinerary.js";
import { addMoney, type Money } from "../domain/money.js";
import type { Offer } from "../domain/offer.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import type { Passengers } from "../query/query.js";
import { combinationsOf, roundTripPairs } from "../views/round-trip.js";

/** The cheapest cash fare of a day: what the passengers asked pay, taxes included, and who sells it. */
export interface DayCashPrice {
  /** Total for every passenger asked, taxes and fees included. */
  readonly total: Money;
  /** Companhia id of the validating airline (0 when not one of decisions.md's). */
  readonly airlineId: number;
  readonly carrier: Carrier;
}

/** The cheapest award fare of a day: the points of every passenger asked, and the taxes paid beside them. */
export interface DayMilesPrice {
  /** Points for every passenger asked (adults and children; both ways on a round trip). */
  readonly points: number;
  /** Taxes paid in cash beside the points, whole booking. */
  readonly taxes: Money;
  /** Companhia id of the airline (or programme, 34 Livelo) whose award it is. */
  readonly airlineId: number;
  readonly carrier: Carrier;
  /** The loyalty programme the points are of (`Smiles`, `LATAM Pass`, `Livelo`...). */
  readonly programme: string;
}

/** The cheapest cash fare and the cheapest award fare of a day's search, each absent when it has none. */
export interface DayPrices {
  readonly cash?: DayCashPrice | undefined;
  readonly miles?: DayMilesPrice | undefined;
  /**
   * Until when the day's prices hold (ms since the epoch): the earliest `validUntil` among its search's offers
   * (the day's search, and its `TokenBusca`, expire with it). Absent when no offer says.
   */
  readonly validUntil?: number | undefined;
}

const earliestValidUntil = (s: SearchSnapshot): number | undefined => {
  let earliest: number | undefined;
  for (const o of s.offers.values()) if (o.validUntil !== undefined && (earliest === undefined || o.validUntil < earliest)) earliest = o.validUntil;
  return earliest;
};

const pointsOf = (o: Offer, p: Passengers): number => (o.miles ? o.miles.pointsAdult * p.adults + o.miles.pointsChild * p.children : 0);

/** A candidate's cost, compared member by member: the first that differs decides; the id breaks ties, so the same offers always give the same answer. */
interface Cost {
  readonly first: number;
  readonly second: number;
  readonly id: string;
}

const cheaper = (a: Cost, b: Cost | undefined): boolean =>
  !b || a.first < b.first || (a.first === b.first && (a.second < b.second || (a.second === b.second && a.id < b.id)));

const oneWay = (s: SearchSnapshot): DayPrices => {
  const p = s.query.passengers;
  let cash: (Cost & { readonly offer: Offer }) | undefined;
  let miles: (Cost & { readonly offer: Offer }) | undefined;
  for (const o of s.offers.values()) {
    if (o.miles === undefined) {
      if (s.hiddenCashAirlines.has(o.airlineId)) continue;
      const cost = { first: o.total.amount, second: 0, id: o.id, offer: o };
      if (cheaper(cost, cash)) cash = cost;
    } else {
      // Fewest points first; among equal points, the least taxes.
      const cost = { first: pointsOf(o, p), second: o.miles.taxes.amount, id: o.id, offer: o };
      if (cheaper(cost, miles)) miles = cost;
    }
  }
  return {
    ...(cash ? { cash: { total: cash.offer.total, airlineId: cash.offer.airlineId, carrier: cash.offer.validatingCarrier } } : {}),
    ...(miles && miles.offer.miles
      ? {
          miles: {
            points: pointsOf(miles.offer, p),
            taxes: miles.offer.miles.taxes,
            airlineId: miles.offer.airlineId,
            carrier: miles.offer.validatingCarrier,
            programme: miles.offer.miles.programme,
          },
        }
      : {}),
  };
};

const roundTrip = (s: SearchSnapshot, airports: AirportDirectory): DayPrices => {
  const p = s.query.passengers;
  let cash: DayCashPrice | undefined;
  let miles: (DayMilesPrice & Cost) | undefined;
  // Pairs come cheapest first: the first cash pair is the cheapest cash round trip the results show.
  for (const pair of roundTripPairs(s, airports)) {
    if (pair.cash) {
      if (!cash && !s.hiddenCashAirlines.has(pair.airlineId)) cash = { total: { amount: pair.price, currency: pair.outbound[0]?.total.currency ?? "BRL" }, airlineId: pair.airlineId, carrier: pair.carrier };
      continue;
    }
    for (const [o, r] of combinationsOf(pair)) {
      if (!o.miles || !r.miles) continue;
      const points = pointsOf(o, p) + pointsOf(r, p);
      const taxes = addMoney(o.miles.taxes, r.miles.taxes);
      const cost = { first: points, second: taxes.amount, id: `${o.id}|${r.id}` };
      if (cheaper(cost, miles)) miles = { ...cost, points, taxes, airlineId: pair.airlineId, carrier: pair.carrier, programme: o.miles.programme };
    }
  }
  return {
    ...(cash ? { cash } : {}),
    ...(miles ? { miles: { points: miles.points, taxes: miles.taxes, airlineId: miles.airlineId, carrier: miles.carrier, programme: miles.programme } } : {}),
  };
};

const cache = new WeakMap<SearchSnapshot, DayPrices>();

/**
 * The cheapest fares of a day's search as its results show them: on a one-way search, the cheapest cash
 * offer (its total for every passenger asked, taxes included) and the award offer of fewest points for
 * every passenger asked (the least taxes among equals); on a round trip, the cheapest outbound and return
 * that pair up in its price groups (Mode A's pairing rules), likewise. An airline whose Pagante switch is
 * off has no cash price here, as it has none in the search. With a price, `validUntil` says until when it
 * holds (the earliest of the search's offers). Once per snapshot.
 *
 * @example
 * const { cash, miles } = dayPrices(snapshot, airports); // cash?.total.amount in centavos, miles?.points
 */
export const dayPrices = (s: SearchSnapshot, airports: AirportDirectory): DayPrices => {
  let prices = cache.get(s);
  if (!prices) {
    const cheapest = s.query.returnDate === undefined ? oneWay(s) : roundTrip(s, airports);
    const validUntil = cheapest.cash || cheapest.miles ? earliestValidUntil(s) : undefined;
    prices = validUntil === undefined ? cheapest : { ...cheapest, validUntil };
    cache.set(s, prices);
  }
  return prices;
};
