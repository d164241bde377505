import { airlineById } from "../domain/airline.js";
import type { Leg } from "../domain/itinerary.js";
import { savingPercent, type Offer, type PassengerType } from "../domain/offer.js";
import type { Passengers } from "../domain/query.js";
import { formatDurationHm, localAsUtcMs, zonedToUtcMs } from "../domain/time-zone.js";
import type { ComparisonView } from "../presentation/views.js";
import type { ModeBAirline, ModeBAlternative, ModeBFlightLeg, ModeBOffer, ModeBSearchResult } from "./mode-b-schema.js";
import { formatHoursMinutes, sumCentavos, wireAmount, wireLocalDateTime } from "./scalars.js";

const decimal = (centavos: number): number => centavos / 100;

const strip = (s: string): string => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** Our numbering of cabins for `Classe` (the spec gives no values): 0 economy, 1 premium, 2 business, 3 first. */
export const cabinCode = (cabin: string): number => {
  const c = strip(cabin);
  if (c.includes("premium")) return 1;
  if (c.startsWith("execut") || c.startsWith("business")) return 2;
  if (c.startsWith("primeira") || c.startsWith("first")) return 3;
  return 0;
};

/** Period of the day of a local departure, for `Periodo`: 0 before 06h, 1 morning, 2 afternoon, 3 from 18h. */
export const dayPeriod = (localDeparture: string): number => {
  const hour = Number(localDeparture.slice(11, 13));
  return hour < 6 ? 0 : hour < 12 ? 1 : hour < 18 ? 2 : 3;
};

/** Minutes between landing from one leg and taking off on the next, at the same airport. */
const connectionMinutes = (previous: Leg, next: Leg): number => {
  const zone = next.departureTimeZone ?? previous.arrivalTimeZone;
  const ms = zone
    ? zonedToUtcMs(next.departure, zone) - zonedToUtcMs(previous.arrival, zone)
    : localAsUtcMs(next.departure) - localAsUtcMs(previous.arrival);
  return Math.round(ms / 60_000);
};

const toWireVoo = (leg: Leg, index: number, legs: readonly Leg[]): ModeBFlightLeg => {
  const previous = index > 0 ? legs[index - 1] : undefined;
  return {
    Numero: `${leg.carrier.iata}-${leg.flightNumber}`,
    Saida: wireLocalDateTime(leg.departure),
    Chegada: wireLocalDateTime(leg.arrival),
    Origem: leg.origin,
    Destino: leg.destination,
    Duracao: leg.durationMinutes,
    Tempo: formatHoursMinutes(leg.durationMinutes),
    TempoEspera: previous ? formatHoursMinutes(connectionMinutes(previous, leg)) : "",
    Classe: cabinCode(leg.cabin),
    ClasseStr: leg.cabin,
  };
};

const toWireAirline = (offer: Offer): ModeBAirline => {
  const known = airlineById(offer.airlineId);
  return {
    Id: offer.airlineId,
    Nome: known?.name ?? offer.validatingCarrier.name,
    Iata: known?.iata ?? offer.validatingCarrier.iata,
    AtivaBusca: true,
    Icao: known?.icao ?? "",
    Pais: known?.country ?? "",
    DadosCia: [],
    ConfiguracaoBagagem: [],
    CupomDescontoRestricao: [],
    TaxaEmbarque: [],
    Configuracao: [],
    LogResultado: [],
    LogConsulta: [],
    CacheConsulta: [],
    ConfigProxy: [],
    ProgramaFidelidadeTipo: [],
    ApiRequests: [],
    FranqueadoPolitica: [],
    Ids: null,
    _PageNumber: 0,
    PageNumber: 0,
    PageSize: 0,
    OrderBy: null,
    OrderDesc: false,
  };
};

/** Another seller's offer for the same flight, as an `Outros[]` element; `Valor` is its total with taxes. */
export const toWireAlternative = (offer: Offer): ModeBAlternative => ({
  Nome: offer.seller.name,
  Url: offer.seller.url,
  Valor: wireAmount(offer.total),
  Cabine: offer.cabin,
  OpcaoReserva: offer.bookingOption,
  Site: offer.seller.site,
});

