import { routeConfiguration, type Leg } from "../domain/itinerary.js";
import { savingPercent, type Baggage, type Offer, type PassengerFare, type PassengerType } from "../domain/offer.js";
import type { FilterView, MetaView, PriceGroupView } from "../views/views.js";
import { DEFAULT_VIEW, hasFilters, type ResultView } from "../query/result-view.js";
import { filtrosOf, SORT_WIRE } from "./view-members.js";
import type {
  ModeAFareProfile,
  ModeAFilter,
  ModeAFlight,
  ModeALeg,
  ModeAMeta,
  ModeAResultGroup,
  ModeASegment,
} from "./mode-a-schema.js";
import { sumCentavos, wireLocalDateTime } from "./scalars.js";

/** Words for a checked allowance when the source gave none, as real answers word it. */
export const checkedBagText = (n: number): string => (n === 1 ? "1 bagagem despachada" : `${n} bagagens despachadas`);
/** Words for a carry-on allowance when the source gave none, as real answers word it. */
export const cabinBagText = (n: number): string => (n === 1 ? "1 bagagem de mão" : `${n} bagagens de mão`);

/**
 * What a fare includes, as a Mode A fare profile: `baggage` the checked allowance (null when none), one
 * `HAND_LUGGAGE` service when a carry-on allowance is known, and the fare family.
 */
export const toWireFareProfile = (fareFamily: string | undefined, baggage: Baggage): ModeAFareProfile => ({
  baggage:
    baggage.checked > 0
      ? { isIncluded: true, type: "CHECKED_BAGGAGE", quantity: baggage.checked, texto: baggage.checkedText || checkedBagText(baggage.checked) }
      : null,
  services:
    baggage.cabin !== undefined && baggage.cabin > 0
      ? [{ type: "HAND_LUGGAGE", isIncluded: true, description: baggage.cabinText || cabinBagText(baggage.cabin), Number: baggage.cabin }]
      : [],
  fareFamily: fareFamily ?? null,
  fareFamilyId: null,
  fareFamilyProgramId: null,
});

const PASSENGER_ORDER: readonly PassengerType[] = ["ADT", "CHD", "INF"];

const decimal = (centavos: number): number => centavos / 100;

/** An instant (ms since the epoch) as ISO 8601 UTC. */
const instantOf = (ms: number): string => new Date(ms).toISOString();

const toWireLeg = (leg: Leg): ModeALeg => ({
  managedBy: { name: leg.carrier.name, iata: leg.carrier.iata },
  operatedBy: { name: leg.operatingCarrier.name, iata: leg.operatingCarrier.iata },
  status: null,
  flightNumber: leg.flightNumber,
  numberOfStops: 0,
  stops: null,
  duration: leg.durationMinutes,
  departure: leg.origin,
  arrival: leg.destination,
  departureDate: wireLocalDateTime(leg.departure),
  arrivalDate: wireLocalDateTime(leg.arrival),
  aircraftCode: leg.aircraft ?? null,
  seatClass: { code: null, description: leg.cabin },
  fareBasis: null,
  fareClass: null,
});

/**
 * One offer as a Mode A segment. A cash offer (no miles) writes `PontosAdulto` as -1, `PontosCrianca` as its
 * seller writes it (-1, LATAM's 0) and names the airline as its `FidelityProgram`. The search token is written twice: `TokenConsultaSvc` (the
 * spec's name) and `TokenConsultaMBX` (the name real upstreams send), so clients of either keep working.
 */
export const toWireSegment = (offer: Offer, routeRPH: 0 | 1, rph: number): ModeASegment => ({
  departure: offer.itinerary.origin,
  arrival: offer.itinerary.destination,
  departureDate: wireLocalDateTime(offer.itinerary.departure),
  arrivalDate: wireLocalDateTime(offer.itinerary.arrival),
  rateToken: offer.fareToken,
  TokenConsultaSvc: offer.searchToken,
  TokenConsultaMBX: offer.searchToken,
  packageGroup: null,
  routeRPH,
  rph,
  numberOfStops: offer.itinerary.stops,
  fareType: null,
  duration: offer.itinerary.durationMinutes,
  fareProfile: toWireFareProfile(offer.fareFamily, offer.baggage),
  legs: offer.itinerary.legs.map(toWireLeg),
  FidelityProgram: offer.miles?.programme ?? offer.validatingCarrier.name,
  IdCiaResponsavel: offer.airlineId,
  ConfiguracoesRotas: routeConfiguration(offer.itinerary),
  ValorSegmento: decimal(offer.total.amount - offer.taxes.amount),
  PontosAdulto: offer.miles?.pointsAdult ?? -1,
  // A cash fare's child points as its seller writes them (LATAM's 0), -1 when it did not say.
  PontosCrianca: offer.miles?.pointsChild ?? offer.seller.cashChildPoints ?? -1,
  // Only when the source said: answers of sources that do not say stay byte for byte what they were.
  ...(offer.seenAt === undefined ? {} : { VistoEm: instantOf(offer.seenAt) }),
  ...(offer.validUntil === undefined ? {} : { ValidoAte: instantOf(offer.validUntil) }),
});

/** Per passenger type, the fares of the priced offers (one per direction) summed, in ADT, CHD, INF order. */
const sumFares = (priced: readonly Offer[]): ModeAFlight["fareGroup"]["fares"] => {
  const all: readonly PassengerFare[] = priced.flatMap((o) => o.fares);
  return PASSENGER_ORDER.flatMap((type) => {
    const ofType = all.filter((f) => f.type === type);
    if (ofType.length === 0) return [];
    const base = sumCentavos(ofType.map((f) => f.base));
    const taxes = sumCentavos(ofType.map((f) => f.taxes));
    return [
      {
        passengersType: type,
        // The same passengers fly both ways: the count is per trip, not summed over directions.
        passengersCount: Math.max(...ofType.map((f) => f.count)),
        priceWithTax: decimal(base + taxes),
        priceWithoutTax: decimal(base),
        taxes: null,
      },
    ];
  });
};

