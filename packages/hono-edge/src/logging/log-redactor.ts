import type { LogRecord } from "./logger.js";

/**
 * Takes secrets out of log text. The service's own records carry no secret, but some carry text written by
 * others: an upstream's error detail (a .NET exception quoting its connection string, an echoed login form,
 * a header dump), a network error naming a URL with credentials. Every log line goes through here first
 * (`jsonLinesLogger`, and `createApp` wraps any logger it is given), so such text is never written as is.
 */

/** What stands where a secret was. */
export const REDACTED = "[REDACTED]";

/**
 * Names whose value is a secret; matched as the end of a longer name too (`access_token`, `x-api-key`, `AccountKey`,
 * `NovaSenha`, `ChaveAcesso`...). Portuguese too, as the upstreams and agencies of this service write them: `senha`,
 * `chave` (a key, `chave_api`, `ChaveAcesso`), `segredo`, `credencial`/`credenciais`, `assinatura`, `palavra-passe`.
 */
const SECRET_SUFFIX = String.raw`password|passwd|secret|token|api[-_]?key|access[-_]?key|account[-_]?key|private[-_]?key|credentials?|session[-_]?id|signature|senha|chave(?:[-_]?(?:de[-_]?)?(?:acesso|api|privada|secreta))?|segredo|credencia(?:l|is)|assinatura|palavra[-_]?passe`;
/**
 * Names whose value is a secret as a whole name or a name's first word (`chave_acesso`, `ChaveAcesso`); as parts of other
 * names they are ordinary words (`bypass`, `author`, `chaveamento`).
 */
const SECRET_WORD = String.raw`pwd|pass|auth|sig|apikey|chave[-_]?\w*|senha[-_]?\w*|token[-_]?\w*`;

/** Names of a password in prose (see the prose rule below). */
const PROSE_NAME = String.raw`senha|password|passwd|pwd|palavra[-\s]passe`;
/** The words of a phrase between a password's name and the password ("senha *do usuário é* X", "password *is* X"). */
const PROSE_FILLER = String.raw`d[oa]s?|de|of|the|for|para|usu[aá]rio|user|conta|account|acesso|atual|nova|new|antiga|old|ag[eê]ncia|é|eh|e|is|was|era|foi|:`;

/** A value: quoted (JSON, escaped JSON inside a string, or single quotes) up to its closing quote, or bare. */
const QUOTED = String.raw`(\\?["'])[^\r\n]*?\3`;
// A bare value ends at a space, a quote, `;` (connection strings), and at `&` or `,` only where a next
// parameter or item begins (`&name=`, `, `): a password may hold either.
const BARE = String.raw`(?:[^\s"'\\;&,<>)}\]]|&(?![\w.-]+=)|,(?![\s"']))+`;
/** `name=value`, `name: value`, `"name":"value"`, `\"name\":\"value\"`, the separator and quote kept; not a value already redacted. */
const SEPARATOR = String.raw`(\\?["']?[ \t]*[:=][ \t]*)(?![ \t]*\[REDACTED\])`;

/** Puts the marker in place of a value, its quotes kept. */
const keepQuotes = (_m: string, name: string, separator: string, quote: string | undefined) =>
  quote ? `${name}${separator}${quote}${REDACTED}${quote}` : `${name}${separator}${REDACTED}`;

