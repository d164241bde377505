import { airlineById, airlineByIata } from "../domain/airline.js";
import { discountOf, savingPercent, type Baggage, type Offer, type PassengerFare, type PassengerType } from "../domain/offer.js";
import type { Passengers } from "../query/query.js";
import { formatDurationHm } from "../domain/time-zone.js";
import type { ComparisonView } from "../views/views.js";
import { cabinBagText } from "./mode-a.js";
import { cabinCode, flightCodeOf, toWireVoos } from "./mode-b-legs.js";
import type { ModeBAirline, ModeBAlternative, ModeBIncludedBag, ModeBOffer, ModeBSearchResult } from "./mode-b-schema.js";
import { wireAmount, wireLocalDateTime } from "./scalars.js";

const decimal = (centavos: number): number => centavos / 100;

export { cabinCode } from "./mode-b-legs.js";

/** Period of the day of a local departure, for `Periodo`: 0 before 06h, 1 morning, 2 afternoon, 3 from 18h. */
export const dayPeriod = (localDeparture: string): number => {
  const hour = Number(localDeparture.slice(11, 13));
  return hour < 6 ? 0 : hour < 12 ? 1 : hour < 18 ? 2 : 3;
};

/**
 * The airline object (`Cia`) of an offer: its airline's, or, for an offer of a programme (Livelo) or the
 * interline source, the airline that flies it (`IdCia` still names the source).
 */
