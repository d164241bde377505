import type { SourceProgress } from "../errors/source-progress.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import type { SearchQuery } from "../query/query.js";
import type { CalendarPlan } from "./calendar-plan.js";
import type { DayPrices } from "./day-prices.js";

/**
 * Where one day of a calendar stands: not asked yet, its search running, done (searched, or given up), or
 * expired: its prices stopped being current (a service shows such a day without a price, and searches it
 * again at the next request of its calendar). Completed and expired days are both settled.
 */
export type CalendarDayState = "waiting" | "searching" | "completed" | "expired";

/** Whether a day is settled: completed, or expired (its search over, its prices no longer current). */
export const daySettled = (d: Pick<CalendarDay, "state">): boolean => d.state === "completed" || d.state === "expired";

/** One day of a calendar: its query, where its search stands and its cheapest fares so far. */
export interface CalendarDay extends DayPrices {
  /** The day's ordinary query (its `departureDate`, and `returnDate` on a round trip). */
  readonly query: SearchQuery;
  /** Whether this is the day the calendar was asked for (its departure, and its return on a round trip). */
  readonly asked: boolean;
  readonly state: CalendarDayState;
  /** The version of the day's search (0 before it started): grows as its results do. */
  readonly version: number;
  /** The progress of the day's search, source by source (empty before it started). */
  readonly sources: readonly SourceProgress[];
  /** The id of the day's search, where the caller has one (the service's `Token` of it). */
  readonly searchId?: string | undefined;
  /** Why the day has no search (it could not be started), in pt-BR; only on a completed day. */
  readonly failure?: string | undefined;
}

/** A calendar at one moment: every day in date order. Immutable, like a search's snapshots. */
export interface CalendarSnapshot {
  /** The query as asked (its departure date is the day asked). */
  readonly query: SearchQuery;
  /** Grows with every change. */
  readonly version: number;
  /** True once every day is settled (completed, or expired). */
  readonly completed: boolean;
  /** One entry per day, in date order. */
  readonly days: readonly CalendarDay[];
}

/** What changes a calendar: a day's search started, a new snapshot of it, or the day given up. */
export type CalendarEvent =
  | { readonly type: "started"; readonly index: number }
  | { readonly type: "snapshot"; readonly index: number; readonly snapshot: SearchSnapshot; readonly prices: DayPrices }
  | { readonly type: "failed"; readonly index: number; readonly message: string };

/** A day not searched yet. */
export const waitingDay = (query: SearchQuery, asked: SearchQuery): CalendarDay => ({
  query,
  asked: query.departureDate === asked.departureDate && query.returnDate === asked.returnDate,
  state: "waiting",
  version: 0,
  sources: [],
});

/** A day as a snapshot of its search shows it, with that snapshot's cheapest fares. */
export const dayOfSnapshot = (day: CalendarDay, s: SearchSnapshot, prices: DayPrices): CalendarDay => ({
  query: day.query,
  asked: day.asked,
  state: s.completed ? "completed" : "searching",
  version: s.version,
  sources: s.sources,
  ...(day.searchId === undefined ? {} : { searchId: day.searchId }),
  ...(prices.cash ? { cash: prices.cash } : {}),
  ...(prices.miles ? { miles: prices.miles } : {}),
  ...(prices.validUntil === undefined ? {} : { validUntil: prices.validUntil }),
});

/** A calendar of days as given: complete when every day is settled. */
export const calendarOf = (query: SearchQuery, days: readonly CalendarDay[], version: number): CalendarSnapshot => ({
  query,
  version,
  completed: days.every(daySettled),
  days,
});

/** The calendar of a plan before any day was searched (complete at once when it has no day). */
export const initialCalendar = (plan: CalendarPlan): CalendarSnapshot =>
  calendarOf(plan.asked, plan.days.map((d) => waitingDay(d, plan.asked)), 0);

/**
 * The pure reducer of calendars: the day an event names changes, the version grows by one. A day once
 * settled stays as it is (a late event of its search changes nothing).
 */
export const reduceCalendar = (c: CalendarSnapshot, event: CalendarEvent): CalendarSnapshot => {
  const day = c.days[event.index];
  if (!day || daySettled(day)) return c;
  let next: CalendarDay;
  switch (event.type) {
    case "started":
      if (day.state !== "waiting") return c;
      next = { ...day, state: "searching" };
      break;
    case "snapshot":
      next = dayOfSnapshot(day, event.snapshot, event.prices);
      break;
    case "failed":
      next = { ...day, state: "completed", failure: event.message };
      break;
  }
  const days = c.days.slice();
  days[event.index] = next;
  return calendarOf(c.query, days, c.version + 1);
};
