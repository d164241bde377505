import * as z from "zod";
import type { FieldError } from "../envelope/envelope.js";
import { centavosFromDecimal } from "../domain/money.js";
import type { SearchQuery } from "../query/query.js";
import { parseSearchRequest, type InvalidRequest, type RequestContext } from "../request/request.js";
import { addDays, epochDay, MAX_DAYS_AHEAD, todayInSaoPaulo } from "../request/request-dates.js";
import { SearchRequestSchema } from "../request/request-schema.js";
import { CABINS, type Cabin } from "./alert-cabin.js";

/** Days on each side of `Ida` a watch may cover (a window of up to ±7 days). */
export const MAX_ALERT_FLEXIBLE_DAYS = 7;
/** Longest `Referencia` (the agency's own id of the traveller or the request). */
export const MAX_ALERT_REFERENCE = 128;
/** Longest webhook URL. */
export const MAX_WEBHOOK_URL = 2_048;

/** What a watch watches: cash fares, award fares, or both (`Tipo`). */
export type AlertKind = "cash" | "miles" | "both";
const KIND_WIRE = { dinheiro: "cash", milhas: "miles", ambos: "both" } as const satisfies Record<string, AlertKind>;
/** `Tipo` on the wire, by kind. */
export const ALERT_KIND_WIRE: { readonly [K in AlertKind]: keyof typeof KIND_WIRE } = { cash: "dinheiro", miles: "milhas", both: "ambos" };

/** The days a watch covers, as asked. */
export type AlertWindow =
  | { readonly kind: "day" }
  | { readonly kind: "flexible"; readonly days: number }
  | { readonly kind: "month"; readonly month: string };

/** A valid new price watch: the route's query (its first day), every day it watches, and what makes it fire. */
export interface AlertSpec {
  /** The query of the route (departure date: the first day watched; one way). */
  readonly query: SearchQuery;
  /** Every departure day watched, in date order, from today on. */
  readonly days: readonly string[];
  readonly window: AlertWindow;
  /** The cabin class asked; absent: any. */
  readonly cabin?: Cabin | undefined;
  readonly kind: AlertKind;
  /** Cash ceiling, centavos (the whole booking, taxes included); absent: any new low. */
  readonly ceilingCash?: number | undefined;
  /** Points ceiling (every passenger); absent: any new low. */
  readonly ceilingPoints?: number | undefined;
  /** The last day the watch runs (`YYYY-MM-DD`, São Paulo); it ends when that day does. */
  readonly expiresOn: string;
  /** Where its alerts are posted; absent: the stream and the list only. */
  readonly webhook?: string | undefined;
  readonly reference?: string | undefined;
}

/** The pt-BR messages of an invalid watch (the search's own rules keep theirs). */
export const ALERT_MESSAGES = {
  body: "O corpo deve ser um objeto JSON com os campos do alerta.",
  window: "Informe Ida (um dia, com DiasFlexiveis opcional) ou Mes (um mês inteiro, AAAA-MM), não os dois.",
  flexible: `DiasFlexiveis deve ser um número inteiro entre 0 e ${MAX_ALERT_FLEXIBLE_DAYS}.`,
  month: "Mes deve ser um mês no formato AAAA-MM, deste mês em diante e até 365 dias à frente.",
  noDays: "Nenhum dia do período pedido está entre hoje e 365 dias à frente.",
  volta: "Um alerta acompanha só a ida: crie outro alerta para a volta.",
  otaComparison: "Um alerta acompanha as companhias (Companhia -1, null ou o id de uma companhia); a comparação entre agências (1300) não tem alerta.",
  cabin: `Cabine deve ser uma de: ${CABINS.join(", ")} (ou ausente: qualquer cabine).`,
  kind: "Tipo deve ser dinheiro, milhas ou ambos.",
  ceilingCash: "TetoValor deve ser um valor em reais maior que zero, com até 2 casas decimais.",
  ceilingPoints: "TetoPontos deve ser um número inteiro de pontos maior que zero.",
  ceilingKind: (field: "TetoValor" | "TetoPontos", kind: string) => `${field} não combina com Tipo ${kind}.`,
  expires: "ExpiraEm deve ser uma data AAAA-MM-DD de hoje até 365 dias à frente.",
  webhook: "Webhook deve ser uma URL http(s) absoluta, sem usuário nem senha, de até 2048 caracteres.",
  reference: `Referencia deve ser um texto de até ${MAX_ALERT_REFERENCE} caracteres.`,
} as const;

