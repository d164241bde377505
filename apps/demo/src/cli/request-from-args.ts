import { resolveRelativeDate, type FieldError } from "@voar/core";

/** Options of `voar search`, as commander parses them. */
export interface SearchFlags {
  readonly volta?: string;
  readonly modo: string;
  readonly adultos: string;
  readonly criancas: string;
  readonly bebes: string;
  readonly pagina: string;
  readonly porPagina: string;
  readonly ordenar?: string;
  readonly paradas?: string;
  readonly paradasIda?: string;
  readonly paradasVolta?: string;
  readonly companhias?: string;
  readonly pagamento?: string;
  readonly duracaoMaxima?: string;
  readonly precoMaximo?: string;
  readonly saidaIda?: string;
  readonly saidaVolta?: string;
}

/** Flag of each request field, so that a field error points at what the person typed. */
export const FLAG_OF: Readonly<Record<string, string>> = {
  Origem: "<origem>",
  Destino: "<destino>",
  Ida: "<ida>",
  Volta: "--volta",
  Companhia: "--modo",
  Adultos: "--adultos",
  Criancas: "--criancas",
  Bebes: "--bebes",
  NumeroPagina: "--pagina",
  QuantidadePorPagina: "--por-pagina",
  Ordenacao: "--ordenar",
  Filtros: "--paradas/--paradas-ida/--paradas-volta/--companhias/--pagamento/--saida-ida/--saida-volta/--duracao-maxima/--preco-maximo",
  "Filtros.Paradas": "--paradas",
  "Filtros.ParadasIda": "--paradas-ida",
  "Filtros.ParadasVolta": "--paradas-volta",
  "Filtros.Companhias": "--companhias",
  "Filtros.Pagamento": "--pagamento",
  "Filtros.DuracaoMaxima": "--duracao-maxima",
  "Filtros.PrecoMaximo": "--preco-maximo",
  "Filtros.Ida": "--saida-ida",
  "Filtros.Ida.Saida": "--saida-ida",
  "Filtros.Volta": "--saida-volta",
  "Filtros.Volta.Saida": "--saida-volta",
  DiasFlexiveis: "--dias",
  DiasFlexiveisVolta: "--dias-volta",
};

const MODES: Readonly<Record<string, number>> = { a: -1, todas: -1, b: 1300, otas: 1300, latam: 1, gol: 2, azul: 3, tap: 11, copa: 13, american: 22, iberia: 26 };

const asNumber = (text: string): number | string => (/^-?\d+$/.test(text.trim()) ? Number(text) : text);

const list = (text: string): (number | string)[] =>
  text
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "")
    .map(asNumber);

/** `06:00-11:59` as a departure window `{ Saida: { De, Ate } }`; anything else as typed, for the service to name. */
const departureWindow = (text: string): Record<string, unknown> => {
  const [from, to, ...rest] = text.split("-").map((x) => x.trim());
  return { Saida: from && to && rest.length === 0 ? { De: from, Ate: to } : text };
};

/** The `Filtros` member of the flags given, or undefined when none is. The service validates the values. */
const filtrosOf = (flags: SearchFlags): Record<string, unknown> | undefined => {
  const f: Record<string, unknown> = {
    ...(flags.paradas === undefined ? {} : { Paradas: list(flags.paradas) }),
    ...(flags.paradasIda === undefined ? {} : { ParadasIda: list(flags.paradasIda) }),
    ...(flags.paradasVolta === undefined ? {} : { ParadasVolta: list(flags.paradasVolta) }),
    ...(flags.companhias === undefined ? {} : { Companhias: list(flags.companhias) }),
    ...(flags.pagamento === undefined ? {} : { Pagamento: flags.pagamento }),
    ...(flags.saidaIda === undefined ? {} : { Ida: departureWindow(flags.saidaIda) }),
    ...(flags.saidaVolta === undefined ? {} : { Volta: departureWindow(flags.saidaVolta) }),
    ...(flags.duracaoMaxima === undefined ? {} : { DuracaoMaxima: asNumber(flags.duracaoMaxima) }),
    ...(flags.precoMaximo === undefined ? {} : { PrecoMaximo: flags.precoMaximo }),
  };
  return Object.keys(f).length > 0 ? f : undefined;
};

