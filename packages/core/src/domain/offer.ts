import type { Carrier, Itinerary } from "./itinerary.js";
import type { Money } from "./money.js";

/** Passenger types of a fare: adult, child, infant. */
export type PassengerType = "ADT" | "CHD" | "INF";

/** The price of one passenger type in an offer. */
export interface PassengerFare {
  readonly type: PassengerType;
  readonly count: number;
  /** Price for ALL passengers of this type, without taxes (before any seller's discount). */
  readonly base: Money;
  /** Taxes and fees for all passengers of this type: boarding fees plus `serviceFee`. */
  readonly taxes: Money;
  /**
   * This passenger type's share of the seller's fee within `taxes`, all passengers of this type: the
   * negative of its share of {@link Offer.discount}'s amount (negative for a discount, kept as it is, never
   * clamped). Absent: none. The offer's discount (percentage and amount) is {@link Offer.discount}.
   */
  readonly serviceFee?: Money | undefined;
  /**
   * What the source lists for ONE passenger of this type in the offer's fare family (`Tarifas[0]`: `ValorAdulto`
   * or `ValorCrianca`, and `TaxaEmbarque` for adults), kept as listed because sources do not list there what the
   * offer charges: LATAM lists a boarding fee of 0, and its award offers the family's own fare. Written back as
   * listed. Absent when the source lists no fare family (then the writer derives it from the fare).
   */
  readonly listed?: ListedFare | undefined;
}

/** One passenger's fare family as a source lists it (see {@link PassengerFare.listed}). */
export interface ListedFare {
  /** The family's fare for one passenger of the type, without taxes. */
  readonly fare: Money;
  /** The boarding fee listed beside it; absent when the source lists none for the type. */
  readonly boarding?: Money | undefined;
}

/**
 * A seller's discount on an offer's fare. Upstreams send it as `Taxas.Servico`, a PERCENTAGE of the fare
 * without taxes (`ValorTotal`), negative for a discount: `ValorTotalTaxas = Taxas.Embarque + ValorTotal x
 * Taxas.Servico / 100` on cash fares (docs/wire-semantics.md). Positive here for a discount; negative for a
 * seller's surcharge (a positive `Taxas.Servico`). Award fares carry the percentage too (-10, +25) but are not
 * charged it: there `amount` is 0, and the percentage is kept only to be written back as the source wrote it.
 */
export interface SellerDiscount {
  /** Percent of the fare without taxes taken off (5 for `Taxas.Servico: -5`). */
  readonly percent: number;
  /** What it takes off the booking, all passengers (subtracted within the offer's `taxes`). */
  readonly amount: Money;
}

/**
 * The bags a fare includes, per passenger. `checked` is always known (0 when the source says nothing);
 * `cabin` only when the source names a carry-on allowance. The texts are the source's own words
 * (`Até 2 bagagens para despachar`, `1 bagagem de mão`), empty when it gives none.
 */
export interface Baggage {
  /** Checked bags included, per passenger. */
  readonly checked: number;
  /** How the source words the checked allowance; empty when it gives no words. */
  readonly checkedText: string;
  /** Carry-on pieces included, per passenger; undefined when the source does not say. */
  readonly cabin?: number | undefined;
  /** How the source words the carry-on allowance (size, weight); empty when it gives no words. */
  readonly cabinText: string;
  /**
   * The source's own `QntdBagagem` and `QtdBagagemInclusa`, written back as they came: real answers write 0 there
   * beside a listed checked bag, so `checked` follows the listed bags instead. Absent when the source does not
   * write them (the writer then writes `checked`).
   */
  readonly bagCount?: number | undefined;
  readonly includedCount?: number | undefined;
}

