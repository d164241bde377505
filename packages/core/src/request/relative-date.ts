/**
 * Relative travel dates for people and programs that write a search by hand (the CLI, the typed client, the
 * docs' examples): `+N` is the date N days from today in São Paulo, the day the service judges a request by, so
 * an example written today still searches a valid date next year. The wire itself takes `YYYY-MM-DD` only.
 */
import { addDays, todayInSaoPaulo } from "./request-dates.js";

const RELATIVE = /^\+(\d{1,3})$/;

/** Whether a text is a relative date: `+` and a whole number of days (`+0` is today, `+30` a month ahead). */
export const isRelativeDate = (text: string): boolean => RELATIVE.test(text.trim());

/**
 * The `YYYY-MM-DD` date a relative date names (`+30`: 30 days from today in São Paulo, at `now`); any other text
 * is returned as it is, so that the request's own validation judges it (and names the field). Days beyond what a
 * search may ask (365) give a date the validation then refuses as too far.
 *
 * @example
 * resolveRelativeDate("+30"); // today's date in São Paulo plus 30 days, as YYYY-MM-DD
 * resolveRelativeDate("amanhã"); // "amanhã": not a relative date, left for the validation to refuse
 */
export const resolveRelativeDate = (text: string, now: Date = new Date()): string => {
  const m = RELATIVE.exec(text.trim());
  return m ? addDays(todayInSaoPaulo(now), Number(m[1])) : text;
};

/**
 * A request body with relative `Ida` and `Volta` (`+N`) written as dates, the rest as it is: what the typed client
 * sends. A member that is not a relative date is left for the service to judge.
 *
 * @example
 * withAbsoluteDates({ Origem: "CNF", Destino: "SDU", Ida: "+30", Volta: "+37" });
 */
export const withAbsoluteDates = <T extends Readonly<Record<string, unknown>>>(body: T, now: Date = new Date()): T => {
  const resolve = (v: unknown) => (typeof v === "string" && isRelativeDate(v) ? resolveRelativeDate(v, now) : v);
  if (!["Ida", "Volta"].some((k) => typeof body[k] === "string" && isRelativeDate(body[k] as string))) return body;
  return { ...body, ...("Ida" in body ? { Ida: resolve(body["Ida"]) } : {}), ...("Volta" in body ? { Volta: resolve(body["Volta"]) } : {}) };
};