/** The body of `POST /Alertas`, for the OpenAPI document. */
export const AlertRequestSchema = SearchRequestSchema.omit({ NumeroPagina: true, QuantidadePorPagina: true, Filtros: true, Ordenacao: true, Volta: true })
  .extend({
    Ida: z.iso.date().optional().meta({ description: "O dia de ida acompanhado (AAAA-MM-DD). Com DiasFlexiveis, o centro da janela. Ou Mes." }),
    DiasFlexiveis: z.int().min(0).max(MAX_ALERT_FLEXIBLE_DAYS).optional().meta({ description: `Dias antes e depois de Ida acompanhados também (0 a ${MAX_ALERT_FLEXIBLE_DAYS}).`, default: 0 }),
    Mes: z.string().regex(/^\d{4}-\d{2}$/).optional().meta({ description: "Um mês inteiro (AAAA-MM) em vez de Ida: todos os dias dele de hoje em diante.", examples: ["2026-07"] }),
    Cabine: z.enum(CABINS).nullable().optional().meta({ description: "Só tarifas nesta cabine; ausente: qualquer cabine." }),
    Tipo: z.enum(["dinheiro", "milhas", "ambos"]).optional().meta({ description: "O que acompanhar: tarifas em dinheiro, em milhas ou ambas.", default: "ambos" }),
    TetoValor: z.number().positive().multipleOf(0.01).nullable().optional().meta({ description: "Avisa quando a menor tarifa em dinheiro (todos os passageiros, com taxas) ficar igual ou abaixo deste valor em reais, e de novo a cada nova mínima. Ausente: a cada nova mínima." }),
    TetoPontos: z.int().positive().nullable().optional().meta({ description: "Avisa quando a tarifa de menos pontos (todos os passageiros) ficar igual ou abaixo destes pontos, e de novo a cada nova mínima. Ausente: a cada nova mínima." }),
    ExpiraEm: z.iso.date().optional().meta({ description: "Último dia do alerta (AAAA-MM-DD, horário de São Paulo). Padrão: o último dia acompanhado." }),
    Webhook: z.url().max(MAX_WEBHOOK_URL).nullable().optional().meta({ description: "URL que recebe cada aviso (POST JSON assinado, padrão Standard Webhooks). Ausente: só o fluxo /Alertas/Stream e a lista." }),
    Referencia: z.string().max(MAX_ALERT_REFERENCE).nullable().optional().meta({ description: "Seu identificador do viajante ou do pedido, devolvido em cada aviso." }),
  })
  .meta({ id: "AlertaRequest", description: "Um alerta de preço: uma rota, um dia (ou janela, ou mês), passageiros, cabine, dinheiro e/ou milhas, tetos, validade e webhook." });

/** The alert members, besides a search's, by folded name. */
const ALERT_FIELDS = ["DiasFlexiveis", "Mes", "Cabine", "Tipo", "TetoValor", "TetoPontos", "ExpiraEm", "Webhook", "Referencia"] as const;
type AlertField = (typeof ALERT_FIELDS)[number];
const foldKey = (key: string): string => key.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
const CANONICAL = new Map<string, AlertField>(ALERT_FIELDS.map((f) => [foldKey(f), f]));

/** The alert members of a body (any case; null counts as absent), and the rest for the search's rules. */
const split = (body: object): { readonly own: Partial<Record<AlertField, unknown>>; readonly search: Record<string, unknown> } => {
  const own: Partial<Record<AlertField, unknown>> = {};
  const search: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const field = CANONICAL.get(foldKey(key));
    if (field === undefined) search[key] = value;
    else if (value !== null && value !== undefined) own[field] = typeof value === "string" ? value.trim() : value;
  }
  return { own, search };
};

