import type { SearchQuery } from "../query/query.js";
import { addDays, checkDateWindow, epochDay } from "../request/request-dates.js";

/** The most days a calendar reaches on each side of the day asked (`DiasFlexiveis`). */
export const MAX_FLEXIBLE_DAYS = 7;
/** The most days a grid reaches on each side of the return asked (`DiasFlexiveisVolta`). */
export const MAX_FLEXIBLE_RETURN_DAYS = 3;
/** The most cells a grid of outbound by return days may have: each is a search. */
export const MAX_GRID_DAYS = 49;

/** How many days around the day asked a calendar covers. */
export interface FlexibleDays {
  /** Days before the day asked (0 to {@link MAX_FLEXIBLE_DAYS}). */
  readonly before: number;
  /** Days after it (0 to {@link MAX_FLEXIBLE_DAYS}). */
  readonly after: number;
  /**
   * A round trip's grid: this many days on each side of the return asked, every departure with every return
   * on or after it (`DiasFlexiveisVolta`). Absent: each day keeps the stay asked.
   */
  readonly returnDays?: number | undefined;
}

/** The days a calendar searches: the day asked and its neighbours, each an ordinary query. */
export interface CalendarPlan {
  /** The query as asked: its `departureDate` is the day asked. */
  readonly asked: SearchQuery;
  /** One query per day (or grid cell), in date order (departure, then return). */
  readonly days: readonly SearchQuery[];
}

const searchable = (date: string | undefined, today: string | undefined) => date === undefined || today === undefined || checkDateWindow(date, today) === "ok";

/**
 * The days of a calendar around a query: `flex` days on each side of its departure date (a number), or as
 * many before and after as given. A round trip keeps its stay: each day's return is as many days after its
 * departure as the query's; with `returnDays`, the return moves too, a grid of every departure by every return
 * on or after it. With `today` (`YYYY-MM-DD`, São Paulo), the days a search may not ask are left out: those
 * before today and those whose departure or return falls past the 365-day window.
 *
 * @example
 * planCalendar(query, 3, todayInSaoPaulo(new Date())).days.map((d) => d.departureDate); // 7 dates, query.departureDate in the middle
 */
export const planCalendar = (asked: SearchQuery, flex: number | FlexibleDays, today?: string): CalendarPlan => {
  const { before, after, returnDays } = typeof flex === "number" ? { before: flex, after: flex, returnDays: undefined } : flex;
  const stay = asked.returnDate === undefined ? undefined : epochDay(asked.returnDate) - epochDay(asked.departureDate);
  const grid = asked.returnDate !== undefined && returnDays !== undefined && returnDays > 0;
  const days: SearchQuery[] = [];
  const { returnDate: _asked, ...rest } = asked;
  for (let offset = -before; offset <= after; offset++) {
    const departureDate = addDays(asked.departureDate, offset);
    const returns = stay === undefined ? [undefined] : grid ? range(returnDays).map((r) => addDays(asked.returnDate!, r)) : [addDays(departureDate, stay)];
    for (const returnDate of returns) {
      if (returnDate !== undefined && returnDate < departureDate) continue;
      if (!searchable(departureDate, today) || !searchable(returnDate, today)) continue;
      // A new object for every day, the day asked too: each is the query of a search of its own.
      days.push({ ...rest, departureDate, ...(returnDate === undefined ? {} : { returnDate }) });
    }
  }
  return { asked, days };
};

const range = (n: number): number[] => Array.from({ length: 2 * n + 1 }, (_, i) => i - n);

/**
 * The order a calendar's days are searched in, as indexes into `plan.days`: the day asked first, then the
 * nearest days outward, the earlier of two as near. Near is the days the departure moved plus, on a grid, the
 * days the stay changed (a day that keeps the stay asked is as near as its departure).
 */
export const askOrder = (plan: CalendarPlan): number[] => {
  const out = epochDay(plan.asked.departureDate);
  const stay = plan.asked.returnDate === undefined ? 0 : epochDay(plan.asked.returnDate) - out;
  const shift = (i: number) => {
    const d = plan.days[i]!;
    const moved = epochDay(d.departureDate) - out;
    const stayChange = d.returnDate === undefined ? 0 : epochDay(d.returnDate) - epochDay(d.departureDate) - stay;
    return { distance: Math.abs(moved) + Math.abs(stayChange), moved, stayChange };
  };
  return plan.days
    .map((_, i) => i)
    .sort((a, b) => {
      const x = shift(a);
      const y = shift(b);
      return x.distance - y.distance || x.moved - y.moved || x.stayChange - y.stayChange;
    });
};
