/**
 * Hand-made upstream answers in the wire shapes, with invented values, for the cases the recorded answers
 * do not show (round trips, `01:25`, `TokenConsultaSvc`, `Outros`, odd errors). Each builder takes overrides.
 */
import type { Airport, AirportDirectory } from "../../src/domain/airport.js";

type Json = Record<string, unknown>;

/** A leg of a Mode A segment. */
export const legA = (o: Json = {}): Json => ({
  managedBy: { name: "LATAM", iata: "LA" },
  operatedBy: { name: "LATAM", iata: "LA" },
  flightNumber: 3100,
  duration: 90,
  departure: "GRU",
  arrival: "GIG",
  departureDate: "2025-08-01T08:00:00",
  arrivalDate: "2025-08-01T09:30:00",
  seatClass: { code: null, description: "Economica" },
  ...o,
});

/** A Mode A segment (one alternative itinerary). */
export const segmentA = (o: Json = {}): Json => ({
  departure: "GRU",
  arrival: "GIG",
  rateToken: "rt-1",
  TokenConsultaSvc: "search-1",
  routeRPH: 0,
  duration: 90,
  fareProfile: { baggage: { isIncluded: true, type: "CHECKED_BAGGAGE", quantity: 1 }, services: [] },
  legs: [legA()],
  FidelityProgram: "LATAM Pass",
  IdCiaResponsavel: 1,
  ValorSegmento: 400,
  PontosAdulto: 20000,
  PontosCrianca: 0,
  ...o,
});

/** A Mode A price group. */
export const groupA = (o: Json = {}): Json => ({
  validatingBy: { name: "LATAM", iata: "LA" },
  fareGroup: {
    currency: "BRL",
    priceWithTax: 450.55,
    priceWithoutTax: 400,
    priceInCompany: 900,
    fares: [{ passengersType: "ADT", passengersCount: 1, priceWithTax: 450.55, priceWithoutTax: 400, taxes: null }],
  },
  segments: [segmentA()],
  segmentsBack: null,
  ...o,
});

/** A Mode A envelope around some price groups. */
export const envelopeA = (flights: unknown[], o: Json = {}): Json => ({
  Success: true,
  HasResult: true,
  ExErro: null,
  MensagemErro: null,
  Data: [{ ActiveProviders: [], flights, meta: { airports: null, WayFilter: null, ReturnFilter: null } }],
  Completed: true,
  TotalItens: flights.length,
  ...o,
});

/** A Mode B offer (an element of `Ida` / `Volta`). */
export const offerB = (o: Json = {}): Json => ({
  Token: "tk-1",
  IdCia: 3,
  Cia: null,
  CiaParceira: null,
  PontosAdulto: -1,
  PontosCrianca: -1,
  Taxas: { Embarque: 30, EmbarqueChd: 0, Servico: 0, ServicoChd: 0 },
  Voos: [
    { Numero: "AD-4000", Saida: "2025-08-01T10:00:00", Chegada: "2025-08-01T11:25:00", Origem: "GRU", Destino: "GIG", Duracao: 0, Tempo: "01:25", ClasseStr: "Economica" },
  ],
  ValorAdulto: 500,
  ValorAdultoNaCia: 500,
  ValorTotal: 500,
  ValorTotalComTaxa: 530,
  ValorTotalTaxas: 30,
  Origem: "GRU",
  Destino: "GIG",
  Duracao: 0,
  TempoTotalStr: "01:25",
  BagagensInclusas: [],
  Site: null,
  Nome: null,
  UrlPesquisa: null,
  ...o,
});

/** A Mode B envelope (single-airline or OTA comparison). */
export const envelopeB = (ida: unknown[], volta: unknown[] = [], o: Json = {}): Json => ({
  Success: true,
  HasResult: true,
  Data: [{ TokenConsulta: "search-b", QntdAdulto: 1, QntdCrianca: 0, QntdBebe: 0, Ida: ida, Volta: volta }],
  Completed: true,
  TotalItens: 0,
  ...o,
});

const zone = (iata: string, timeZone: string): Airport => ({
  iata, name: iata, city: iata, country: "", latitude: 0, longitude: 0, timeZone,
});

const KNOWN = new Map([zone("GRU", "America/Sao_Paulo"), zone("GIG", "America/Sao_Paulo"), zone("LIS", "Europe/Lisbon")].map((a) => [a.iata, a]));

/** A directory of GRU, GIG and LIS. */
export const someAirports: AirportDirectory = { get: (iata) => KNOWN.get(iata.toUpperCase()), search: () => [] };

/** A directory that knows no airport (no time zones). */
export const noAirports: AirportDirectory = { get: () => undefined, search: () => [] };
