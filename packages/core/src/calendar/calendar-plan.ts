import type { SearchQuery } from "../query/query.js";
import { addDays, checkDateWindow, epochDay } from "../request/request-dates.js";

/** The most days a calendar reaches on each side of the day asked (`DiasFlexiveis`). */
export const MAX_FLEXIBLE_DAYS = 7;

/** How many days around the day asked a calendar covers. */
export interface FlexibleDays {
  /** Days before the day asked (0 to {@link MAX_FLEXIBLE_DAYS}). */
  readonly before: number;
  /** Days after it (0 to {@link MAX_FLEXIBLE_DAYS}). */
  readonly after: number;
}

/** The days a calendar searches: the day asked and its neighbours, each an ordinary query. */
export interface CalendarPlan {
  /** The query as asked: its `departureDate` is the day asked. */
  readonly asked: SearchQuery;
  /** One query per day, in date order; a round trip keeps the stay asked (`returnDate - departureDate`). */
  readonly days: readonly SearchQuery[];
}

/**
 * The days of a calendar around a query: `flex` days on each side of its departure date (a number), or as
 * many before and after as given. A round trip keeps its stay: each day's return is as many days after its
 * departure as the query's. With `today` (`YYYY-MM-DD`, São Paulo), the days a search may not ask are left
 * out: those before today and those whose departure or return falls past the 365-day window.
 *
 * @example
 * planCalendar(query, 3, "2026-05-01").days.map((d) => d.departureDate); // 7 dates, query.departureDate in the middle
 */
export const planCalendar = (asked: SearchQuery, flex: number | FlexibleDays, today?: string): CalendarPlan => {
  const { before, after } = typeof flex === "number" ? { before: flex, after: flex } : flex;
  const stay = asked.returnDate === undefined ? undefined : epochDay(asked.returnDate) - epochDay(asked.departureDate);
  const days: SearchQuery[] = [];
  for (let offset = -before; offset <= after; offset++) {
    const departureDate = addDays(asked.departureDate, offset);
    const returnDate = stay === undefined ? undefined : addDays(departureDate, stay);
    if (today !== undefined && (checkDateWindow(departureDate, today) !== "ok" || (returnDate !== undefined && checkDateWindow(returnDate, today) !== "ok"))) continue;
    // A new object for every day, the day asked too: each is the query of a search of its own.
    const { returnDate: _asked, ...rest } = asked;
    days.push({ ...rest, departureDate, ...(returnDate === undefined ? {} : { returnDate }) });
  }
  return { asked, days };
};

/**
 * The order a calendar's days are searched in, as indexes into `plan.days`: the day asked first, then the
 * nearest days outward, the earlier of two days as near.
 */
export const askOrder = (plan: CalendarPlan): number[] => {
  const asked = epochDay(plan.asked.departureDate);
  const distance = (i: number) => epochDay(plan.days[i]!.departureDate) - asked;
  return plan.days.map((_, i) => i).sort((a, b) => Math.abs(distance(a)) - Math.abs(distance(b)) || distance(a) - distance(b));
};
