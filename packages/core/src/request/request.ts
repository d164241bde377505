import type * as z from "zod";
import type { AirportDirectory } from "../domain/airport.js";
import { ALL_AIRLINES, OTA_COMPARISON } from "../domain/airline.js";
import type { SearchMode, SearchQuery } from "../query/query.js";
import type { FieldError } from "../envelope/envelope.js";
import { addDays, checkDateWindow, MAX_DAYS_AHEAD, todayInSaoPaulo } from "./request-dates.js";
import { readRequestFields, type RawField, type RequestField } from "./request-fields.js";
import { legacyValue, type RequestCompat } from "./request-legacy.js";
import { REQUEST_MESSAGES as M } from "./request-messages.js";
import { readResultView } from "../envelope/view-members.js";
import type { ResultView } from "../query/result-view.js";
import {
  AdultosSchema,
  AirportCodeInputSchema,
  CompanhiaSchema,
  NumeroPaginaSchema,
  PassengerCountSchema,
  QuantidadePorPaginaSchema,
  RequestDateSchema,
  SearchIdSchema,
} from "./request-schema.js";

/** The page a valid request asks for. */
interface PageAsked {
  readonly page: number;
  readonly pageSize: number;
  /**
   * Only with `compat: "legacy"`, when the body names neither `NumeroPagina` nor `QuantidadePorPagina`:
   * the client expects the whole result in one answer, as the legacy API gave it (write it with
   * `snapshotToEnvelope`'s `pageSize: "all"`). `page`/`pageSize` then hold the spec's defaults.
   */
  readonly allResults?: true;
  /** Filters and order of the groups (`Filtros`, `Ordenacao`); absent when the body names neither (no filter, cheapest first). */
  readonly view?: ResultView;
}

/** A valid request: a new (or repeated) search, or a poll of a running one by its id. */
export type ParsedRequest =
  | ({ readonly kind: "query"; readonly query: SearchQuery } & PageAsked)
  | ({ readonly kind: "poll"; readonly token: string } & PageAsked);

/** An invalid request: every failing field, named as the spec writes it, with a pt-BR message. Never empty. */
export interface InvalidRequest {
  readonly kind: "invalid";
  readonly campos: readonly FieldError[];
}

/** What {@link parseSearchRequest} needs besides the body. */
export interface RequestContext {
  /** Known airports: `Origem` and `Destino` must be among them. */
  readonly airports: AirportDirectory;
  /** The current instant; "today" is its date in São Paulo. */
  readonly now: Date;
  /**
   * `"spec"` (default): the spec's strict rules. `"legacy"`, for clients of the legacy API that cannot be
   * changed: integers as text (`"1"`), `Ida`/`Volta` with a zone-less time part (`YYYY-MM-DDT00:00:00`),
   * `Volta` `0001-01-01` as "no return", and the whole result when no page is asked (`allResults`).
   * Everything else, and every message, stays as in spec mode.
   */
  readonly compat?: RequestCompat | undefined;
}

/** Default `QuantidadePorPagina` (decisions.md). */
export const DEFAULT_PAGE_SIZE = 10;

const INVALID = Symbol("invalid");
type Read<T> = T | undefined | typeof INVALID;

/** Reads members through their schemas; `null`, a blank string or an absent key all mean "absent". */
const createReader = (raw: (f: RequestField) => RawField, errors: FieldError[], compat: RequestCompat) => {
  const fail = (Campo: string, Mensagem: string): typeof INVALID => {
    errors.push({ Campo, Mensagem });
    return INVALID;
  };
  const read = <T>(field: RequestField, schema: z.ZodType<T>, message: string): Read<T> => {
    const r = raw(field);
    if (r.kind === "conflict") return fail(field, M.conflict(field));
    if (r.kind === "absent" || r.value === null) return undefined;
    const trimmed = typeof r.value === "string" ? r.value.trim() : r.value;
    if (trimmed === "") return undefined;
    const lenient = compat === "legacy" ? legacyValue(field, trimmed) : { kind: "value" as const, value: trimmed };
    if (lenient.kind === "absent") return undefined;
    const value = lenient.value;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : fail(field, message);
  };
  const present = (field: RequestField): boolean => {
    const r = raw(field);
    return r.kind === "conflict" || (r.kind === "value" && r.value !== null && !(typeof r.value === "string" && r.value.trim() === ""));
  };
  return { read, fail, present };
};

const orDefault = <T>(value: Read<T>, fallback: T): T | typeof INVALID => (value === undefined ? fallback : value);

const modeOf = (companhia: number): SearchMode =>
  companhia === ALL_AIRLINES
    ? { kind: "all-airlines" }
    : companhia === OTA_COMPARISON
      ? { kind: "ota-comparison" }
      : { kind: "single-airline", airlineId: companhia };

type Reader = ReturnType<typeof createReader>;

const readAirport = (r: Reader, field: "Origem" | "Destino", airports: AirportDirectory): string | typeof INVALID => {
  const code = r.read(field, AirportCodeInputSchema, M.airportCode(field));
  if (code === INVALID) return INVALID;
  if (code === undefined) return r.fail(field, M.required[field]);
  const upper = code.toUpperCase();
  return airports.get(upper) ? upper : r.fail(field, M.airportUnknown(field, upper));
};

