import { queryKey, type CalendarDay, type SearchQuery } from "@voar/core";
import type { SearchLease } from "../search/session-store.js";

/**
 * A day as its calendar keeps it once done: what a snapshot of the calendar shows of it from then on, with
 * until when its prices hold (`validUntil`, the earliest of its search's offers) and until when they may be
 * shown (`usableUntil`: the margin a new request's offers need, see `usableUntil` in `offer-validity.ts`);
 * after that the day shows as expired, without a price, and the calendar's next request searches it again.
 */
export type SettledDay = Pick<CalendarDay, "version" | "sources" | "cash" | "miles" | "failure" | "validUntil"> & { readonly usableUntil?: number | undefined };

/** One day of a stored calendar. */
export interface CalendarDayRecord {
  readonly departureDate: string;
  readonly returnDate?: string | undefined;
  /** The id of the day's ordinary search, once it started (the day's `TokenBusca`). */
  readonly searchId?: string | undefined;
  /** The day once its search completed (or the day was given up): kept here, so it outlives its search. */
  readonly settled?: SettledDay | undefined;
}

/** A price calendar as the session store keeps it: what it is (its days and their searches), not its results. */
export interface CalendarRecord {
  /** The calendar's id: its answer's `Token`. */
  readonly id: string;
  /** What makes two requests the same calendar: tenant, query, days asked, Pagante state (see {@link calendarKey}). */
  readonly key: string;
  /** The tenant that owns it and its day searches. */
  readonly tenant: string;
  /** The query as asked (its departure date is the day asked). */
  readonly query: SearchQuery;
  /** `DiasFlexiveis`. */
  readonly flexibleDays: number;
  /** `DiasFlexiveisVolta`: a grid of departures by returns; absent when each day keeps the stay asked. */
  readonly returnDays?: number | undefined;
  /** Airlines whose cash offers its days leave out (Pagante switch off when it started). */
  readonly hiddenCashAirlines: readonly number[];
  /** Every day, in date order. */
  readonly days: readonly CalendarDayRecord[];
  /** Upstream requests its days may cause in all, and how many its runs counted so far. Absent: no budget. */
  readonly budget?: { readonly limit: number; readonly used: number } | undefined;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms after which a day not started yet is given up. */
  readonly deadlineAt: number;
  readonly completed: boolean;
  /** Epoch ms of completion: the TTL counts from here. */
  readonly completedAt?: number | undefined;
  /**
   * Epoch ms (store clock) after which a new request for the key starts a new calendar instead of joining this
   * one: within the TTL (or `failedTtlMs`), and never past the first of its days' prices to need searching again.
   */
  readonly joinableUntil?: number | undefined;
  /**
   * Added to the calendar's version: grows by more than a day's share of it each time days are searched again,
   * so the version keeps growing whichever instance answers. Absent: 0.
   */
  readonly versionBase?: number | undefined;
  /** Which instance runs it, and until when. */
  readonly lease?: SearchLease | undefined;
}

/**
 * What makes two calendar requests the same calendar: the tenant, the normalized query, the days on each
 * side (of the departure, and of the return on a grid), and the airlines whose Pagante switch is off.
 */
export const calendarKey = (tenant: string, query: SearchQuery, flexibleDays: number, returnDays: number | undefined, hiddenCashAirlines: readonly number[]): string =>
  ["calendar", tenant, queryKey(query), flexibleDays, returnDays ?? "", [...hiddenCashAirlines].sort((a, b) => a - b).join(",")].join("\u0000");

/** The ordinary query of a stored day. */
export const dayQuery = (record: Pick<CalendarRecord, "query">, day: CalendarDayRecord): SearchQuery => {
  const { returnDate: _asked, ...rest } = record.query;
  return { ...rest, departureDate: day.departureDate, ...(day.returnDate === undefined ? {} : { returnDate: day.returnDate }) };
};

/** When a stored calendar expires: its TTL after completion, or after its deadline while it runs. */
export const calendarExpiry = (r: CalendarRecord, ttlMs: number): number => (r.completed ? (r.completedAt ?? r.createdAt) : r.deadlineAt) + ttlMs;

/** The days of a calendar whose prices may no longer be shown at `now` (past their `usableUntil`): each is searched again at the calendar's next request. */
export const staleDays = (r: Pick<CalendarRecord, "days">, now: number): number[] =>
  r.days.flatMap((d, i) => (d.settled?.usableUntil !== undefined && now >= d.settled.usableUntil ? [i] : []));

/** Until when a completed calendar's days may all be shown: the earliest `usableUntil` of its settled days; undefined when none says. */
export const daysUsableUntil = (days: readonly CalendarDayRecord[]): number | undefined => {
  let earliest: number | undefined;
  for (const d of days) {
    const until = d.settled?.usableUntil;
    if (until !== undefined && (earliest === undefined || until < earliest)) earliest = until;
  }
  return earliest;
};

/** A day's share of its calendar's version: its search's version, one once started, one more once expired. */
export const dayWeight = (d: Pick<CalendarDay, "state" | "version">): number => d.version + (d.state === "waiting" ? 0 : 1) + (d.state === "expired" ? 1 : 0);

/**
 * The record with `days` (indexes) to be searched again, their prices no longer current: each back to
 * waiting, the calendar running again with a new deadline (one search deadline per round of `concurrency`
 * days, plus one) and, with a budget, a day's share more per day. The version base grows past what those
 * days counted, so the calendar's version keeps growing.
 */
export const searchDaysAgain = (
  record: CalendarRecord,
  days: readonly number[],
  now: number,
  o: { readonly deadlineMs: number; readonly concurrency: number | undefined; readonly requestsPerDay: number | undefined },
): CalendarRecord => {
  let versionBase = record.versionBase ?? 0;
  const next = record.days.map((d, i) => {
    if (!days.includes(i) || !d.settled) return d;
    versionBase += dayWeight({ state: "expired", version: d.settled.version }) + 1;
    return { departureDate: d.departureDate, ...(d.returnDate === undefined ? {} : { returnDate: d.returnDate }) };
  });
  const rounds = Math.ceil(days.length / Math.max(1, o.concurrency ?? days.length));
  const perDay = o.requestsPerDay;
  return {
    ...record,
    days: next,
    versionBase,
    completed: false,
    completedAt: undefined,
    joinableUntil: undefined,
    deadlineAt: now + (rounds + 1) * o.deadlineMs,
    ...(record.budget && perDay !== undefined ? { budget: { limit: record.budget.limit + perDay * days.length, used: record.budget.used } } : {}),
  };
};
