/**
 * Loose schemas of the Mode A (all-airlines) result as real upstreams send it (spec 2.3-2.4): a result item
 * with `flights` (price groups), each with alternative `segments` (outbound) and `segmentsBack` (return,
 * null on one-way searches). Only what an offer cannot do without is required; the rest may be null or absent.
 * `TokenConsulta*` members of a segment are read by key prefix, so they pass through untyped.
 */
import * as z from "zod";
import {
  airportCode,
  lenientNumber,
  lenientText,
  localDateTime,
  upstreamCompanySchema,
} from "./lenient-primitives.js";

/** One flight of a Mode A itinerary. */
export const upstreamLegSchema = z.looseObject({
  managedBy: upstreamCompanySchema.nullish().catch(undefined),
  operatedBy: upstreamCompanySchema.nullish().catch(undefined),
  flightNumber: lenientNumber.pipe(z.number().int().nonnegative()),
  duration: lenientNumber.nullish().catch(undefined),
  departure: airportCode,
  arrival: airportCode,
  departureDate: localDateTime,
  arrivalDate: localDateTime,
  aircraftCode: lenientText.nullish().catch(undefined),
  seatClass: z.looseObject({ description: lenientText.nullish() }).nullish().catch(undefined),
});

/** A leg after {@link upstreamLegSchema}. */
export type UpstreamLeg = z.infer<typeof upstreamLegSchema>;

/** Baggage of a fare profile: `{ isIncluded, type: "CHECKED_BAGGAGE", quantity, texto }` in real answers. */
const baggageSchema = z.looseObject({
  isIncluded: z.boolean().nullish().catch(undefined),
  type: lenientText.nullish().catch(undefined),
  quantity: lenientNumber.nullish().catch(undefined),
  texto: lenientText.nullish().catch(undefined),
});

/** A service of a fare profile: `{ type: "HAND_LUGGAGE", isIncluded, description, Number }` in real answers. */
const serviceSchema = z.looseObject({
  type: lenientText.nullish().catch(undefined),
  isIncluded: z.boolean().nullish().catch(undefined),
  description: lenientText.nullish().catch(undefined),
  Number: lenientNumber.nullish().catch(undefined),
});

/** One alternative itinerary of a price group (an element of `segments` or `segmentsBack`). */
export const upstreamSegmentSchema = z.looseObject({
  rateToken: lenientText.nullish().catch(undefined),
  duration: lenientNumber.nullish().catch(undefined),
  legs: z.array(upstreamLegSchema).min(1),
  fareProfile: z
    .looseObject({
      baggage: baggageSchema.nullish().catch(undefined),
      services: z.array(serviceSchema.nullable().catch(null)).nullish().catch(undefined),
      fareFamily: lenientText.nullish().catch(undefined),
    })
    .nullish()
    .catch(undefined),
  FidelityProgram: lenientText.nullish().catch(undefined),
  IdCiaResponsavel: lenientNumber.nullish().catch(undefined),
  ValorSegmento: lenientNumber.nullish().catch(undefined),
  PontosAdulto: lenientNumber.nullish().catch(undefined),
  PontosCrianca: lenientNumber.nullish().catch(undefined),
});

/** A segment after {@link upstreamSegmentSchema}. */
export type UpstreamSegment = z.infer<typeof upstreamSegmentSchema>;

/** The price of one passenger type in a fare group. */
export const upstreamFareSchema = z.looseObject({
  passengersType: lenientText.nullish(),
  passengersCount: lenientNumber.nullish(),
  priceWithTax: lenientNumber.nullish(),
  priceWithoutTax: lenientNumber.nullish(),
});

/** The price of a group: `priceWithTax` is required, it is what the customer pays. */
export const upstreamFareGroupSchema = z.looseObject({
  currency: lenientText.nullish().catch(undefined),
  priceWithTax: lenientNumber.pipe(z.number().nonnegative()),
  priceWithoutTax: lenientNumber.nullish().catch(undefined),
  priceInCompany: lenientNumber.nullish().catch(undefined),
  fares: z.array(upstreamFareSchema.nullable().catch(null)).nullish().catch(undefined),
});

/** A fare group after {@link upstreamFareGroupSchema}. */
export type UpstreamFareGroup = z.infer<typeof upstreamFareGroupSchema>;

/**
 * One price group (an element of `flights`). Segments stay `unknown` here: each is read on its own,
 * so one unreadable alternative does not cost the others.
 */
export const upstreamFlightSchema = z.looseObject({
  validatingBy: upstreamCompanySchema.nullish().catch(undefined),
  fareGroup: upstreamFareGroupSchema,
  segments: z.array(z.unknown()).nullish(),
  segmentsBack: z.array(z.unknown()).nullish().catch(undefined),
});

/** A price group after {@link upstreamFlightSchema}. */
export type UpstreamFlight = z.infer<typeof upstreamFlightSchema>;

/** A Mode A result item: its price groups, each read on its own, and metadata passed through. */
export const upstreamModeAResultSchema = z.looseObject({
  flights: z.array(z.unknown()).nullish(),
  meta: z.unknown(),
});
