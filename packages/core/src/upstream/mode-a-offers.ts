/**
 * Maps a Mode A result item (all airlines) to offers: one offer per alternative itinerary, that is per
 * element of `segments` (outbound) and `segmentsBack` (return) of every price group. Prices follow
 * `group-price.ts`; a segment paid in miles (`PontosAdulto >= 0`) carries {@link MilesPrice}, a cash one
 * (`PontosAdulto < 0`) none.
 */
import type { Carrier, Direction, Leg } from "../domain/itinerary.js";
import { flightKey } from "../domain/itinerary.js";
import { centavosFromDecimal } from "../domain/money.js";
import type { MilesPrice, Offer } from "../domain/offer.js";
import { findAirline, carrierOf } from "./airline-identity.js";
import { searchTokenOf } from "./envelope-schema.js";
import { oneWayPrice, roundTripPrices, type DirectionPrice } from "./group-price.js";
import { buildItinerary, buildLeg } from "./itinerary-builder.js";
import { readItem, type SkipLog } from "./item-reader.js";
import {
  upstreamFlightSchema,
  upstreamModeAResultSchema,
  upstreamSegmentSchema,
  type UpstreamFlight,
  type UpstreamSegment,
} from "./mode-a-schema.js";
import { offerId } from "./offer-ids.js";
import { baggageFromProfile } from "./baggage.js";
import { buildFares, passengerTypeOf, sharesByCount, type FareShare } from "./passenger-fares.js";
import type { ReadContext } from "./read-context.js";
import { airlineSeller } from "./seller.js";
import { withCashChildPoints } from "./written-members.js";

/** What every offer of one price group shares. */
interface GroupFacts {
  readonly ctx: ReadContext;
  readonly log: SkipLog;
  readonly path: string;
  readonly currency: string;
  readonly validating: Carrier | undefined;
  readonly shares: readonly FareShare[];
  readonly searchToken: string | undefined;
}

const currencyOf = (code: string | null | undefined): string =>
  code && /^[A-Za-z]{3}$/.test(code.trim()) ? code.trim().toUpperCase() : "BRL";

/**
 * Fare shares of a group. Fares are taken as totals per passenger type (the domain's meaning) unless
 * multiplying by `passengersCount` matches the group price better, in which case they were per passenger.
 */
const sharesOf = (flight: UpstreamFlight, ctx: ReadContext): FareShare[] => {
  const fares = (flight.fareGroup.fares ?? []).flatMap((f) =>
    f !== null && typeof f.priceWithTax === "number" ? [{ ...f, priceWithTax: f.priceWithTax }] : [],
  );
  if (fares.length === 0) return sharesByCount(ctx.query?.passengers ?? { adults: 1, children: 0, infants: 0 });
  const count = (n: number | null | undefined) => (typeof n === "number" && n > 0 ? n : 1);
  const total = flight.fareGroup.priceWithTax;
  const asTotals = fares.reduce((a, f) => a + f.priceWithTax, 0);
  const asPerPax = fares.reduce((a, f) => a + f.priceWithTax * count(f.passengersCount), 0);
  const perPax = Math.abs(asPerPax - total) < Math.abs(asTotals - total);
  return fares.map((f) => {
    const n = count(f.passengersCount);
    const scale = perPax ? n : 1;
    const base = f.priceWithoutTax ?? f.priceWithTax;
    return { type: passengerTypeOf(f.passengersType), count: n, baseWeight: base * scale, taxWeight: (f.priceWithTax - base) * scale };
  });
};

const legOf = (g: GroupFacts, leg: UpstreamSegment["legs"][number]): Leg | undefined => {
  const carrier = carrierOf(leg.managedBy?.iata, leg.managedBy?.name) ?? g.validating;
  if (!carrier) return undefined;
  return buildLeg(g.ctx.airports, {
    carrier,
    operatingCarrier: carrierOf(leg.operatedBy?.iata, leg.operatedBy?.name) ?? carrier,
    flightNumber: leg.flightNumber,
    origin: leg.departure,
    destination: leg.arrival,
    departure: leg.departureDate,
    arrival: leg.arrivalDate,
    givenMinutes: leg.duration,
    cabin: leg.seatClass?.description?.trim() || "Economica",
    aircraft: leg.aircraftCode,
  });
};