const toWireAirline = (offer: Offer): ModeBAirline => {
  const source = airlineById(offer.airlineId);
  const known = source?.kind === "airline" ? source : airlineByIata(offer.validatingCarrier.iata);
  return {
    Id: known?.id ?? offer.airlineId,
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

/** Words for a checked allowance in `BagagensInclusas` when the source gave none, as real answers word it. */
const checkedLineText = (n: number): string => `Até ${n} ${n === 1 ? "bagagem" : "bagagens"} para despachar`;

/** The bags of a fare as `BagagensInclusas` lines: carry-on (`Bagagem` 0) when known, checked (1) when any. */
export const toWireIncludedBags = (baggage: Baggage): ModeBIncludedBag[] => [
  ...(baggage.cabin !== undefined && baggage.cabin > 0
    ? [{ Bagagem: 0 as const, TextoBagagem: baggage.cabinText || cabinBagText(baggage.cabin), Quantidade: baggage.cabin }]
    : []),
  ...(baggage.checked > 0
    ? [{ Bagagem: 1 as const, TextoBagagem: baggage.checkedText || checkedLineText(baggage.checked), Quantidade: baggage.checked }]
    : []),
];

/** What one passenger of a type pays, in centavos (the wire's per-passenger members), rounded to the centavo. */
const perPassenger = (fares: readonly PassengerFare[], type: PassengerType, amount: (f: PassengerFare) => number): number => {
  const ofType = fares.filter((f) => f.type === type);
  const count = ofType.reduce((n, f) => n + f.count, 0);
  return count > 0 ? Math.round(ofType.reduce((n, f) => n + amount(f), 0) / count) : 0;
};

/**
 * The airline's own price for ONE adult, without taxes (`ValorAdultoNaCia`, as real answers mean it): the
 * airline's fare for the booking (its price less the offer's own taxes and fees), in the adult's proportion
 * of the booking's fare (the reader's inverse: it scales `ValorAdultoNaCia` by `ValorTotal / ValorAdulto`).
 * 0 when the offer has no airline price.
 */
const airlineAdultFare = (offer: Offer, adultBase: number, passengers: Passengers): number => {
  if (offer.airlinePrice.amount <= 0) return 0;
  const airlineBase = Math.max(0, offer.airlinePrice.amount - offer.taxes.amount);
  const bookingBase = offer.total.amount - offer.taxes.amount;
  return bookingBase > 0 && adultBase > 0
    ? Math.round((airlineBase * adultBase) / bookingBase)
    : Math.round(airlineBase / Math.max(1, passengers.adults));
};

/**
 * The fare family's money as `Tarifas` lists it for ONE adult and ONE child, without taxes, and the adult's
 * boarding fee: what the source listed (`PassengerFare.listed`: LATAM lists a boarding fee of 0, and the
 * family's own fare on award offers), else the offer's own per-passenger figures.
 */
const familyMoney = (offer: Offer): { ValorAdulto: number; ValorCrianca: number; TaxaEmbarque: number } => {
  const adult = offer.fares.find((f) => f.type === "ADT")?.listed;
  const child = offer.fares.find((f) => f.type === "CHD")?.listed;
  return {
    ValorAdulto: decimal(adult?.fare.amount ?? perPassenger(offer.fares, "ADT", (f) => f.base.amount)),
    ValorCrianca: decimal(child?.fare.amount ?? perPassenger(offer.fares, "CHD", (f) => f.base.amount)),
    TaxaEmbarque: decimal(adult?.boarding?.amount ?? perPassenger(offer.fares, "ADT", boardingOf)),
  };
};

/** A fare's boarding fees: its taxes without the seller's fee. */
const boardingOf = (f: PassengerFare): number => f.taxes.amount - (f.serviceFee?.amount ?? 0);

/**
 * The offer without `Outros`: every field of spec 2.6 computed from one domain offer, and the members its source
 * wrote its own way written back as it wrote them (docs/wire-semantics.md). `named`: whether `Nome`, `Site` and
 * `UrlPesquisa` name the seller; a single-airline answer's offers are the airline's own, and real answers write
 * them null there.
 */
const toWireOfferBody = (offer: Offer, passengers: Passengers, named = true): Omit<ModeBOffer, "Outros"> => {
  const fares = offer.fares;
  const adultBase = perPassenger(fares, "ADT", (f) => f.base.amount);
  const childBase = perPassenger(fares, "CHD", (f) => f.base.amount);
  const adultBoarding = perPassenger(fares, "ADT", boardingOf);
  // The seller's fee as the upstream writes it: a percentage of the fare, negative for a discount (on an award
  // fare written as the source wrote it, though not charged).
  const percent = discountOf(offer).percent;
  const servico = percent === 0 ? 0 : -percent;
  const bags = toWireIncludedBags(offer.baggage);
  const legs = offer.itinerary.legs;
  return {
    Token: offer.fareToken,
    IdCia: offer.airlineId,
    CiaParceira: null,
    Cia: toWireAirline(offer),
    PontosAdulto: offer.miles?.pointsAdult ?? -1,
    PontosCrianca: offer.miles?.pointsChild ?? offer.seller.cashChildPoints ?? -1,
    QntdBagagem: offer.baggage.bagCount ?? offer.baggage.checked,
    QtdBagagemInclusa: offer.baggage.includedCount ?? offer.baggage.checked,
    Taxas: {
      IdCia: offer.airlineId,
      // Servico is a percentage of the fare (negative: the seller's discount), Embarque one adult's boarding
      // fees. Infants' fees have no member of their own: they are in ValorTotalTaxas only.
      Servico: servico,
      ServicoChd: passengers.children > 0 ? servico : 0,
      Embarque: decimal(adultBoarding),
      EmbarqueChd: decimal(perPassenger(fares, "CHD", boardingOf)),
      EmissaoResgate: 0,
      ValorFranquia: 0,
      EmbarqueStr: null,
      Bagagens: null,
    },
    Voos: toWireVoos(legs),
    Tarifas: offer.fareFamily
      ? [{ SegmentClass: null, Tipo: offer.fareFamily, ...familyMoney(offer), Classe: offer.cabin, BagagensInclusas: bags }]
      : null,
    ValorAdulto: decimal(adultBase),
    ValorAdultoStr: null,
    ValorAdultoNaCia: decimal(airlineAdultFare(offer, adultBase, passengers)),
    ValorCrianca: decimal(childBase),
    ValorBebe: decimal(perPassenger(fares, "INF", (f) => f.base.amount)),
    ValorTotal: decimal(offer.total.amount - offer.taxes.amount),
    ValorTotalComTaxa: wireAmount(offer.total),
    ValorTotalTaxas: wireAmount(offer.taxes),
    FareOriginType: null,
    Origem: offer.itinerary.origin,
    Destino: offer.itinerary.destination,
    Saida: wireLocalDateTime(offer.itinerary.departure),
    Chegada: wireLocalDateTime(offer.itinerary.arrival),
    Duracao: offer.itinerary.durationMinutes,
    // decisions.md: `<HH>h <MM>m` in what we produce, though real cash offers say `01: 05`.
    TempoTotalStr: formatDurationHm(offer.itinerary.durationMinutes),
    // Real answers write 0 here, discount or not: the discount is Servico's percentage, in ValorTotalTaxas.
    ValorTxServico: 0,
    PercentualEconomia: savingPercent(offer),
    FlightCode: flightCodeOf(legs),
    Periodo: dayPeriod(offer.itinerary.departure),
    Adultos: passengers.adults,
    Criancas: passengers.children,
    BagagensInclusas: bags,
    Site: named ? offer.seller.site : null,
    Nome: named ? offer.seller.name : null,
    UrlPesquisa: named ? offer.seller.url : null,
    Classe: cabinCode(offer.cabin),
  };
};

/**
 * Writes a Mode B comparison (spec 2.6): the flight's cheapest offer as the main fields, its seller's other
 * fares for the flight as further `Tarifas` (fare options of that offer), and the OTHER sellers' offers for the
 * same flight in `Outros`, cheapest first (as the view orders them).
 *
 * @example
 * const Ida = result.outbound.map(toWireComparison);
 */
export const toWireComparison = (view: ComparisonView): ModeBOffer => {
  const body = toWireOfferBody(view.main, view.passengers);
  if (view.fareOptions.length === 0) return { ...body, Outros: view.others.map(toWireAlternative) };
  const fareOf = (offer: Offer) => ({
    SegmentClass: null,
    Tipo: offer.fareFamily ?? offer.bookingOption,
    ...familyMoney(offer),
    Classe: offer.cabin,
    BagagensInclusas: toWireIncludedBags(offer.baggage),
  });
  const tarifas = [
    fareOf(view.main),
    ...view.fareOptions.map((o) => ({ ...fareOf(o), Token: o.fareToken, ValorTotalComTaxa: wireAmount(o.total), OpcaoReserva: o.bookingOption, Url: o.seller.url })),
  ];
  return { ...body, Tarifas: tarifas, Outros: view.others.map(toWireAlternative) };
};

/**
 * Writes one offer of a single-airline search in the Mode B shape. There is nothing to compare it with, so
 * `Outros` is an empty array (the schema also accepts it absent, for readers of other producers). An offer
 * of the airline itself (or of its programme) names no seller: `Nome`, `Site` and `UrlPesquisa` are null, as
 * real single-airline answers write them; an agency's offer keeps them.
 */
export const toWireSingleAirlineOffer = (offer: Offer, passengers: Passengers): ModeBOffer => ({
  ...toWireOfferBody(offer, passengers, offer.seller.kind === "ota"),
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