const isDate = (s: unknown): s is string => typeof s === "string" && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** The days of a month from `today` on, within the search window. */
const monthDays = (month: string, today: string): string[] => {
  const first = `${month}-01`;
  if (!isDate(first)) return [];
  const days: string[] = [];
  for (let d = first; d.startsWith(month); d = addDays(d, 1)) {
    const offset = epochDay(d) - epochDay(today);
    if (offset >= 0 && offset <= MAX_DAYS_AHEAD) days.push(d);
  }
  return days;
};

/** A webhook URL a receiver can be: absolute http(s), no credentials, no fragment. */
const webhookOf = (raw: unknown): string | undefined => {
  if (typeof raw !== "string" || raw.length > MAX_WEBHOOK_URL) return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.hash || !url.hostname) return undefined;
    return url.toString();
  } catch {
    return undefined;
  }
};

/**
 * Validates a body of `POST /Alertas`: the route and passengers by a search's rules and messages (`Origem`,
 * `Destino`, `Adultos`, `Criancas`, `Bebes`, `Companhia`: the airlines, never 1300; one way), the days (`Ida`
 * with `DiasFlexiveis` 0 to 7, or `Mes`), and what makes it fire: `Cabine`, `Tipo`, `TetoValor` (reais),
 * `TetoPontos`, `ExpiraEm`, `Webhook`, `Referencia`. Keys in any case. Never throws; an invalid body names every
 * failing field.
 *
 * @example
 * const parsed = parseAlertRequest({ Origem: "GRU", Destino: "SSA", Ida: new Date(Date.now() + 40 * 864e5).toISOString().slice(0, 10), DiasFlexiveis: 3, TetoValor: 450 }, { airports, now: new Date() });
 */
