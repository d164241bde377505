import { ALL_AIRLINES, OTA_COMPARISON, parseSearchRequest, type AirportDirectory, type FieldError } from "@voar/core";
import type { CalendarRequest, SearchRequest } from "@voar/http-adapter/fetch";
import type { AirportSuggestion } from "../../shared/demo-config.js";

/** Which search the person asks for. */
export type SearchModeChoice = "todas" | "otas" | "companhia";

/** An airport field: what was typed, and the airport picked from the suggestions, if any. */
export interface AirportFieldValue {
  readonly text: string;
  readonly airport?: AirportSuggestion | undefined;
}

/** Everything the search form holds. */
export interface SearchFormValues {
  readonly origem: AirportFieldValue;
  readonly destino: AirportFieldValue;
  readonly roundTrip: boolean;
  readonly ida: string;
  readonly volta: string;
  readonly adultos: number;
  readonly criancas: number;
  readonly bebes: number;
  readonly modo: SearchModeChoice;
  /** Companhia id when `modo` is `companhia`. */
  readonly companhia: number;
  /** Days on each side of `ida` the price calendar above the results covers; 0: no calendar. */
  readonly diasFlexiveis: number;
}

/** The price calendar's choices: none, a week (±3 days) or 15 days (±7). */
export const FLEXIBLE_DAYS = [0, 3, 7] as const;

/** The form's fields, by which the API's `Erro.Campos` are shown next to what the person typed. */
export type FormField = "origem" | "destino" | "ida" | "volta" | "adultos" | "criancas" | "bebes" | "modo";

/** A message per field. */
export type FieldMessages = Partial<Readonly<Record<FormField, string>>>;

const FIELD_OF: Readonly<Record<string, FormField>> = {
  Origem: "origem",
  Destino: "destino",
  Ida: "ida",
  Volta: "volta",
  Adultos: "adultos",
  Criancas: "criancas",
  Bebes: "bebes",
  Companhia: "modo",
};

/** Items per page the page asks the API for. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** The `Companhia` of a mode choice. */
export const companhiaOf = (v: Pick<SearchFormValues, "modo" | "companhia">): number =>
  v.modo === "todas" ? ALL_AIRLINES : v.modo === "otas" ? OTA_COMPARISON : v.companhia;

/** The IATA code of an airport field: the airport picked, or three letters typed. */
export const airportCodeOf = (v: AirportFieldValue): string => v.airport?.iata ?? v.text.trim().toUpperCase();

/** The request body of the form, page 1 unless told. */
export const requestOf = (v: SearchFormValues, paging: { readonly page?: number; readonly pageSize?: number } = {}): SearchRequest => ({
  Origem: airportCodeOf(v.origem),
  Destino: airportCodeOf(v.destino),
  Ida: v.ida,
  ...(v.roundTrip && v.volta ? { Volta: v.volta } : {}),
  Adultos: v.adultos,
  Criancas: v.criancas,
  Bebes: v.bebes,
  Companhia: companhiaOf(v),
  NumeroPagina: paging.page ?? 1,
  QuantidadePorPagina: paging.pageSize ?? PAGE_SIZES[0],
});

/**
 * The price calendar of the form (`POST /ConsultaAereo/Calendario`): the same query with `DiasFlexiveis`;
 * undefined when the person wants none, or for the OTA comparison, which has no calendar.
 */
export const calendarRequestOf = (v: SearchFormValues): CalendarRequest | undefined => {
  if (v.diasFlexiveis <= 0 || v.modo === "otas") return undefined;
  const { NumeroPagina: _page, QuantidadePorPagina: _size, ...query } = requestOf(v);
  return { ...query, DiasFlexiveis: v.diasFlexiveis };
};

/** API field errors as messages next to the form's fields; the first message of a field wins. */
export const fieldMessagesOf = (campos: readonly FieldError[]): FieldMessages => {
  const out: Partial<Record<FormField, string>> = {};
  for (const c of campos) {
    const field = FIELD_OF[c.Campo];
    if (field && out[field] === undefined) out[field] = c.Mensagem;
  }
  return out;
};

/**
 * Checks the form with the service's own rules (core's `parseSearchRequest`, the validator the API runs),
 * so that the messages shown next to the fields are the API's. `airports` needs to know only the two
 * airports of the form. A round trip without a return date is caught here, as the API cannot know it was meant.
 */
export const validateForm = (v: SearchFormValues, airports: AirportDirectory, now: Date): FieldMessages => {
  const parsed = parseSearchRequest(requestOf(v), { airports, now });
  const messages: Partial<Record<FormField, string>> = parsed.kind === "invalid" ? { ...fieldMessagesOf(parsed.campos) } : {};
  if (v.roundTrip && !v.volta && messages.volta === undefined) messages.volta = "Informe a data da volta, ou escolha só ida.";
  return messages;
};

/** A directory that knows only the given airports: enough for {@link validateForm}. */
export const directoryOf = (known: readonly (AirportSuggestion | undefined)[]): AirportDirectory => {
  const byCode = new Map(known.filter((a): a is AirportSuggestion => a !== undefined).map((a) => [a.iata, a]));
  return { get: (code) => byCode.get(code.toUpperCase()), search: () => [] };
};

const DAY_MS = 86_400_000;
const isDate = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));
const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The stay of a return the form proposes when it has none of its own: a week. */
export const DEFAULT_STAY_DAYS = 7;

/** The form's stay (`volta - ida`, in days), or {@link DEFAULT_STAY_DAYS} when its dates give none. */
const stayOf = (v: Pick<SearchFormValues, "ida" | "volta">): number =>
  isDate(v.ida) && isDate(v.volta) && daysBetween(v.ida, v.volta) >= 0 ? daysBetween(v.ida, v.volta) : DEFAULT_STAY_DAYS;

/**
 * The form with another departure date (typed, or a day of the price calendar clicked): the return moves with it,
 * keeping the stay the form had, so that a round trip chosen now, or later, is one the API accepts.
 */
export const withIda = (v: SearchFormValues, ida: string): SearchFormValues =>
  isDate(ida) ? { ...v, ida, volta: addDays(ida, stayOf(v)) } : { ...v, ida };

/** The form switched to a round trip (or back): a return missing, or before the departure, becomes the departure plus a week. */
export const withRoundTrip = (v: SearchFormValues, roundTrip: boolean): SearchFormValues =>
  roundTrip && isDate(v.ida) && !(isDate(v.volta) && daysBetween(v.ida, v.volta) >= 0) ? { ...v, roundTrip, volta: addDays(v.ida, DEFAULT_STAY_DAYS) } : { ...v, roundTrip };

/** `YYYY-MM-DD` some days after today, in the person's own calendar. */
export const daysFromToday = (days: number, now = new Date()): string => {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

/** The form a newcomer sees: Belo Horizonte to Rio, a month from now, one adult, every airline. */
export const initialFormValues = (now = new Date()): SearchFormValues => ({
  origem: { text: "CNF" },
  destino: { text: "SDU" },
  roundTrip: false,
  ida: daysFromToday(30, now),
  volta: daysFromToday(37, now),
  adultos: 1,
  criancas: 0,
  bebes: 0,
  modo: "todas",
  companhia: 1,
  diasFlexiveis: 3,
});
