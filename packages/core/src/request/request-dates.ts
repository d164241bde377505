/**
 * Calendar dates of a search request (`YYYY-MM-DD`), judged against today's date in São Paulo, with `Intl`
 * only so that it runs on every runtime.
 */

/** The time zone whose "today" bounds the dates of a search (decisions.md: São Paulo time). */
export const SEARCH_TIME_ZONE = "America/Sao_Paulo";

/** How many days ahead a search may go. */
export const MAX_DAYS_AHEAD = 365;

const MS_PER_DAY = 86_400_000;

const todayFormatter = /* @__PURE__ */ new Intl.DateTimeFormat("en-CA", {
  timeZone: SEARCH_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/**
 * The date last computed, with the whole second of the instant it was computed for. Every offset of the time
 * zone database is a whole number of seconds, so the date cannot change within a second: a service that
 * validates thousands of requests a second asks `Intl` once a second.
 */
let lastToday: { readonly second: number; readonly date: string } | undefined;

/** Today's calendar date in São Paulo at an instant, as `YYYY-MM-DD`. */
export const todayInSaoPaulo = (now: Date): string => {
  const second = Math.floor(now.getTime() / 1000);
  if (lastToday !== undefined && lastToday.second === second) return lastToday.date;
  const parts = todayFormatter.formatToParts(now);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const date = `${get("year")}-${get("month")}-${get("day")}`;
  lastToday = { second, date };
  return date;
};

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (a plain calendar count, no time zone involved). */
export const epochDay = (date: string): number =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / MS_PER_DAY;

/** The `YYYY-MM-DD` date a number of days after another. */
export const addDays = (date: string, days: number): string =>
  new Date((epochDay(date) + days) * MS_PER_DAY).toISOString().slice(0, 10);

/** Where a date falls against the window a search may use: today to {@link MAX_DAYS_AHEAD} days ahead. */
export type DateWindowCheck = "ok" | "past" | "too-far";

/** Checks a valid `YYYY-MM-DD` date against the window that starts on `today`. */
export const checkDateWindow = (date: string, today: string): DateWindowCheck => {
  const offset = epochDay(date) - epochDay(today);
  return offset < 0 ? "past" : offset > MAX_DAYS_AHEAD ? "too-far" : "ok";
};
