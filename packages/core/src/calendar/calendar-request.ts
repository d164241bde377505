import * as z from "zod";
import type { FieldError } from "../envelope/envelope.js";
import type { SearchQuery } from "../query/query.js";
import { parseSearchRequest, type InvalidRequest, type RequestContext } from "../request/request.js";
import { readRequestFields } from "../request/request-fields.js";
import { legacyValue } from "../request/request-legacy.js";
import { REQUEST_MESSAGES } from "../request/request-messages.js";
import { SearchIdSchema, SearchRequestSchema } from "../request/request-schema.js";
import { MAX_FLEXIBLE_DAYS, MAX_FLEXIBLE_RETURN_DAYS, MAX_GRID_DAYS } from "./calendar-plan.js";

/** `DiasFlexiveis`: days on each side of `Ida`, 1 to {@link MAX_FLEXIBLE_DAYS}. */
export const DiasFlexiveisSchema = z.int().min(1).max(MAX_FLEXIBLE_DAYS);
/** `DiasFlexiveisVolta`: days on each side of `Volta` (a grid), 1 to {@link MAX_FLEXIBLE_RETURN_DAYS}. */
export const DiasFlexiveisVoltaSchema = z.int().min(1).max(MAX_FLEXIBLE_RETURN_DAYS);

/** The body of a new calendar: a search's (without paging or view) plus `DiasFlexiveis`, for the OpenAPI document. */
export const CalendarRequestSchema = SearchRequestSchema.omit({ NumeroPagina: true, QuantidadePorPagina: true, Filtros: true, Ordenacao: true })
  .extend({
    DiasFlexiveis: DiasFlexiveisSchema.meta({
      description: `Dias antes e depois de Ida que o calendário cobre, de 1 a ${MAX_FLEXIBLE_DAYS}. Dias antes de hoje (ou além de 365 dias) ficam de fora. Com Volta, cada dia mantém a estadia pedida (Volta - Ida).`,
      examples: [3],
    }),
    DiasFlexiveisVolta: DiasFlexiveisVoltaSchema.optional().meta({
      description: `Com Volta: dias antes e depois de Volta, de 1 a ${MAX_FLEXIBLE_RETURN_DAYS}, uma grade de cada ida por cada volta no mesmo dia ou depois (no máximo ${MAX_GRID_DAYS} dias de busca: (2 x DiasFlexiveis + 1) x (2 x DiasFlexiveisVolta + 1)). Ausente: cada dia mantém a estadia pedida.`,
      examples: [2],
    }),
  })
  .meta({
    id: "CalendarioRequest",
    description: "Corpo do calendário de preços: o de uma busca nas companhias (Companhia -1, null ou uma companhia; 1300 não) mais DiasFlexiveis.",
  });

/** A poll of a calendar by its id. */
export const CalendarPollSchema = z
  .looseObject({
    Token: SearchIdSchema.optional().meta({ description: "Id do calendário, do Token da resposta anterior." }),
    LeaseId: SearchIdSchema.optional().meta({ description: "Sinônimo de Token." }),
  })
  .meta({ id: "CalendarioPoll", description: "Nova consulta de um calendário em andamento, pelo seu id." });

/** Any body `POST /ConsultaAereo/Calendario` accepts: a new calendar or a poll. */
export const CalendarBodySchema = z.union([CalendarPollSchema, CalendarRequestSchema]);

/** The pt-BR messages of an invalid calendar request (the search's own rules keep theirs). */
export const CALENDAR_MESSAGES = {
  required: `DiasFlexiveis é obrigatório: informe quantos dias antes e depois de Ida o calendário cobre (de 1 a ${MAX_FLEXIBLE_DAYS}).`,
  range: `DiasFlexiveis deve ser um número inteiro entre 1 e ${MAX_FLEXIBLE_DAYS}.`,
  otaComparison: "O calendário busca as companhias (Companhia -1, null ou o id de uma companhia); a comparação entre agências (1300) não tem calendário.",
  returnRange: `DiasFlexiveisVolta deve ser um número inteiro entre 1 e ${MAX_FLEXIBLE_RETURN_DAYS}.`,
  returnNeedsVolta: "DiasFlexiveisVolta move a data de volta: informe também Volta (uma ida e volta).",
  gridTooLarge: `A grade de DiasFlexiveis por DiasFlexiveisVolta passa de ${MAX_GRID_DAYS} dias de busca: (2 x DiasFlexiveis + 1) x (2 x DiasFlexiveisVolta + 1) deve ser no máximo ${MAX_GRID_DAYS}.`,
} as const;

