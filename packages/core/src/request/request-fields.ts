/**
 * Reads the members of a request body under their canonical names: keys are case-insensitive and
 * accent-insensitive (`origem` = `Origem`, `Crianças` = `Criancas`); unknown keys are ignored.
 */

/** The request members the service reads, named as the spec writes them. */
export const REQUEST_FIELDS = [
  "Origem",
  "Destino",
  "Ida",
  "Volta",
  "Adultos",
  "Criancas",
  "Bebes",
  "Companhia",
  "NumeroPagina",
  "QuantidadePorPagina",
  "Token",
  "LeaseId",
  "Filtros",
  "Ordenacao",
  // The price calendar's (`POST /ConsultaAereo/Calendario`); a search ignores them.
  "DiasFlexiveis",
  "DiasFlexiveisVolta",
] as const;

/** A request member's canonical name. */
export type RequestField = (typeof REQUEST_FIELDS)[number];

/** What a body holds for one member. */
export type RawField =
  | { readonly kind: "absent" }
  | { readonly kind: "value"; readonly value: unknown }
  /** Two spellings of the member (e.g. `Origem` and `origem`) with different values. */
  | { readonly kind: "conflict" };

const foldKey = (key: string): string =>
  key
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

const CANONICAL: ReadonlyMap<string, RequestField> = new Map(REQUEST_FIELDS.map((f) => [foldKey(f), f]));

const ABSENT: RawField = { kind: "absent" };

/**
 * Collects the known members of a plain object. Only own data properties are read (never getters nor the
 * prototype, so a `__proto__` key is just an unknown key).
 */
export const readRequestFields = (body: object): ((field: RequestField) => RawField) => {
  const found = new Map<RequestField, RawField>();
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(body))) {
    if (!("value" in descriptor)) continue;
    const field = CANONICAL.get(foldKey(key));
    if (field === undefined) continue;
    const before = found.get(field);
    const value: unknown = descriptor.value;
    if (before === undefined) found.set(field, { kind: "value", value });
    else if (before.kind === "value" && !Object.is(before.value, value)) found.set(field, { kind: "conflict" });
  }
  return (field) => found.get(field) ?? ABSENT;
};