export const parseAlertRequest = (body: unknown, ctx: RequestContext): { readonly kind: "alert"; readonly spec: AlertSpec } | InvalidRequest => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { kind: "invalid", campos: [{ Campo: "body", Mensagem: ALERT_MESSAGES.body }] };
  const { own, search } = split(body);
  const errors: FieldError[] = [];
  const today = todayInSaoPaulo(ctx.now);
  const idaKey = Object.keys(search).find((k) => foldKey(k) === "ida");
  const hasIda = idaKey !== undefined && search[idaKey] !== null && search[idaKey] !== undefined && search[idaKey] !== "";
  if (Object.keys(search).some((k) => foldKey(k) === "volta" && search[k] !== null && search[k] !== undefined && search[k] !== "")) errors.push({ Campo: "Volta", Mensagem: ALERT_MESSAGES.volta });

  // The days first: a month stands in for Ida when the search's rules read the route.
  let window: AlertWindow = { kind: "day" };
  let monthList: string[] | undefined;
  if (own.Mes !== undefined) {
    if (hasIda) errors.push({ Campo: "Mes", Mensagem: ALERT_MESSAGES.window });
    else if (typeof own.Mes !== "string" || !/^\d{4}-\d{2}$/.test(own.Mes) || (monthList = monthDays(own.Mes, today)).length === 0) errors.push({ Campo: "Mes", Mensagem: ALERT_MESSAGES.month });
    else window = { kind: "month", month: own.Mes };
  }
  let flexible = 0;
  if (own.DiasFlexiveis !== undefined) {
    const n = own.DiasFlexiveis;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > MAX_ALERT_FLEXIBLE_DAYS) errors.push({ Campo: "DiasFlexiveis", Mensagem: ALERT_MESSAGES.flexible });
    else if (window.kind === "month") errors.push({ Campo: "DiasFlexiveis", Mensagem: ALERT_MESSAGES.window });
    else if ((flexible = n) > 0) window = { kind: "flexible", days: n };
  }
  const searchBody = window.kind === "month" && monthList ? { ...search, Ida: monthList[0] } : search;
  const route = parseSearchRequest(searchBody, ctx);
  if (route.kind === "invalid") errors.push(...route.campos);
  else if (route.kind === "poll") errors.push({ Campo: "Origem", Mensagem: ALERT_MESSAGES.body });
  const query = route.kind === "query" ? route.query : undefined;
  if (query?.mode.kind === "ota-comparison") errors.push({ Campo: "Companhia", Mensagem: ALERT_MESSAGES.otaComparison });

  let days: string[] = [];
  if (query) {
    if (monthList) days = monthList;
    else for (let i = -flexible; i <= flexible; i++) {
      const d = addDays(query.departureDate, i);
      const offset = epochDay(d) - epochDay(today);
      if (offset >= 0 && offset <= MAX_DAYS_AHEAD) days.push(d);
    }
    if (days.length === 0) errors.push({ Campo: window.kind === "month" ? "Mes" : "Ida", Mensagem: ALERT_MESSAGES.noDays });
  }

  let cabin: Cabin | undefined;
  if (own.Cabine !== undefined) {
    const c = typeof own.Cabine === "string" ? foldKey(own.Cabine) : "";
    if ((CABINS as readonly string[]).includes(c)) cabin = c as Cabin;
    else errors.push({ Campo: "Cabine", Mensagem: ALERT_MESSAGES.cabin });
  }
  let kind: AlertKind = "both";
  if (own.Tipo !== undefined) {
    const t = typeof own.Tipo === "string" ? foldKey(own.Tipo) : "";
    if (t in KIND_WIRE) kind = KIND_WIRE[t as keyof typeof KIND_WIRE];
    else errors.push({ Campo: "Tipo", Mensagem: ALERT_MESSAGES.kind });
  }
  let ceilingCash: number | undefined;
  if (own.TetoValor !== undefined) {
    const v = own.TetoValor;
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0 || v > 10_000_000 || Math.abs(v * 100 - Math.round(v * 100)) > 1e-6) errors.push({ Campo: "TetoValor", Mensagem: ALERT_MESSAGES.ceilingCash });
    else if (kind === "miles") errors.push({ Campo: "TetoValor", Mensagem: ALERT_MESSAGES.ceilingKind("TetoValor", "milhas") });
    else ceilingCash = centavosFromDecimal(v);
  }
  let ceilingPoints: number | undefined;
  if (own.TetoPontos !== undefined) {
    const v = own.TetoPontos;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v <= 0) errors.push({ Campo: "TetoPontos", Mensagem: ALERT_MESSAGES.ceilingPoints });
    else if (kind === "cash") errors.push({ Campo: "TetoPontos", Mensagem: ALERT_MESSAGES.ceilingKind("TetoPontos", "dinheiro") });
    else ceilingPoints = v;
  }
  let expiresOn = days.at(-1) ?? today;
  if (own.ExpiraEm !== undefined) {
    const e = own.ExpiraEm;
    const offset = isDate(e) ? epochDay(e) - epochDay(today) : -1;
    if (!isDate(e) || offset < 0 || offset > MAX_DAYS_AHEAD) errors.push({ Campo: "ExpiraEm", Mensagem: ALERT_MESSAGES.expires });
    else expiresOn = e;
  }
  let webhook: string | undefined;
  if (own.Webhook !== undefined && own.Webhook !== "") {
    webhook = webhookOf(own.Webhook);
    if (webhook === undefined) errors.push({ Campo: "Webhook", Mensagem: ALERT_MESSAGES.webhook });
  }
  let reference: string | undefined;
  if (own.Referencia !== undefined && own.Referencia !== "") {
    if (typeof own.Referencia !== "string" || own.Referencia.length > MAX_ALERT_REFERENCE) errors.push({ Campo: "Referencia", Mensagem: ALERT_MESSAGES.reference });
    else reference = own.Referencia;
  }
  if (errors.length > 0 || !query) return { kind: "invalid", campos: errors.length > 0 ? errors : [{ Campo: "body", Mensagem: ALERT_MESSAGES.body }] };
  // Days after the watch's own end are not watched.
  const watched = days.filter((d) => d <= expiresOn);
  if (watched.length === 0) return { kind: "invalid", campos: [{ Campo: "ExpiraEm", Mensagem: ALERT_MESSAGES.expires }] };
  return {
    kind: "alert",
    spec: {
      query: { ...query, departureDate: watched[0]! },
      days: watched,
      window,
      ...(cabin ? { cabin } : {}),
      kind,
      ...(ceilingCash === undefined ? {} : { ceilingCash }),
      ...(ceilingPoints === undefined ? {} : { ceilingPoints }),
      expiresOn,
      ...(webhook ? { webhook } : {}),
      ...(reference ? { reference } : {}),
    },
  };
};