const segmentOffer = (
  g: GroupFacts,
  segment: UpstreamSegment,
  direction: Direction,
  price: DirectionPrice,
  path: string,
): Offer | undefined => {
  const legs = segment.legs.flatMap((l) => legOf(g, l) ?? []);
  const [first, ...rest] = legs;
  if (!first || legs.length !== segment.legs.length) {
    g.log.note(path, "companhia aérea ausente");
    return undefined;
  }
  const itinerary = buildItinerary(g.ctx.airports, direction, [first, ...rest], segment.duration);
  const validatingCarrier = g.validating ?? first.carrier;
  const airline = findAirline(segment.IdCiaResponsavel, g.validating?.iata, first.carrier.iata);
  const programme = segment.FidelityProgram?.trim() || undefined;
  const money = (amount: number) => ({ amount, currency: g.currency });
  const points = segment.PontosAdulto;
  const miles: MilesPrice | undefined =
    typeof points === "number" && points >= 0
      ? {
          pointsAdult: Math.round(points),
          pointsChild: Math.max(0, Math.round(segment.PontosCrianca ?? 0)),
          taxes: money(price.taxes),
          programme: programme ?? (airline?.programme || validatingCarrier.name),
        }
      : undefined;
  const seller = withCashChildPoints(airlineSeller(validatingCarrier, airline, programme ?? (miles ? airline?.programme : undefined)), miles !== undefined, segment.PontosCrianca);
  const key = flightKey(itinerary);
  const fareFamily = segment.fareProfile?.fareFamily?.trim() || undefined;
  return {
    id: offerId(g.ctx.sourceId, segment.rateToken, { seller, flightKey: key, miles }),
    flightKey: key,
    sourceId: g.ctx.sourceId,
    airlineId: airline?.id ?? 0,
    validatingCarrier,
    seller,
    itinerary,
    fares: buildFares(g.shares, price.base, price.taxes, g.currency),
    total: money(price.total),
    taxes: money(price.taxes),
    airlinePrice: money(price.airline),
    ...(miles ? { miles } : {}),
    cabin: first.cabin,
    bookingOption: fareFamily ? `Tarifa ${fareFamily}` : miles ? "Emissão com milhas" : "Tarifa em dinheiro",
    ...(fareFamily ? { fareFamily } : {}),
    baggage: baggageFromProfile(segment.fareProfile?.baggage, segment.fareProfile?.services),
    fareToken: segment.rateToken ?? "",
    searchToken: searchTokenOf(segment) ?? g.searchToken ?? "",
  };
};

const readSegments = (list: readonly unknown[] | null | undefined, path: string, log: SkipLog) =>
  (list ?? []).flatMap((raw, j) => {
    const at = `${path}[${j}]`;
    const segment = readItem(upstreamSegmentSchema, raw, at, log);
    return segment ? [{ segment, at }] : [];
  });

const groupOffers = (flight: UpstreamFlight, g: GroupFacts): Offer[] => {
  const outs = readSegments(flight.segments, `${g.path}.segments`, g.log);
  const backs = readSegments(flight.segmentsBack, `${g.path}.segmentsBack`, g.log);
  if ((flight.segments ?? []).length + (flight.segmentsBack ?? []).length === 0) {
    g.log.note(g.path, "grupo sem itinerários");
    return [];
  }
  const cents = (v: number | null | undefined) => (typeof v === "number" ? centavosFromDecimal(v) : undefined);
  const fg = flight.fareGroup;
  const amounts = { total: centavosFromDecimal(fg.priceWithTax), base: cents(fg.priceWithoutTax), airline: cents(fg.priceInCompany) };
  // A round trip by what the upstream sent, not by what could be read: an unreadable return must not hand
  // its share of the price to the outbound offers.
  const prices =
    (flight.segmentsBack ?? []).length === 0
      ? { outbound: oneWayPrice(amounts), return: oneWayPrice(amounts) }
      : roundTripPrices(amounts, cents(outs[0]?.segment.ValorSegmento), cents(backs[0]?.segment.ValorSegmento));
  return [
    ...outs.map((s) => segmentOffer(g, s.segment, "outbound", prices.outbound, s.at)),
    ...backs.map((s) => segmentOffer(g, s.segment, "return", prices.return, s.at)),
  ].filter((o): o is Offer => o !== undefined);
};

/** How many items a Mode A result item holds (its price groups), whether or not they can be read. */
export const modeAItemCount = (raw: unknown): number => {
  const parsed = upstreamModeAResultSchema.safeParse(raw);
  return parsed.success ? (parsed.data.flights?.length ?? 0) : 0;
};

/**
 * The entries of one Mode A result item (`Data[i]`, at wire path `path`): how many price groups it lists,
 * and the reading of each (`read(k)`: the offers of `flights[k]`, unreadable groups and segments left out
 * and noted in `log`). Undefined when the item itself cannot be read (noted).
 */
export const modeAEntries = (
  raw: unknown,
  path: string,
  ctx: ReadContext,
  log: SkipLog,
  searchToken: string | undefined,
): { readonly count: number; readonly read: (k: number, log?: SkipLog) => Offer[] } | undefined => {
  const result = readItem(upstreamModeAResultSchema, raw, path, log);
  if (!result) return undefined;
  const flights = result.flights ?? [];
  return {
    count: flights.length,
    read: (i, entryLog = log) => {
      const at = `${path}.flights[${i}]`;
      const flight = readItem(upstreamFlightSchema, flights[i], at, entryLog);
      if (!flight) return [];
      const validating = carrierOf(flight.validatingBy?.iata, flight.validatingBy?.name);
      const facts: GroupFacts = {
        ctx,
        log: entryLog,
        path: at,
        currency: currencyOf(flight.fareGroup.currency),
        validating,
        shares: sharesOf(flight, ctx),
        searchToken,
      };
      return groupOffers(flight, facts);
    },
  };
};

/**
 * Reads the offers of one Mode A result item (`Data[i]`, at wire path `path`). Unreadable groups and
 * segments are left out and noted in `log`.
 */
export const readModeAOffers = (
  raw: unknown,
  path: string,
  ctx: ReadContext,
  log: SkipLog,
  searchToken: string | undefined,
): Offer[] => {
  const entries = modeAEntries(raw, path, ctx, log, searchToken);
  if (!entries) return [];
  const offers: Offer[] = [];
  for (let k = 0; k < entries.count; k++) offers.push(...entries.read(k));
  return offers;
};
