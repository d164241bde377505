import * as z from "zod";
import type { FieldError } from "./envelope.js";
import type { DirectionTimes, ResultFilters, ResultView, SortKey, TimeWindow } from "../query/result-view.js";
import { DEFAULT_VIEW } from "../query/result-view.js";

/**
 * The optional request members that choose which price groups a Mode A answer holds and in which order:
 * `Filtros` and `Ordenacao`. Strict schemas for the OpenAPI document; a lenient reader (keys and words
 * case- and accent-insensitive, a single value for a list) that names every failing member in pt-BR.
 */

/** `Ordenacao` values, as the wire writes them, by sort key. */
export const SORT_WIRE: { readonly [K in SortKey]: string } = {
  price: "preco",
  duration: "duracao",
  departure: "partida",
  arrival: "chegada",
  best: "melhor",
};
const SORT_OF: ReadonlyMap<string, SortKey> = new Map(Object.entries(SORT_WIRE).map(([k, v]) => [v, k as SortKey]));

const HHMM = /^([01]?\d|2[0-3]):([0-5]\d)$/;

const TimeSchema = z.string().regex(HHMM).meta({ description: "Hora local HH:MM.", examples: ["06:00"] });
const WindowSchema = z
  .strictObject({ De: TimeSchema, Ate: TimeSchema })
  .meta({ id: "JanelaHorario", description: "Janela de horário local, extremos incluídos; De depois de Ate atravessa a meia-noite." });
const DirectionTimesSchema = z
  .strictObject({ Saida: WindowSchema.optional(), Chegada: WindowSchema.optional() })
  .meta({ id: "HorariosTrecho", description: "Janelas de horário de partida (Saida) e de chegada (Chegada) de um sentido." });

/** `Filtros` (Mode A): every member optional; a price group passes when it matches all that are given. */
export const FiltrosSchema = z
  .strictObject({
    Paradas: z
      .array(z.int().min(0).max(2))
      .optional()
      .meta({
        description:
          "Número de paradas aceitas em todos os trechos: 0 (direto), 1, 2 (duas ou mais). Numa busca de ida e volta vale para a ida e para a volta ao mesmo tempo; para filtrar cada trecho, use ParadasIda e ParadasVolta.",
        examples: [[0]],
      }),
    ParadasIda: z
      .array(z.int().min(0).max(2))
      .optional()
      .meta({ description: "Número de paradas aceitas no trecho de ida: 0 (direto), 1, 2 (duas ou mais). Com Paradas, valem os dois.", examples: [[0]] }),
    ParadasVolta: z
      .array(z.int().min(0).max(2))
      .optional()
      .meta({ description: "Número de paradas aceitas no trecho de volta (só numa busca com Volta; sem efeito só de ida). Com Paradas, valem os dois.", examples: [[0, 1]] }),
    Companhias: z.array(z.string().regex(/^[A-Za-z0-9]{2}$/)).optional().meta({ description: "Companhias validadoras aceitas (IATA).", examples: [["LA", "G3"]] }),
    Pagamento: z.enum(["milhas", "dinheiro"]).optional().meta({ description: "Só milhas ou só dinheiro (pagante)." }),
    Ida: DirectionTimesSchema.optional(),
    Volta: DirectionTimesSchema.optional().meta({ description: "Só numa busca com Volta." }),
    DuracaoMaxima: z.int().min(1).optional().meta({ description: "Duração máxima de cada sentido, em minutos." }),
    PrecoMinimo: z.number().min(0).optional().meta({ description: "Preço mínimo do grupo (ida e volta: a soma), em reais, com taxas." }),
    PrecoMaximo: z.number().min(0).optional().meta({ description: "Preço máximo do grupo (ida e volta: a soma), em reais, com taxas." }),
  })
  .meta({
    id: "Filtros",
    description:
      "Filtros do Modo A, aplicados a todo o resultado: pagination e meta contam só os grupos que passam. Num grupo, " +
      "só as alternativas de itinerário que passam são listadas.",
  });

/** `Ordenacao` (Mode A). */
export const OrdenacaoSchema = z
  .enum(["preco", "duracao", "partida", "chegada", "melhor"])
  .meta({
    id: "Ordenacao",
    description:
      "Ordem dos grupos: preco (padrão), duracao, partida, chegada, melhor (preço e duração: R$ 1 por minuto). " +
      "Empates: preço, depois o id do grupo; a ordem não muda entre consultas.",
  });

/** The view members of a request body, for the OpenAPI document. */
export const viewMembers = {
  Filtros: FiltrosSchema.nullable().optional(),
  Ordenacao: OrdenacaoSchema.nullable().optional(),
};

