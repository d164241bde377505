import { flightKey, type Itinerary, type Leg } from "../../src/domain/itinerary.js";
import { money } from "../../src/domain/money.js";
import type { Baggage, MilesPrice, Offer, PassengerFare, Seller } from "../../src/domain/offer.js";

/** Hand-built domain values for the wire writer tests: small, explicit, no engine involved. */

const GOL = { iata: "G3", name: "GOL" } as const;

/** A GOL leg CNF-GIG 14:10-15:20 (70 min) unless overridden. */
export const leg = (over: Partial<Leg> = {}): Leg => ({
  carrier: GOL,
  operatingCarrier: GOL,
  flightNumber: 1234,
  origin: "CNF",
  destination: "GIG",
  departure: "2025-08-12T14:10:00",
  arrival: "2025-08-12T15:20:00",
  departureTimeZone: "America/Sao_Paulo",
  arrivalTimeZone: "America/Sao_Paulo",
  durationMinutes: 70,
  cabin: "Economica",
  ...over,
});

/** An itinerary made of legs, with door-to-door duration given explicitly. */
export const itinerary = (legs: readonly Leg[], durationMinutes: number, direction: Itinerary["direction"] = "outbound"): Itinerary => {
  const first = legs[0]!;
  const last = legs[legs.length - 1]!;
  return {
    direction,
    legs,
    origin: first.origin,
    destination: last.destination,
    departure: first.departure,
    arrival: last.arrival,
    durationMinutes,
    stops: legs.length - 1,
  };
};

/** An airline or OTA seller. */
export const seller = (id: string, kind: Seller["kind"] = "ota"): Seller => ({
  kind,
  id,
  name: id.toUpperCase(),
  site: `${id}.example`,
  url: `https://${id}.example/reserva?voo=1`,
});

/** A passenger fare in centavos. */
export const fare = (type: PassengerFare["type"], count: number, base: number, taxes: number): PassengerFare => ({
  type,
  count,
  base: money(base),
  taxes: money(taxes),
});

/** What {@link offer} needs; everything else has a default. */
export interface OfferInput {
  readonly itinerary?: Itinerary;
  readonly fares?: readonly PassengerFare[];
  /** Company price in centavos, taxes included. */
  readonly airlinePrice?: number;
  readonly miles?: MilesPrice;
  readonly seller?: Seller;
  readonly id?: string;
  readonly fareFamily?: string;
  readonly baggage?: Baggage;
}

/**
 * A GOL offer whose `total` and `taxes` are the sums of its fares (as the domain promises). Default: one adult,
 * 1049.84 + 42.12 = 1091.96, company price 1200.00, paid in cash.
 */
export const offer = (input: OfferInput = {}): Offer => {
  const it = input.itinerary ?? itinerary([leg()], 70);
  const fares = input.fares ?? [fare("ADT", 1, 104_984, 4_212)];
  const total = fares.reduce((s, f) => s + f.base.amount + f.taxes.amount, 0);
  const taxes = fares.reduce((s, f) => s + f.taxes.amount, 0);
  const sold = input.seller ?? seller("gol", "airline");
  return {
    id: input.id ?? `${sold.id}:${flightKey(it)}`,
    flightKey: flightKey(it),
    sourceId: sold.id,
    airlineId: 2,
    validatingCarrier: GOL,
    seller: sold,
    itinerary: it,
    fares,
    total: money(total),
    taxes: money(taxes),
    airlinePrice: money(input.airlinePrice ?? 120_000),
    ...(input.miles ? { miles: input.miles } : {}),
    cabin: "Economica",
    bookingOption: input.miles ? "Emissão com milhas" : "Tarifa Light",
    ...(input.fareFamily ? { fareFamily: input.fareFamily } : {}),
    baggage: input.baggage ?? { checked: 0, checkedText: "", cabin: 1, cabinText: "" },
    fareToken: `fare-${sold.id}`,
    searchToken: `search-${sold.id}`,
  };
};

/** A Smiles miles price: 40 000 points per adult, 42.12 of taxes. */
export const smiles: MilesPrice = { pointsAdult: 40_000, pointsChild: 0, taxes: money(4_212), programme: "Smiles" };
