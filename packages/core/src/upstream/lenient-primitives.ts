/**
 * Lenient zod building blocks for reading upstream answers. Real upstreams send numbers as strings now and
 * then, local date-times with or without seconds (sometimes with a zone suffix), and `null` wherever a value
 * is unknown; these schemas accept all of that and normalize it, and reject only what cannot be used.
 */
import * as z from "zod";

/** Largest magnitude accepted for a wire number: keeps centavo conversion within safe integers. */
const MAX_MAGNITUDE = 1e12;

const numericString = /^\s*-?\d+(?:[.,]\d+)?\s*$/;

/** A finite number, also when written as a numeric string (`"1091.96"`, `"33,56"`). */
export const lenientNumber = z.preprocess(
  (v) => (typeof v === "string" && numericString.test(v) ? Number(v.replace(",", ".")) : v),
  z.number().refine((n) => Math.abs(n) <= MAX_MAGNITUDE, { message: "number out of range" }),
);

/** A text value; numbers are accepted and written as text (ids and tokens are sometimes numeric). */
export const lenientText = z.preprocess((v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v), z.string());

/** A boolean, also when written `"true"` / `"false"`. */
export const lenientBoolean = z.preprocess(
  (v) => (v === "true" ? true : v === "false" ? false : v),
  z.boolean(),
);

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?/;

/**
 * A local ISO date-time without zone, normalized to `YYYY-MM-DDTHH:mm:ss`. A trailing fraction or zone
 * suffix is dropped: the wire's times are local to the airport (decisions.md), so the local part is what counts.
 */
export const localDateTime = z.string().transform((text, ctx) => {
  const m = LOCAL_DATE_TIME.exec(text.trim());
  const [, y, mo, d, h, mi, s] = m ?? [];
  const inRange =
    m !== null &&
    Number(mo) >= 1 && Number(mo) <= 12 &&
    Number(d) >= 1 && Number(d) <= 31 &&
    Number(h) <= 23 && Number(mi) <= 59 && Number(s ?? 0) <= 59;
  if (!inRange) {
    ctx.addIssue({ code: "custom", message: "not a local date-time" });
    return z.NEVER;
  }
  return `${y}-${mo}-${d}T${h}:${mi}:${s ?? "00"}`;
});

/** A 3-letter IATA airport code, upper-cased. */
export const airportCode = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .refine((s) => /^[A-Z0-9]{3}$/.test(s), { message: "not an airport code" });

/** A company as the Mode A wire names it (`{ name, iata }`), both parts optional. */
export const upstreamCompanySchema = z.looseObject({
  name: lenientText.nullish(),
  iata: lenientText.nullish(),
});
