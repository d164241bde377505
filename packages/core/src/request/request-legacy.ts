import type { RequestField } from "./request-fields.js";

/**
 * The leniency of `compat: "legacy"` (clients written against the real deployment, an ASP.NET service):
 * what such clients send that the spec's strict reading refuses, turned into the value the spec means
 * before the member's schema judges it. Anything else is left as sent, so the strict rules and their
 * pt-BR messages still apply (e.g. `"1.5"` adults, or `"2026-02-30T00:00:00"`, stay invalid).
 */

/** How a request body is read: the spec's strict rules, or leniently for clients of the legacy API. */
export type RequestCompat = "spec" | "legacy";

/** Members that are integers on the wire; legacy clients (form binders, PowerShell, PHP) send `"1"`. */
const INTEGER_FIELDS: ReadonlySet<RequestField> = new Set(["Adultos", "Criancas", "Bebes", "Companhia", "NumeroPagina", "QuantidadePorPagina"]);

/** An integer written as text: optional sign, digits only (no decimals, exponents, hex or blanks inside). */
const INTEGER_TEXT = /^[+-]?\d{1,9}$/;

/**
 * A date-time without zone as .NET writes a `DateTime` (`YYYY-MM-DDT00:00:00`, up to 7 fraction digits,
 * `T` or a space). Its calendar date is the date meant. A time with a zone (`Z`, `-03:00`) is not taken:
 * its calendar date depends on where it is read, so it stays invalid rather than searching the wrong day.
 */
const DATE_TIME_TEXT = /^(\d{4}-\d{2}-\d{2})[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,7})?)?$/;

/** .NET's `DateTime.MinValue`, which legacy clients send as `Volta` for a one-way search. */
const MIN_DATE = "0001-01-01";

/** What {@link legacyValue} turned a member into: a value for its schema, or "absent". */
export type LegacyValue = { readonly kind: "value"; readonly value: unknown } | { readonly kind: "absent" };

/**
 * Reads one member leniently: integer text becomes a number, a zone-less date-time its `YYYY-MM-DD` date,
 * and `Volta` `0001-01-01` (with or without a time) means "no return", as for .NET clients whose
 * `DateTime Volta` cannot be null.
 *
 * @example
 * legacyValue("Adultos", "2"); // { kind: "value", value: 2 }
 * legacyValue("Volta", "0001-01-01T00:00:00"); // { kind: "absent" }
 */
export const legacyValue = (field: RequestField, value: unknown): LegacyValue => {
  if (typeof value !== "string") return { kind: "value", value };
  if (INTEGER_FIELDS.has(field) && INTEGER_TEXT.test(value)) return { kind: "value", value: Number(value) };
  if (field === "Ida" || field === "Volta") {
    const date = DATE_TIME_TEXT.exec(value)?.[1] ?? value;
    if (field === "Volta" && date === MIN_DATE) return { kind: "absent" };
    return { kind: "value", value: date };
  }
  return { kind: "value", value };
};
