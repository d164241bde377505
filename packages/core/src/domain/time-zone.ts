/**
 * Time-zone arithmetic on local ISO date-times (`YYYY-MM-DDTHH:mm[:ss]`), using only `Intl`,
 * so it runs on Node, workerd, Deno, Bun and browsers alike.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

const formatterFor = (timeZone: string): Intl.DateTimeFormat => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
};

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/;

/** Milliseconds since the epoch of a local ISO date-time read as if it were UTC. */
export const localAsUtcMs = (local: string): number => {
  const m = LOCAL.exec(local);
  if (!m) throw new RangeError(`not a local ISO date-time: ${local}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
};

const BUCKET_MS = 900_000;
const offsetCache = new Map<string, number>();

/**
 * Offset of a time zone from UTC at an instant, in minutes (São Paulo: -180). Offsets only change at
 * transitions, which fall on quarter hours of UTC (offsets and local transition times are whole quarters), so they are memoized per zone and quarter hour:
 * `Intl.formatToParts` is the costliest call on a search's hot path.
 */
export const offsetMinutesAt = (timeZone: string, utcMs: number): number => {
  const key = `${timeZone}|${Math.floor(utcMs / BUCKET_MS)}`;
  const known = offsetCache.get(key);
  if (known !== undefined) return known;
  const offset = computeOffsetMinutes(timeZone, Math.floor(utcMs / BUCKET_MS) * BUCKET_MS);
  if (offsetCache.size >= 100_000) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
};

const computeOffsetMinutes = (timeZone: string, utcMs: number): number => {
  const parts = formatterFor(timeZone).formatToParts(new Date(utcMs));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
};

/** The UTC instant (ms) of a local date-time in a time zone. */
export const zonedToUtcMs = (local: string, timeZone: string): number => {
  const naive = localAsUtcMs(local);
  // Two passes settle the offset around DST changes.
  const first = naive - offsetMinutesAt(timeZone, naive) * 60_000;
  return naive - offsetMinutesAt(timeZone, first) * 60_000;
};

/** Minutes from a local departure in one zone to a local arrival in another. */
export const elapsedMinutes = (departure: string, departureZone: string, arrival: string, arrivalZone: string): number =>
  Math.round((zonedToUtcMs(arrival, arrivalZone) - zonedToUtcMs(departure, departureZone)) / 60_000);

/** Formats a UTC instant as a local ISO date-time (seconds included) in a time zone. */
export const utcMsToLocal = (utcMs: number, timeZone: string): string => {
  const shifted = utcMs + offsetMinutesAt(timeZone, utcMs) * 60_000;
  return new Date(shifted).toISOString().slice(0, 19);
};

/** Formats minutes as the wire's `TempoTotalStr`: `<HH>h <MM>m`. */
export const formatDurationHm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}h ${String(minutes % 60).padStart(2, "0")}m`;

/** Reads a duration written as `01h 05m` or `01:25` into minutes; undefined when unreadable. */
export const parseDurationText = (text: string): number | undefined => {
  const hm = /^\s*(\d+)\s*h\s*(\d+)\s*m?\s*$/i.exec(text) ?? /^\s*(\d+):(\d{2})(?::\d{2})?\s*$/.exec(text);
  return hm ? Number(hm[1]) * 60 + Number(hm[2]) : undefined;
};