/** pt-BR messages of invalid view members. */
export const VIEW_MESSAGES = {
  Filtros:
    "Filtros deve ser um objeto com Paradas, ParadasIda, ParadasVolta, Companhias, Pagamento, Ida, Volta, DuracaoMaxima, PrecoMinimo ou PrecoMaximo.",
  Paradas: "Filtros.Paradas deve ser uma lista de números de paradas: 0 (direto), 1 ou 2 (duas ou mais).",
  ParadasIda: "Filtros.ParadasIda deve ser uma lista de números de paradas do trecho de ida: 0 (direto), 1 ou 2 (duas ou mais).",
  ParadasVolta: "Filtros.ParadasVolta deve ser uma lista de números de paradas do trecho de volta: 0 (direto), 1 ou 2 (duas ou mais).",
  Companhias: "Filtros.Companhias deve ser uma lista de códigos IATA de companhia, com 2 caracteres (por exemplo, LA).",
  Pagamento: 'Filtros.Pagamento deve ser "milhas" ou "dinheiro".',
  direction: (field: string) => `${field} deve ser um objeto com Saida e/ou Chegada.`,
  window: (field: string) => `${field} deve ser um objeto { "De": "HH:MM", "Ate": "HH:MM" } com horas locais entre 00:00 e 23:59.`,
  DuracaoMaxima: "Filtros.DuracaoMaxima deve ser um número inteiro de minutos maior ou igual a 1.",
  price: (field: string) => `${field} deve ser um valor em reais maior ou igual a 0.`,
  priceRange: "Filtros.PrecoMinimo não pode ser maior que Filtros.PrecoMaximo.",
  Ordenacao: 'Ordenacao deve ser "preco", "duracao", "partida", "chegada" ou "melhor".',
} as const;

const fold = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const absent = (v: unknown): boolean => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/**
 * The members of an object by folded key (case and accents ignored). Unknown keys are ignored, as at the top
 * level: clients of the legacy API send a `Filtros` of their own (`{ "Cias": [...] }`) that must not fail.
 */
const membersOf = (obj: Record<string, unknown>, known: readonly string[]): Map<string, unknown> => {
  const names = new Map(known.map((k) => [fold(k), k]));
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(obj)) {
    const name = names.get(fold(key));
    if (name !== undefined && !absent(value)) out.set(name, value);
  }
  return out;
};

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

