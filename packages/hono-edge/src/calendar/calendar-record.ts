import { queryKey, type CalendarDay, type SearchQuery } from "@voar/core";
import type { SearchLease } from "../search/session-store.js";

/** A day as its calendar keeps it once done: what a snapshot of the calendar shows of it from then on. */
export type SettledDay = Pick<CalendarDay, "version" | "sources" | "cash" | "miles" | "failure">;

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
  /** Epoch ms (store clock) after which a new request for the key starts a new calendar instead of joining this one. */
  readonly joinableUntil?: number | undefined;
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