const readDate = (r: Reader, field: "Ida" | "Volta", today: string): string | undefined | typeof INVALID => {
  const date = r.read(field, RequestDateSchema, M.date(field));
  if (date === INVALID || date === undefined) return date;
  const where = checkDateWindow(date, today);
  if (where === "past") return r.fail(field, M.datePast(field, today));
  if (where === "too-far") return r.fail(field, M.dateTooFar(field, addDays(today, MAX_DAYS_AHEAD)));
  return date;
};

const readQuery = (r: Reader, ctx: RequestContext): SearchQuery | typeof INVALID => {
  const today = todayInSaoPaulo(ctx.now);
  const origin = readAirport(r, "Origem", ctx.airports);
  const destination = readAirport(r, "Destino", ctx.airports);
  if (origin !== INVALID && destination !== INVALID && origin === destination) r.fail("Destino", M.sameAirport);
  const departure = readDate(r, "Ida", today);
  if (departure === undefined) r.fail("Ida", M.required.Ida);
  const ret = readDate(r, "Volta", today);
  if (typeof departure === "string" && typeof ret === "string" && ret < departure) r.fail("Volta", M.returnBeforeDeparture);
  const adults = orDefault(r.read("Adultos", AdultosSchema, M.Adultos), 1);
  const children = orDefault(r.read("Criancas", PassengerCountSchema, M.Criancas), 0);
  const infants = orDefault(r.read("Bebes", PassengerCountSchema, M.Bebes), 0);
  if (adults !== INVALID && children !== INVALID && adults + children > 9) r.fail("Criancas", M.tooManyPassengers);
  if (adults !== INVALID && infants !== INVALID && infants > adults) r.fail("Bebes", M.infantsOverAdults);
  const companhia = orDefault(r.read("Companhia", CompanhiaSchema, M.Companhia), ALL_AIRLINES);
  if (
    origin === INVALID ||
    destination === INVALID ||
    typeof departure !== "string" ||
    ret === INVALID ||
    adults === INVALID ||
    children === INVALID ||
    infants === INVALID ||
    companhia === INVALID
  ) {
    return INVALID;
  }
  return {
    origin,
    destination,
    departureDate: departure,
    ...(ret === undefined ? {} : { returnDate: ret }),
    passengers: { adults, children, infants },
    mode: modeOf(companhia),
  };
};

const readView = (raw: (f: RequestField) => RawField, errors: FieldError[]): { view: ResultView } | Record<string, never> => {
  const value = (field: "Filtros" | "Ordenacao"): unknown => {
    const r = raw(field);
    if (r.kind === "conflict") {
      errors.push({ Campo: field, Mensagem: M.conflict(field) });
      return undefined;
    }
    return r.kind === "value" ? r.value : undefined;
  };
  const filtros = value("Filtros");
  const ordenacao = value("Ordenacao");
  const none = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
  return none(filtros) && none(ordenacao) ? {} : { view: readResultView(filtros, ordenacao, errors) };
};

const isObjectBody = (body: unknown): body is object =>
  typeof body === "object" && body !== null && !Array.isArray(body);

/**
 * Validates a request body of `POST /ConsultaAereo/Consultar` (decisions.md "Request rules" and "Pagination").
 * Never throws, whatever the input. Keys are case- and accent-insensitive; unknown keys are ignored; `null`
 * or a blank string count as absent. A body with a `Token` or `LeaseId` is a poll (its query members are
 * ignored; `Token` wins over `LeaseId`). An invalid body names every failing field. `ctx.compat: "legacy"`
 * reads the body as clients of the legacy API write it (see {@link RequestContext.compat}).
 *
 * @example
 * const parsed = parseSearchRequest(await request.json(), { airports, now: new Date() });
 * if (parsed.kind === "invalid") return errorEnvelope("REQUISICAO_INVALIDA", { requestId, campos: parsed.campos });
 */
export const parseSearchRequest = (body: unknown, ctx: RequestContext): ParsedRequest | InvalidRequest => {
  if (!isObjectBody(body)) return { kind: "invalid", campos: [{ Campo: "body", Mensagem: M.body }] };
  const errors: FieldError[] = [];
  const compat = ctx.compat ?? "spec";
  const raw = readRequestFields(body);
  const r = createReader(raw, errors, compat);
  const page = orDefault(r.read("NumeroPagina", NumeroPaginaSchema, M.NumeroPagina), 1);
  const pageSize = orDefault(r.read("QuantidadePorPagina", QuantidadePorPaginaSchema, M.QuantidadePorPagina), DEFAULT_PAGE_SIZE);
  const token = r.read("Token", SearchIdSchema, M.searchId("Token"));
  const leaseId = token === undefined ? r.read("LeaseId", SearchIdSchema, M.searchId("LeaseId")) : undefined;
  const searchId = token ?? leaseId;
  // Legacy clients never page: the legacy API answered every group when no page was asked.
  const all = compat === "legacy" && !r.present("NumeroPagina") && !r.present("QuantidadePorPagina") ? { allResults: true as const } : {};
  const view = readView(raw, errors);
  if (searchId !== undefined) {
    if (errors.length > 0 || searchId === INVALID || page === INVALID || pageSize === INVALID) return { kind: "invalid", campos: errors };
    return { kind: "poll", token: searchId, page, pageSize, ...view, ...all };
  }
  const query = readQuery(r, ctx);
  // Cross-field rules (Destino = Origem, passenger totals, Volta before Ida) only record their failure.
  if (errors.length > 0 || query === INVALID || page === INVALID || pageSize === INVALID) return { kind: "invalid", campos: errors };
  return { kind: "query", query, page, pageSize, ...view, ...all };
};