const minutesOf = (v: unknown): number | undefined => {
  if (typeof v !== "string") return undefined;
  const m = HHMM.exec(v.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
};

const readWindow = (v: unknown, field: string, errors: FieldError[]): TimeWindow | undefined => {
  if (isObject(v)) {
    const m = membersOf(v, ["De", "Ate"]);
    const from = minutesOf(m.get("De") ?? "00:00");
    const to = minutesOf(m.get("Ate") ?? "23:59");
    if (m.size > 0 && from !== undefined && to !== undefined) return { from, to };
  }
  errors.push({ Campo: field, Mensagem: VIEW_MESSAGES.window(field) });
  return undefined;
};

const readTimes = (v: unknown, field: string, errors: FieldError[]): DirectionTimes | undefined => {
  if (!isObject(v)) {
    errors.push({ Campo: field, Mensagem: VIEW_MESSAGES.direction(field) });
    return undefined;
  }
  const m = membersOf(v, ["Saida", "Chegada"]);
  const departure = m.has("Saida") ? readWindow(m.get("Saida"), `${field}.Saida`, errors) : undefined;
  const arrival = m.has("Chegada") ? readWindow(m.get("Chegada"), `${field}.Chegada`, errors) : undefined;
  return departure || arrival ? { departure, arrival } : undefined;
};

const readPrice = (v: unknown, field: string, errors: FieldError[]): number | undefined => {
  const n = typeof v === "string" ? Number(v.trim().replace(",", ".")) : v;
  if (typeof n === "number" && Number.isFinite(n) && n >= 0) return Math.round(n * 100);
  errors.push({ Campo: field, Mensagem: VIEW_MESSAGES.price(field) });
  return undefined;
};

const readFilters = (v: unknown, errors: FieldError[]): ResultFilters => {
  if (!isObject(v)) {
    errors.push({ Campo: "Filtros", Mensagem: VIEW_MESSAGES.Filtros });
    return {};
  }
  const m = membersOf(v, ["Paradas", "ParadasIda", "ParadasVolta", "Companhias", "Pagamento", "Ida", "Volta", "DuracaoMaxima", "PrecoMinimo", "PrecoMaximo"]);
  const f: { -readonly [K in keyof ResultFilters]: ResultFilters[K] } = {};
  const stops = (field: "Paradas" | "ParadasIda" | "ParadasVolta"): number[] | undefined => {
    if (!m.has(field)) return undefined;
    const list = asList(m.get(field));
    if (list.length > 0 && list.every((x) => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 2)) return [...new Set(list as number[])].sort();
    errors.push({ Campo: `Filtros.${field}`, Mensagem: VIEW_MESSAGES[field] });
    return undefined;
  };
  f.stops = stops("Paradas");
  f.outboundStops = stops("ParadasIda");
  f.returnStops = stops("ParadasVolta");
  if (m.has("Companhias")) {
    const list = asList(m.get("Companhias"));
    if (list.length > 0 && list.every((x) => typeof x === "string" && /^[A-Za-z0-9]{2}$/.test(x.trim())))
      f.airlines = [...new Set((list as string[]).map((x) => x.trim().toUpperCase()))].sort();
    else errors.push({ Campo: "Filtros.Companhias", Mensagem: VIEW_MESSAGES.Companhias });
  }
  if (m.has("Pagamento")) {
    const p = m.get("Pagamento");
    const word = typeof p === "string" ? fold(p.trim()) : "";
    if (word === "milhas") f.payment = "miles";
    else if (word === "dinheiro") f.payment = "cash";
    else errors.push({ Campo: "Filtros.Pagamento", Mensagem: VIEW_MESSAGES.Pagamento });
  }
  if (m.has("Ida")) f.outbound = readTimes(m.get("Ida"), "Filtros.Ida", errors);
  if (m.has("Volta")) f.inbound = readTimes(m.get("Volta"), "Filtros.Volta", errors);
  if (m.has("DuracaoMaxima")) {
    const d = m.get("DuracaoMaxima");
    if (Number.isInteger(d) && (d as number) >= 1) f.maxDurationMinutes = d as number;
    else errors.push({ Campo: "Filtros.DuracaoMaxima", Mensagem: VIEW_MESSAGES.DuracaoMaxima });
  }
  if (m.has("PrecoMinimo")) f.priceMin = readPrice(m.get("PrecoMinimo"), "Filtros.PrecoMinimo", errors);
  if (m.has("PrecoMaximo")) f.priceMax = readPrice(m.get("PrecoMaximo"), "Filtros.PrecoMaximo", errors);
  if (f.priceMin !== undefined && f.priceMax !== undefined && f.priceMin > f.priceMax)
    errors.push({ Campo: "Filtros.PrecoMinimo", Mensagem: VIEW_MESSAGES.priceRange });
  for (const k of Object.keys(f) as (keyof ResultFilters)[]) if (f[k] === undefined) delete f[k];
  return f;
};

/**
 * Reads `Filtros` and `Ordenacao` (already found under any spelling of their names); absent, `null` or
 * blank mean no filter and the default order. Failing members are pushed to `errors`.
 */
export const readResultView = (filtros: unknown, ordenacao: unknown, errors: FieldError[]): ResultView => {
  const filters = absent(filtros) ? DEFAULT_VIEW.filters : readFilters(filtros, errors);
  let sort: SortKey = DEFAULT_VIEW.sort;
  if (!absent(ordenacao)) {
    const key = typeof ordenacao === "string" ? SORT_OF.get(fold(ordenacao.trim())) : undefined;
    if (key) sort = key;
    else errors.push({ Campo: "Ordenacao", Mensagem: VIEW_MESSAGES.Ordenacao });
  }
  return { filters, sort };
};

const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const windowWire = (w: TimeWindow | undefined) => (w ? { De: hhmm(w.from), Ate: hhmm(w.to) } : undefined);
const timesWire = (t: DirectionTimes | undefined) =>
  t ? { ...(t.departure ? { Saida: windowWire(t.departure) } : {}), ...(t.arrival ? { Chegada: windowWire(t.arrival) } : {}) } : undefined;

/** The `Filtros` member that asks for these filters (its canonical form); the inverse of the reader. */
export const filtrosOf = (f: ResultFilters): z.infer<typeof FiltrosSchema> => {
  const out: Record<string, unknown> = {
    Paradas: f.stops,
    ParadasIda: f.outboundStops,
    ParadasVolta: f.returnStops,
    Companhias: f.airlines,
    Pagamento: f.payment === undefined ? undefined : f.payment === "miles" ? "milhas" : "dinheiro",
    Ida: timesWire(f.outbound),
    Volta: timesWire(f.inbound),
    DuracaoMaxima: f.maxDurationMinutes,
    PrecoMinimo: f.priceMin === undefined ? undefined : f.priceMin / 100,
    PrecoMaximo: f.priceMax === undefined ? undefined : f.priceMax / 100,
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as z.infer<typeof FiltrosSchema>;
};
