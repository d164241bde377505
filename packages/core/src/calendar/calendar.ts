import { catchError, concat, defer, EMPTY, from, map, mergeMap, of, scan, startWith, takeWhile, tap, type Observable } from "rxjs";
import type { AirportDirectory } from "../domain/airport.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import type { SearchQuery } from "../query/query.js";
import { askOrder, type CalendarPlan } from "./calendar-plan.js";
import { initialCalendar, reduceCalendar, type CalendarEvent, type CalendarSnapshot } from "./calendar-snapshot.js";
import { dayPrices } from "./day-prices.js";

/** A day's ordinary search: the snapshots of the search of `day` (the `index`-th day of the plan). */
export type DaySearch = (day: SearchQuery, index: number) => Observable<SearchSnapshot>;

/** Options of {@link calendar}. */
export interface CalendarOptions {
  /** Day searches running at once, at most. Default {@link DEFAULT_CALENDAR_CONCURRENCY}: every day at once. */
  readonly concurrency?: number | undefined;
  /** Airports, for the round trips' pairing rules (`@voar/core/airports`, or the service's directory). */
  readonly airports: AirportDirectory;
  /**
   * The pt-BR sentence a day shows when its search failed to run at all (its Observable errored), from the
   * error. Default: {@link DAY_NOT_SEARCHED}, whatever the error (its detail may not be a client's to read).
   */
  readonly failureMessage?: ((error: unknown) => string) | undefined;
}

/**
 * Default of {@link CalendarOptions.concurrency}: every day at once. A calendar waits for its slowest day's
 * search once, not once per round of days; a caller whose upstream needs a slower pace gives a number.
 */
export const DEFAULT_CALENDAR_CONCURRENCY = Number.POSITIVE_INFINITY;

/** What a day shows when its search could not run. */
export const DAY_NOT_SEARCHED = "Não foi possível buscar este dia; os outros dias do calendário seguem.";
/** What a day shows when its search ended without completing. */
export const DAY_STOPPED = "A busca deste dia terminou antes de concluir.";

/**
 * A price calendar as an Observable of snapshots, composed from ordinary day searches, started in this
 * order: the day asked first, then the nearest days outward; all at once unless `concurrency` says fewer. A snapshot follows each
 * change of a day (its search started, a snapshot of it, the day given up), built by the pure
 * {@link reduceCalendar}; each day carries its search's cheapest cash and award fares. A day whose search
 * fails or ends early is completed with a sentence saying why: the calendar goes on (partial, never fatal).
 * The last snapshot has `completed: true`; unsubscribing unsubscribes every day's search.
 *
 * @example
 * const plan = planCalendar(query, 3, todayInSaoPaulo(new Date()));
 * calendar(plan, (day) => search(day, sources), { airports }).subscribe((c) => console.log(c.days.map((d) => d.cash?.total.amount)));
 */
export const calendar = (plan: CalendarPlan, daySearch: DaySearch, options: CalendarOptions): Observable<CalendarSnapshot> =>
  defer(() => {
    const initial = initialCalendar(plan);
    if (initial.completed) return of(initial);
    const airports = options.airports;
    const failure = options.failureMessage ?? (() => DAY_NOT_SEARCHED);
    const dayEvents = (index: number): Observable<CalendarEvent> => {
      let done = false;
      const snapshots = defer(() => daySearch(plan.days[index]!, index)).pipe(
        takeWhile((s) => !s.completed, true),
        tap((s) => (done = s.completed)),
        map((snapshot): CalendarEvent => ({ type: "snapshot", index, snapshot, prices: dayPrices(snapshot, airports) })),
      );
      return concat(
        of<CalendarEvent>({ type: "started", index }),
        snapshots.pipe(catchError((e: unknown) => ((done = true), of<CalendarEvent>({ type: "failed", index, message: failure(e) })))),
        defer(() => (done ? EMPTY : of<CalendarEvent>({ type: "failed", index, message: DAY_STOPPED }))),
      );
    };
    const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CALENDAR_CONCURRENCY);
    return from(askOrder(plan)).pipe(
      mergeMap(dayEvents, concurrency),
      scan(reduceCalendar, initial),
      startWith(initial),
      takeWhile((c) => !c.completed, true),
    );
  });