/** Baggage with `checked` bags and nothing else known. */
export const checkedOnly = (checked: number): Baggage => ({ checked, checkedText: "", cabinText: "" });

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
  /**
   * What the seller's answers write as a child's points on a cash fare (`PontosCrianca` beside `PontosAdulto:
   * -1`) when it is not -1: LATAM's cash fares say 0 in real answers, GOL's -1. Written back as the source wrote
   * it; absent: -1.
   */
  readonly cashChildPoints?: number | undefined;
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
  /**
   * Taxes and fees included in `total`: the boarding fees less the seller's discount (so it may be
   * negative). `total - taxes` is the fare before the discount (`ValorTotal`).
   */
  readonly taxes: Money;
  /**
   * The seller's discount on the fare, when one applies to this offer (the upstream applies its percentage
   * to cash fares only). Absent: none.
   */
  readonly discount?: SellerDiscount | undefined;
  /**
   * What the booking costs at the airline's own cash fare, with this offer's taxes and fees
   * (`priceInCompany`): the saving (`savingPercent`) compares fares, like for like, so an airline's own cash
   * fare equals `total` and shows no saving, its seller's discount included (that is `discount`, not a
   * saving on the airline). 0 when the source gives no airline price (Livelo's award seats): never invented.
   */
  readonly airlinePrice: Money;
  /** Present when the offer is paid in miles; absent for a cash ("pagante") offer. */
  readonly miles?: MilesPrice | undefined;
  /** Cabin (`Economica`, `Executiva`). */
  readonly cabin: string;
  /** Booking option shown in comparisons (`Tarifa Light`, `Emissão com milhas`...). */
  readonly bookingOption: string;
  /**
   * The airline's fare family as the source names it (`LIGHT`, `STANDARD`, `FULL`, `PLUS`, `MAX`,
   * `PREMIUM ECONOMY`...): what tells apart offers of the same flight at different prices. Absent when the
   * source names none (award fares usually).
   */
  readonly fareFamily?: string | undefined;
  /** The bags the fare includes. */
  readonly baggage: Baggage;
  /** Opaque token identifying the fare at its source. */
  readonly fareToken: string;
  /** Opaque token identifying the search at its source. */
  readonly searchToken: string;
  /** When the offer was seen at its source (ms since the epoch); absent when the source does not say. */
  readonly seenAt?: number | undefined;
  /** Until when the offer may be taken as current (ms since the epoch); absent when the source does not say. */
  readonly validUntil?: number | undefined;
}

/** The seller's service fee of an offer in centavos, all passengers (negative for a discount); 0 when none. */
export const serviceFeeOf = (offer: Pick<Offer, "fares">): number =>
  offer.fares.reduce((sum, f) => sum + (f.serviceFee?.amount ?? 0), 0);

/**
 * The seller's discount of an offer: its own, or, for an offer that carries its fee only in its fares'
 * `serviceFee`, that fee as a percentage of the fare; 0 % and nothing off when none.
 */
export const discountOf = (offer: Pick<Offer, "fares" | "discount" | "total" | "taxes">): SellerDiscount => {
  if (offer.discount) return offer.discount;
  const off = -serviceFeeOf(offer);
  const fare = offer.total.amount - offer.taxes.amount;
  return { percent: off !== 0 && fare > 0 ? (off / fare) * 100 : 0, amount: { amount: off, currency: offer.total.currency } };
};

/** The boarding taxes of an offer in centavos, all passengers: its taxes and fees without the seller's fee or discount. */
export const boardingTaxesOf = (offer: Pick<Offer, "fares" | "taxes">): number => offer.taxes.amount - serviceFeeOf(offer);

/** True when an offer is paid in cash (`PontosAdulto = -1` on the wire). */
export const isCashOffer = (offer: Offer): boolean => offer.miles === undefined;

/** Percent saved by `total` against the airline's own cash price (decisions.md); 0 when not cheaper. */
export const savingPercent = (offer: Pick<Offer, "total" | "airlinePrice">): number => {
  const company = offer.airlinePrice.amount;
  if (company <= 0 || offer.total.amount >= company) return 0;
  return ((company - offer.total.amount) / company) * 100;
};