/** The offer without `Outros`: every field of spec 2.6 computed from one domain offer. */
const toWireOfferBody = (offer: Offer, passengers: Passengers): Omit<ModeBOffer, "Outros"> => {
  const base = (type: PassengerType) => sumCentavos(offer.fares.filter((f) => f.type === type).map((f) => f.base));
  const childTaxes = sumCentavos(offer.fares.filter((f) => f.type === "CHD").map((f) => f.taxes));
  const legs = offer.itinerary.legs;
  return {
    Token: offer.fareToken,
    IdCia: offer.airlineId,
    CiaParceira: null,
    Cia: toWireAirline(offer),
    PontosAdulto: offer.miles?.pointsAdult ?? -1,
    PontosCrianca: offer.miles?.pointsChild ?? -1,
    QntdBagagem: offer.checkedBags,
    QtdBagagemInclusa: offer.checkedBags,
    Taxas: {
      IdCia: offer.airlineId,
      Servico: 0,
      ServicoChd: 0,
      // Embarque + EmbarqueChd = ValorTotalTaxas: infants' fees ride with the adults they sit with.
      Embarque: decimal(offer.taxes.amount - childTaxes),
      EmbarqueChd: decimal(childTaxes),
      EmissaoResgate: 0,
      ValorFranquia: 0,
      EmbarqueStr: null,
      Bagagens: null,
    },
    Voos: legs.map(toWireVoo),
    Tarifas: null,
    ValorAdulto: decimal(base("ADT")),
    ValorAdultoStr: null,
    ValorAdultoNaCia: wireAmount(offer.airlinePrice),
    ValorCrianca: decimal(base("CHD")),
    ValorBebe: decimal(base("INF")),
    ValorTotal: decimal(offer.total.amount - offer.taxes.amount),
    ValorTotalComTaxa: wireAmount(offer.total),
    ValorTotalTaxas: wireAmount(offer.taxes),
    FareOriginType: null,
    Origem: offer.itinerary.origin,
    Destino: offer.itinerary.destination,
    Saida: wireLocalDateTime(offer.itinerary.departure),
    Chegada: wireLocalDateTime(offer.itinerary.arrival),
    Duracao: offer.itinerary.durationMinutes,
    TempoTotalStr: formatDurationHm(offer.itinerary.durationMinutes),
    ValorTxServico: 0,
    PercentualEconomia: savingPercent(offer),
    FlightCode: legs.map((l) => `${l.carrier.iata}${l.flightNumber}`).join("/"),
    Periodo: dayPeriod(offer.itinerary.departure),
    Adultos: passengers.adults,
    Criancas: passengers.children,
    BagagensInclusas: null,
    Site: offer.seller.site,
    Nome: offer.seller.name,
    UrlPesquisa: offer.seller.url,
    Classe: cabinCode(offer.cabin),
  };
};

/**
 * Writes a Mode B comparison (spec 2.6): the flight's cheapest offer as the main fields, and every other
 * seller's offer for the same flight in `Outros`, cheapest first (as the view orders them).
 *
 * @example
 * const Ida = result.outbound.map(toWireComparison);
 */
export const toWireComparison = (view: ComparisonView): ModeBOffer => ({
  ...toWireOfferBody(view.main, view.passengers),
  Outros: view.others.map(toWireAlternative),
});

/**
 * Writes one offer of a single-airline search in the Mode B shape. There is nothing to compare it with, so
 * `Outros` is an empty array (the schema also accepts it absent, for readers of other producers).
 */
export const toWireSingleAirlineOffer = (offer: Offer, passengers: Passengers): ModeBOffer => ({
  ...toWireOfferBody(offer, passengers),
  Outros: [],
});

/** What a Mode B `Data` element is made of: already-mapped offers per direction. */
export interface ModeBResultInput {
  /** Search token to write as `TokenConsulta` (the search id), or null. */
  readonly searchToken: string | null;
  readonly passengers: Passengers;
  readonly outbound: readonly ModeBOffer[];
  /** Return offers; empty for a one-way search. */
  readonly inbound: readonly ModeBOffer[];
}

/** Writes the single Mode B `Data` element (spec 2.5); `Volta` is always present, empty for one-way. */
export const toWireModeBResult = (input: ModeBResultInput): ModeBSearchResult => ({
  TokenConsulta: input.searchToken,
  QntdAdulto: input.passengers.adults,
  QntdCrianca: input.passengers.children,
  QntdBebe: input.passengers.infants,
  Ida: [...input.outbound],
  Volta: [...input.inbound],
});
