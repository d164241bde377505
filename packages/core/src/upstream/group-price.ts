/**
 * How the price of a Mode A price group is shared among its offers.
 *
 * A group (`flights[]` element) has one `fareGroup`: `priceWithTax` is what the customer pays for the whole
 * booking, all passengers, and on a round-trip search BOTH directions (one outbound alternative plus one
 * return alternative). Each direction becomes its own offer, so a round-trip group price is split in two:
 *
 * - base (`priceWithoutTax`) by the directions' `ValorSegmento`: taken as they are when they add up to the
 *   base, otherwise in their proportion; half each (outbound takes the odd centavo) when either is missing;
 * - taxes (`priceWithTax - priceWithoutTax`) in halves, the outbound taking the odd centavo: boarding fees
 *   are charged per departure and a round trip departs as often each way, while the wire gives no per-direction taxes;
 * - the airline's own price (`priceInCompany`) in proportion to the two directions' totals; 0 (no airline
 *   price, as real answers send for Livelo's award seats) stays 0: never the group's own price.
 *
 * Every alternative of one direction gets the same share (they are alternatives at one price), so any
 * outbound plus any return of the group adds up to `priceWithTax` exactly, to the centavo. A one-way group
 * is not split: each of its offers carries the whole group price.
 */
import { splitCentavos } from "./split-centavos.js";

/** The money of one direction of a group, in centavos. */
export interface DirectionPrice {
  /** What the customer pays, taxes included. */
  readonly total: number;
  /** Taxes and fees included in `total`. */
  readonly taxes: number;
  /** `total - taxes`. */
  readonly base: number;
  /** The airline's own cash price for the same, taxes included; 0 when the answer gives none. */
  readonly airline: number;
}

/** A fare group's amounts in centavos, as read from the wire. */
export interface GroupAmounts {
  /** `priceWithTax`. */
  readonly total: number;
  /** `priceWithoutTax`, when given. */
  readonly base?: number | undefined;
  /** `priceInCompany`, when given and positive. */
  readonly airline?: number | undefined;
}

/**
 * Settles a group's base: the given one when it is not negative, else the total (no taxes known). A base
 * above the total means the fees are negative, a seller's discount: kept, not clamped.
 */
const settledBase = (g: GroupAmounts): number => (g.base !== undefined && g.base >= 0 ? g.base : g.total);

/** The price of a one-way group: the whole of it. */
export const oneWayPrice = (g: GroupAmounts): DirectionPrice => {
  const base = settledBase(g);
  return { total: g.total, taxes: g.total - base, base, airline: g.airline && g.airline > 0 ? g.airline : 0 };
};

/**
 * Splits a round-trip group between its directions (see the module comment). `outboundValue` and
 * `returnValue` are the directions' `ValorSegmento` in centavos, when given.
 */
export const roundTripPrices = (
  g: GroupAmounts,
  outboundValue: number | undefined,
  returnValue: number | undefined,
): { readonly outbound: DirectionPrice; readonly return: DirectionPrice } => {
  const base = settledBase(g);
  const taxes = g.total - base;
  const known = outboundValue !== undefined && returnValue !== undefined && outboundValue > 0 && returnValue > 0;
  const [baseOut = 0, baseBack = 0] =
    known && outboundValue + returnValue === base
      ? [outboundValue, returnValue]
      : splitCentavos(base, known ? [outboundValue, returnValue] : [1, 1]);
  const [taxOut = 0, taxBack = 0] = splitCentavos(taxes, [1, 1]);
  const totalOut = baseOut + taxOut;
  const totalBack = baseBack + taxBack;
  const airline = g.airline && g.airline > 0 ? g.airline : 0;
  const [airlineOut = 0, airlineBack = 0] = splitCentavos(airline, [totalOut, totalBack]);
  return {
    outbound: { total: totalOut, taxes: taxOut, base: baseOut, airline: airlineOut },
    return: { total: totalBack, taxes: taxBack, base: baseBack, airline: airlineBack },
  };
};
