import type { Carrier, Itinerary } from "./itinerary.js";
import type { Money } from "./money.js";

/** Passenger types of a fare: adult, child, infant. */
export type PassengerType = "ADT" | "CHD" | "INF";

/** The price of one passenger type in an offer. */
export interface PassengerFare {
  readonly type: PassengerType;
  readonly count: number;
  /** Price for ALL passengers of this type, without taxes. */
  readonly base: Money;
  /** Taxes and fees for all passengers of this type. */
  readonly taxes: Money;
}

/** A price in miles: points per passenger plus the boarding taxes paid in cash. */
export interface MilesPrice {
  /** Points for one adult. */
  readonly pointsAdult: number;
  /** Points for one child (0 when not sold or no children). */
  readonly pointsChild: number;
  /** Cash taxes for the whole booking. */
  readonly taxes: Money;
  /** The loyalty programme (`LATAM Pass`, `Smiles`, ...). */
  readonly programme: string;
}

/** Who sells an offer: an airline's own programme/store, or an online travel agency. */
export interface Seller {
  readonly kind: "airline" | "ota";
  /** Stable id (`latam`, `ota:voaja`). */
  readonly id: string;
  /** Display name. */
  readonly name: string;
  /** Site host, e.g. `voaja.example`. */
  readonly site: string;
  /** Deep link to book or see the offer. */
  readonly url: string;
}

/**
 * One priced way to fly one direction, as a source found it.
 * Several sellers may sell the same flight: they share {@link Offer.flightKey}.
 */
export interface Offer {
  /** Stable id of this offer; a later batch with the same id refines it (results only grow). */
  readonly id: string;
  /** Identity of the flight regardless of seller (see `flightKey`). */
  readonly flightKey: string;
  /** The source that produced it. */
  readonly sourceId: string;
  /** Companhia id of the validating airline (decisions.md ids), 0 when not one of them. */
  readonly airlineId: number;
  readonly validatingCarrier: Carrier;
  readonly seller: Seller;
  readonly itinerary: Itinerary;
  /** Prices per passenger type; totals below are their sums. */
  readonly fares: readonly PassengerFare[];
  /** What the customer pays through this seller, taxes included, all passengers. */
  readonly total: Money;
  /** Taxes and fees included in `total`. */
  readonly taxes: Money;
  /** The airline's own cash price for the same flight and passengers, taxes included (`priceInCompany`). */
  readonly airlinePrice: Money;
  /** Present when the offer is paid in miles; absent for a cash ("pagante") offer. */
  readonly miles?: MilesPrice | undefined;
  /** Cabin (`Economica`, `Executiva`). */
  readonly cabin: string;
  /** Booking option shown in comparisons (`Tarifa Light`, `Emissão com milhas`...). */
  readonly bookingOption: string;
  /** Checked bags included. */
  readonly checkedBags: number;
  /** Opaque token identifying the fare at its source. */
  readonly fareToken: string;
  /** Opaque token identifying the search at its source. */
  readonly searchToken: string;
}

/** True when an offer is paid in cash (`PontosAdulto = -1` on the wire). */
export const isCashOffer = (offer: Offer): boolean => offer.miles === undefined;

/** Percent saved by `total` against the airline's own cash price (decisions.md); 0 when not cheaper. */
export const savingPercent = (offer: Pick<Offer, "total" | "airlinePrice">): number => {
  const company = offer.airlinePrice.amount;
  if (company <= 0 || offer.total.amount >= company) return 0;
  return ((company - offer.total.amount) / company) * 100;
};
