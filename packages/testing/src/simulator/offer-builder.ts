import { airlineById, money, type Itinerary, type MilesPrice, type Offer, type PassengerFare, type SearchQuery, type Seller } from "@voar/core";
import { FARE_OPTIONS, type FareOption, type FlightFares } from "./flight-fares.js";
import { sumFares } from "./pricing.js";
import { hexToken } from "./prng.js";

/** Who is quoting and under which search: the parts of an offer that do not depend on the flight. */
export interface QuoteContext {
  readonly seed: number;
  readonly sourceId: string;
  /** Seller of every offer of the source; `url` is the base of the deep links. */
  readonly seller: Seller;
  readonly searchToken: string;
}

/** One priced option of one flight, as a source quotes it. */
export interface Quote {
  readonly flight: FlightFares;
  readonly option: FareOption;
  readonly fares: readonly PassengerFare[];
  /** The airline's own cash price to compare against; 0 for none (the offer's own total is taken then). */
  readonly airlinePrice: Offer["airlinePrice"];
  readonly miles?: MilesPrice | undefined;
  /** The seller's discount on the fare (its share is already in the fares' taxes and `serviceFee`). */
  readonly discount?: Offer["discount"];
}

/**
 * A deterministic opaque search token of a source for a query: the same seed and query always give the
 * same token (the search mode is left out: it only picks sources, never changes what they answer).
 */
export const searchTokenOf = (seed: number, sourceId: string, query: SearchQuery): string => {
  const p = query.passengers;
  const slug = sourceId.replace(/^ota:/, "");
  return `${slug}_${hexToken(32, seed, sourceId, query.origin, query.destination, query.departureDate, query.returnDate ?? "", p.adults, p.children, p.infants)}`;
};

const withCabin = (itinerary: Itinerary, cabin: string): Itinerary =>
  itinerary.legs.every((l) => l.cabin === cabin) ? itinerary : { ...itinerary, legs: itinerary.legs.map((l) => ({ ...l, cabin })) };

const deepLink = (ctx: QuoteContext, quote: Quote, id: string): string => {
  const it = quote.flight.sim.itinerary;
  const flights = it.legs.map((l) => `${l.carrier.iata}${l.flightNumber}`).join("-");
  return `${ctx.seller.url}/voos/${it.origin}-${it.destination}/${it.departure.slice(0, 10)}?voos=${flights}&oferta=${encodeURIComponent(id)}`;
};

/** Builds the {@link Offer} of a quote: stable id from source, flight and option; totals summed from the fares. */
export const makeOffer = (ctx: QuoteContext, quote: Quote): Offer => {
  const { flight, option } = quote;
  const info = FARE_OPTIONS[option];
  const id = `${ctx.sourceId}:${hexToken(12, ctx.sourceId, flight.key)}:${option}`;
  const { total, taxes } = sumFares(quote.fares);
  const p = flight.passengers;
  const airline = airlineById(flight.profile.airlineId);
  return {
    id,
    flightKey: flight.key,
    sourceId: ctx.sourceId,
    airlineId: flight.profile.airlineId,
    validatingCarrier: { iata: airline?.iata ?? "XX", name: airline?.name ?? flight.profile.slug },
    seller: { ...ctx.seller, url: deepLink(ctx, quote, id) },
    itinerary: withCabin(flight.sim.itinerary, info.cabin),
    fares: quote.fares,
    total,
    taxes,
    ...(quote.discount ? { discount: quote.discount } : {}),
    airlinePrice: quote.airlinePrice.amount > 0 ? quote.airlinePrice : money(total.amount),
    ...(quote.miles ? { miles: quote.miles } : {}),
    cabin: info.cabin,
    bookingOption: info.bookingOption,
    ...(info.fareFamily ? { fareFamily: info.fareFamily } : {}),
    baggage: { checked: info.bags[flight.international ? 1 : 0], checkedText: "", cabin: 1, cabinText: "" },
    fareToken: hexToken(32, ctx.seed, id, p.adults, p.children, p.infants),
    searchToken: ctx.searchToken,
  };
};