const rules: readonly (readonly [RegExp, string | ((...groups: string[]) => string)])[] = [
  // Credentials in a URL (`redis://user:pass@host`, `https://token@host`): the user name stays, the rest goes.
  [
    /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]+)@/gi,
    (_m, scheme: string, info: string) => `${scheme}${info.includes(":") ? `${info.slice(0, info.indexOf(":"))}:${REDACTED}` : REDACTED}@`,
  ],
  // Header-like lines whose whole value is secret: the scheme and credential of Authorization, every cookie.
  [new RegExp(String.raw`\b((?:proxy-)?authorization|(?:set-)?cookie)${SEPARATOR}(?:${QUOTED}|[^\r\n"'\\]+)`, "gi"), keepQuotes],
  [new RegExp(String.raw`\b((?:[\w-]*(?:${SECRET_SUFFIX}))|(?:${SECRET_WORD}))${SEPARATOR}(?:${QUOTED}|${BARE})`, "gi"), keepQuotes],
  // An XML element named like a secret (`<Senha>…</Senha>`, `<ns:Password>…</ns:Password>`): its text goes.
  [new RegExp(String.raw`(<(?:[\w-]+:)?((?:[\w-]*(?:${SECRET_SUFFIX}))|(?:${SECRET_WORD}))(?:\s[^<>]*)?>)[^<]*(</(?:[\w-]+:)?\2\s*>)`, "gi"), `$1${REDACTED}$3`],
  // Credentials standing alone in prose: a bearer credential of any length (a short test token is one too), a basic
  // one (base64, so a multiple of 4 characters: "Basic authentication" is prose), JWTs, the service's own tokens.
  [/\b(bearer)(\s+)(?!\[REDACTED\])[A-Za-z0-9\-._~+/]+=*/gi, `$1$2${REDACTED}`],
  [/\b(basic)(\s+)(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![\w+/=])/gi, `$1$2${REDACTED}`],
  [/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g, REDACTED],
  // A password told in prose, as people and upstreams write it: "minha senha é X", "senha X", "pwd X", "Senha do
  // usuário: X", "the password is X". The word that follows the name (after a few words of the phrase) goes.
  [new RegExp(String.raw`\b(${PROSE_NAME})((?:\s+(?:${PROSE_FILLER}))*(?:\s*[:=]\s*|\s+))(?!\[REDACTED\])(?!(?:${PROSE_FILLER})(?:[\s:=]|$))(\\?["']?)([^\s"'<>\\;,]*[^\s"'<>\\;,.])\3`, "giu"), `$1$2$3${REDACTED}$3`],
  [/\bvoar\.[\w-]{8,}\.[\w-]{8,}/g, REDACTED],
];

/** A cheap first look: text without any of these cannot hold a secret the rules find. */
const MAY_HOLD = /[=:@<]|bearer|basic|eyJ|voar\.|senha|passw|pwd|palavra/i;

/**
 * The text with every secret it holds replaced by {@link REDACTED}: values of secret-named parameters,
 * fields and headers (`password=`, `Password=…;` of a connection string, `"access_token":"…"`,
 * `Authorization: Bearer …`, `Cookie:`), credentials in URLs, bearer and basic credentials, JWTs and the
 * service's issued tokens. Over-redacting a harmless value is preferred to writing a secret.
 *
 * @example
 * redactText("connect failed: Server=db;User ID=sa;Password=hunter2;") // "…Password=[REDACTED];"
 */
export const redactText = (text: string): string => {
  if (!MAY_HOLD.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement as string);
  return out;
};

/** Field names whose whole value is a secret, whatever it looks like. */
const SECRET_FIELD = new RegExp(String.raw`^(?:[\w-]*(?:${SECRET_SUFFIX})|${SECRET_WORD}|(?:proxy-)?authorization|(?:set-)?cookie)$`, "i");

const redactValue = (value: unknown, depth: number): unknown => {
  if (typeof value === "string") return redactText(value);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value instanceof Error) return redactText(value.stack ?? `${value.name}: ${value.message}`);
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) out[name] = SECRET_FIELD.test(name) ? REDACTED : redactValue(v, depth + 1);
  return out;
};

/** Fields the service writes from its own data (ids, names from its configuration), kept as they are: a tenant `apikey:acme` is no key. */
const OWN_FIELDS: ReadonlySet<string> = new Set(["level", "msg", "tenant", "requestId", "searchId", "sourceId", "instanceId", "trace_id"]);

/**
 * A log record with its secrets redacted ({@link redactText} on every string, nested ones included; the
 * whole value of a field named like a secret). The service's own fields (`level`, `msg`, ids, `tenant`) are
 * kept as they are.
 */
export const redactRecord = (record: LogRecord): LogRecord => {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    out[name] = OWN_FIELDS.has(name) ? value : SECRET_FIELD.test(name) ? REDACTED : redactValue(value, 0);
  }
  return out as LogRecord;
};
