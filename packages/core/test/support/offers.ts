import type { Offer } from "../../src/domain/offer.js";
import type { SearchQuery } from "../../src/query/query.js";
import { flightKey } from "../../src/domain/itinerary.js";
import { money } from "../../src/domain/money.js";

/** A one-way Mode A query used across tests. */
export const queryA: SearchQuery = {
  origin: "CNF",
  destination: "SDU",
  departureDate: "2026-12-20",
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
};

export interface OfferSpec {
  id?: string;
  sourceId?: string;
  carrier?: string;
  airlineId?: number;
  flightNumber?: number;
  departure?: string;
  direction?: "outbound" | "return";
  total?: number;
  points?: number;
  seller?: string;
}

/** Builds a realistic one-leg offer; fields not given get sensible defaults. */
export const makeOffer = (spec: OfferSpec = {}): Offer => {
  const carrier = { iata: spec.carrier ?? "LA", name: spec.carrier === "G3" ? "GOL" : spec.carrier === "AD" ? "Azul" : "LATAM" };
  const direction = spec.direction ?? "outbound";
  const [origin, destination] = direction === "outbound" ? ["CNF", "SDU"] : ["SDU", "CNF"];
  const departure = spec.departure ?? "2026-12-20T10:00:00";
  const arrival = departure.replace(/T(\d\d)/, (_, h: string) => `T${String(Number(h) + 1).padStart(2, "0")}`);
  const legs = [
    {
      carrier,
      operatingCarrier: carrier,
      flightNumber: spec.flightNumber ?? 3000,
      origin,
      destination,
      departure,
      arrival,
      departureTimeZone: "America/Sao_Paulo",
      arrivalTimeZone: "America/Sao_Paulo",
      durationMinutes: 60,
      cabin: "Economica",
    },
  ];
  const itinerary = { direction, legs, origin, destination, departure, arrival, durationMinutes: 60, stops: 0 } as const;
  const total = spec.total ?? 50_000;
  const taxes = 3_356;
  const seller = spec.seller ?? "latam";
  return {
    id: spec.id ?? `${seller}:${flightKey(itinerary)}:${spec.points ?? "cash"}`,
    flightKey: flightKey(itinerary),
    sourceId: spec.sourceId ?? seller,
    airlineId: spec.airlineId ?? 1,
    validatingCarrier: carrier,
    seller: { kind: seller.startsWith("ota") ? "ota" : "airline", id: seller, name: seller, site: `${seller.replace(":", "-")}.example`, url: `https://${seller.replace(":", "-")}.example/b` },
    itinerary,
    fares: [{ type: "ADT", count: 1, base: money(total - taxes), taxes: money(taxes) }],
    total: money(total),
    taxes: money(taxes),
    airlinePrice: money(Math.round(total * 1.4)),
    miles: spec.points === undefined ? undefined : { pointsAdult: spec.points, pointsChild: 0, taxes: money(taxes), programme: "LATAM Pass" },
    cabin: "Economica",
    bookingOption: "Tarifa Light",
    baggage: { checked: 0, checkedText: "", cabin: 1, cabinText: "" },
    fareToken: `ft-${spec.id ?? flightKey(itinerary)}-${total}`,
    searchToken: "st-1",
  };
};