/** Members of a Consultar body a calendar ignores (any case). */
const NOT_A_CALENDARS = /^(numeropagina|quantidadeporpagina|filtros|ordenacao)$/i;

/** A valid calendar request: a new (or repeated) calendar, or a poll of one by its id. */
export type ParsedCalendarRequest =
  | {
      readonly kind: "calendar";
      readonly query: SearchQuery;
      readonly flexibleDays: number;
      /** `DiasFlexiveisVolta`: a grid of departures by returns; absent when each day keeps the stay asked. */
      readonly returnDays?: number | undefined;
    }
  | { readonly kind: "poll"; readonly token: string };

/** Reads an integer member of a calendar: undefined when absent (an error pushed when `required`), or its error pushed. */
const readDays = (body: object, ctx: RequestContext, errors: FieldError[], field: "DiasFlexiveis" | "DiasFlexiveisVolta", schema: z.ZodType<number>, messages: { readonly range: string; readonly required?: string }): number | undefined => {
  const raw = readRequestFields(body)(field);
  if (raw.kind === "conflict") return void errors.push({ Campo: field, Mensagem: REQUEST_MESSAGES.conflict(field) });
  const given = raw.kind === "value" ? (typeof raw.value === "string" ? raw.value.trim() : raw.value) : undefined;
  if (given === undefined || given === null || given === "") return messages.required ? void errors.push({ Campo: field, Mensagem: messages.required }) : undefined;
  const lenient = ctx.compat === "legacy" ? legacyValue(field, given) : { kind: "value" as const, value: given };
  const parsed = schema.safeParse(lenient.kind === "value" ? lenient.value : undefined);
  if (!parsed.success) return void errors.push({ Campo: field, Mensagem: messages.range });
  return parsed.data;
};

/**
 * Validates a body of `POST /ConsultaAereo/Calendario`: a Consultar body (the same rules and messages,
 * `compat` included; paging, filters and order are not a calendar's and are ignored) of an airline search
 * (`Companhia` -1, null or one airline, never 1300), plus `DiasFlexiveis`, the days on each side of `Ida`
 * (1 to 7), and with `Volta` optionally `DiasFlexiveisVolta` (1 to 3, a grid of departures by returns, at most
 * 49 cells). A body with `Token` or `LeaseId` polls a calendar by its id. Never throws; an invalid body names
 * every failing field.
 *
 * @example
 * const parsed = parseCalendarRequest({ Origem: "GRU", Destino: "SSA", Ida: resolveRelativeDate("+30"), DiasFlexiveis: 3 }, { airports, now: new Date() });
 */
export const parseCalendarRequest = (body: unknown, ctx: RequestContext): ParsedCalendarRequest | InvalidRequest => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { kind: "invalid", campos: [{ Campo: "body", Mensagem: REQUEST_MESSAGES.body }] };
  // Paging and the result's view are not a calendar's: left out before the search's rules read the body.
  const own = Object.fromEntries(Object.entries(body).filter(([k]) => !NOT_A_CALENDARS.test(k)));
  const search = parseSearchRequest(own, ctx);
  if (search.kind === "poll") return { kind: "poll", token: search.token };
  const errors: FieldError[] = search.kind === "invalid" ? [...search.campos] : [];
  if (search.kind === "query" && search.query.mode.kind === "ota-comparison") errors.push({ Campo: "Companhia", Mensagem: CALENDAR_MESSAGES.otaComparison });
  const flexibleDays = readDays(own, ctx, errors, "DiasFlexiveis", DiasFlexiveisSchema, { range: CALENDAR_MESSAGES.range, required: CALENDAR_MESSAGES.required });
  const returnDays = readDays(own, ctx, errors, "DiasFlexiveisVolta", DiasFlexiveisVoltaSchema, { range: CALENDAR_MESSAGES.returnRange });
  if (returnDays !== undefined && search.kind === "query" && search.query.returnDate === undefined) errors.push({ Campo: "DiasFlexiveisVolta", Mensagem: CALENDAR_MESSAGES.returnNeedsVolta });
  if (returnDays !== undefined && flexibleDays !== undefined && (2 * flexibleDays + 1) * (2 * returnDays + 1) > MAX_GRID_DAYS) errors.push({ Campo: "DiasFlexiveisVolta", Mensagem: CALENDAR_MESSAGES.gridTooLarge });
  if (errors.length > 0 || search.kind !== "query" || flexibleDays === undefined) return { kind: "invalid", campos: errors };
  return { kind: "calendar", query: search.query, flexibleDays, ...(returnDays === undefined ? {} : { returnDays }) };
};