/**
 * The request body of a CLI search. Values are passed as typed, so that the service's own validation (the
 * same rules as the HTTP API) judges them; `--modo` takes `a`, `b`, an airline name or a Companhia id. A date
 * written `+N` is N days from today in São Paulo (at `now`), so that a command written down keeps working.
 */
export const requestFromArgs = (origem: string, destino: string, ida: string, flags: SearchFlags, now: Date = new Date()): Record<string, unknown> => ({
  Origem: origem,
  Destino: destino,
  Ida: resolveRelativeDate(ida, now),
  ...(flags.volta ? { Volta: resolveRelativeDate(flags.volta, now) } : {}),
  Companhia: MODES[flags.modo.toLowerCase()] ?? asNumber(flags.modo),
  Adultos: asNumber(flags.adultos),
  Criancas: asNumber(flags.criancas),
  Bebes: asNumber(flags.bebes),
  NumeroPagina: asNumber(flags.pagina),
  QuantidadePorPagina: asNumber(flags.porPagina),
  ...(flags.ordenar === undefined ? {} : { Ordenacao: flags.ordenar }),
  ...(filtrosOf(flags) === undefined ? {} : { Filtros: filtrosOf(flags) }),
});

/** What `--modo` takes, as `voar search --help` says it: named modes and airlines, or an airline's id. */
export const SEARCH_MODES = "a (todas as companhias), b (comparar agências) ou uma companhia: latam, gol, azul, tap, copa, american, iberia (ou o id dela)";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The API's field names, longest first (`Filtros.Paradas` before `Filtros`), as whole words. */
const API_NAMES = new RegExp(`(?<![\\w.])(${Object.keys(FLAG_OF).sort((a, b) => b.length - a.length).map(escape).join("|")})(?!\\w|\\.\\w)`, "g");

/** A message of the API in the CLI's terms: every field it names as the flag or argument that sets it. */
const inCliTerms = (message: string): string => message.replace(API_NAMES, (name) => FLAG_OF[name] ?? name);

/** The value of a dotted field of a request body (`Filtros.Paradas`), for the message that names it. */
const valueAt = (body: Record<string, unknown>, field: string): unknown =>
  field.split(".").reduce<unknown>((v, key) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined), body);

/** What a field error is told against: the request sent, what `--modo` was, and the modes the command takes. */
export interface ErrorContext {
  readonly body?: Record<string, unknown>;
  readonly modo?: string;
  /** Default: {@link SEARCH_MODES}. */
  readonly modes?: string;
}

/**
 * Field errors as lines a person can act on: the flag (or argument) they typed, with what they gave, and the
 * service's rule in the CLI's terms (`--dias 9: deve ser um número inteiro entre 1 e 7.`). A `--modo` the service
 * refuses is answered with the modes the command takes, not the API's Companhia ids.
 */
export const describeFieldErrors = (campos: readonly FieldError[], { body = {}, modo, modes = SEARCH_MODES }: ErrorContext = {}): string[] =>
  campos.map((c) => {
    const flag = FLAG_OF[c.Campo] ?? c.Campo;
    const given = c.Campo === "Companhia" && modo !== undefined ? modo : valueAt(body, c.Campo);
    const typed = Array.isArray(given) ? ` ${given.join(",")}` : given === undefined || given === null || typeof given === "object" ? "" : ` ${String(given)}`;
    if (c.Campo === "Companhia") return `  ${flag}${typed}: não é um modo desta busca; use ${modes}.`;
    // The API's rule for a departure window speaks of its JSON object; the CLI takes it as text.
    if (/^Filtros\.(Ida|Volta)(\.Saida)?$/.test(c.Campo)) return `  ${flag}${typed}: deve ser uma janela de hora local, ex. 06:00-11:59 (horas de 00:00 a 23:59).`;
    const message = inCliTerms(c.Mensagem);
    return `  ${flag}${typed}: ${message.startsWith(`${flag} `) ? message.slice(flag.length + 1) : message}`;
  });