const shortest = (offers: readonly Offer[] | undefined): number =>
  offers && offers.length > 0 ? Math.min(...offers.map((o) => o.itinerary.durationMinutes)) : 0;

/**
 * Writes a Mode A price group as one `flights[]` element (spec 2.4).
 *
 * The group's price is its first outbound offer (one-way: every alternative has the same price) or, for a
 * round trip, the sum of the outbound and return offers that combine at it (`pricedBy`). Sums are done in centavos and divided once, so the wire decimals
 * are exact to the centavo. `typeFlight` is 1 (`"Ida"`) for one-way and 2 (`"IdaVolta"`) for a round trip;
 * `segmentsBack` is `null` for one-way, as real answers write it.
 *
 * @example
 * const flights = page.groups.map(toWireFlight);
 */
export const toWireFlight = (view: PriceGroupView): ModeAFlight => {
  const priced = (view.pricedBy ?? [view.outbound[0], view.inbound?.[0]]).filter((o): o is Offer => o !== undefined);
  const total = sumCentavos(priced.map((o) => o.total));
  const taxes = sumCentavos(priced.map((o) => o.taxes));
  // No airline price (0) in either direction: none for the group, rather than half of one.
  const company = priced.some((o) => o.airlinePrice.amount <= 0) ? 0 : sumCentavos(priced.map((o) => o.airlinePrice));
  const currency = priced[0]?.total.currency ?? "BRL";
  const roundTrip = view.inbound !== undefined;
  const goingMin = shortest(view.outbound);
  const backMin = shortest(view.inbound);
  return {
    validatingBy: { name: view.validatingCarrier.name, iata: view.validatingCarrier.iata },
    fareGroup: {
      reCharging: false,
      currency,
      priceWithTax: decimal(total),
      priceWithoutTax: decimal(total - taxes),
      priceInCompany: decimal(company),
      percentualEconomia: savingPercent({ total: { amount: total, currency }, airlinePrice: { amount: company, currency } }),
      fares: sumFares(priced),
    },
    segments: view.outbound.map((o, i) => toWireSegment(o, 0, i)),
    segmentsBack: view.inbound ? view.inbound.map((o, i) => toWireSegment(o, 1, i)) : null,
    ConfiguracoesRotas: view.outbound.map((o) => routeConfiguration(o.itinerary)),
    typeFlight: roundTrip ? 2 : 1,
    typeFlightStr: roundTrip ? "IdaVolta" : "Ida",
    FlyTime: { FasterGoing: goingMin, FasterBack: backMin, Total: goingMin + backMin },
  };
};

const toWireFilter = (f: FilterView): ModeAFilter => ({
  Stops: f.stops.map(([Key, Value]) => ({ Key, Value })),
  Airlines: [...f.airlines],
  AirlineIATA: [...f.airlineIatas],
  DepartureDate: f.departures.map(wireLocalDateTime),
  ArrivalDate: f.arrivals.map(wireLocalDateTime),
  Prices: null,
  Departure: [...f.departureAirports],
  Arrival: [...f.arrivalAirports],
  Total: f.total,
});

/**
 * Writes Mode A `meta` (spec 2.3.1) over the whole result set. `countPriceGroups` and `TotalGroups` are both
 * the number of price groups; `ReturnFilter` is `null` for a one-way search. `location.name` is the city.
 */
export const toWireMeta = (meta: MetaView, view: ResultView = DEFAULT_VIEW): ModeAMeta => ({
  statusExecution: null,
  countFlights: meta.countFlights,
  countPriceGroups: meta.totalGroups,
  price: null,
  priceMatrix: null,
  routes: null,
  airports: meta.airports.map(({ airport, stop, international }) => ({
    name: airport.name,
    iata: airport.iata,
    stop,
    location: { name: airport.city },
    internacional: international,
  })),
  TotalGroups: meta.totalGroups,
  WayFilter: toWireFilter(meta.way),
  ReturnFilter: meta.back ? toWireFilter(meta.back) : null,
  GoingCompany: null,
  BackCompany: null,
  TransactionId: null,
  Contagens: {
    Paradas: meta.counts.stops.map(([Key, Value]) => ({ Key, Value })),
    ParadasIda: (meta.counts.outboundStops ?? meta.counts.stops).map(([Key, Value]) => ({ Key, Value })),
    ParadasVolta: meta.counts.returnStops?.map(([Key, Value]) => ({ Key, Value })) ?? null,
    Companhias: meta.counts.airlines.map(([Key, Value]) => ({ Key, Value })),
    Milhas: meta.counts.miles,
    Dinheiro: meta.counts.cash,
  },
  Ordenacao: SORT_WIRE[view.sort] as ModeAMeta["Ordenacao"],
  Filtros: hasFilters(view.filters) ? filtrosOf(view.filters) : null,
});

/** Writes the single Mode A `Data` element: one page of price groups plus the meta of the whole result set. */
export const toWireModeAGroup = (page: readonly PriceGroupView[], meta: MetaView, view: ResultView = DEFAULT_VIEW): ModeAResultGroup => ({
  flights: page.map(toWireFlight),
  meta: toWireMeta(meta, view),
});
