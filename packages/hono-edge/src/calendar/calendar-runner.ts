import { calendar, type AirportDirectory, type CalendarPlan, type CalendarSnapshot } from "@voar/core";
import { RequestBudgetGroup } from "@voar/http-adapter/fetch";
import { Subscription } from "rxjs";
import type { Clock } from "../clock.js";
import { loggerInTrace, type Logger } from "../logging/logger.js";
import type { SearchHub } from "../search/search-hub.js";
import type { TraceContext } from "../search/run-search.js";
import { dayQuery, type CalendarDayRecord, type CalendarRecord } from "./calendar-record.js";
import type { CalendarStore } from "./calendar-store.js";
import { dayFailureMessage, daySearchOf } from "./day-search.js";

/** What {@link runCalendar} needs. */
export interface RunCalendarOptions {
  /** The calendar as stored when this run took it (its lease this instance's). */
  readonly record: CalendarRecord;
  readonly searches: SearchHub;
  readonly store: CalendarStore;
  /** This instance's id: the lease owner. */
  readonly owner: string;
  readonly leaseMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly airports: AirportDirectory;
  /** Day searches at once. */
  readonly concurrency: number;
  /** How long a completed calendar is joined by a new request: `ttlMs`, or `failedTtlMs` when a day failed somehow. */
  readonly ttlMs: number;
  readonly failedTtlMs: number;
  /** A day's search is checked (and taken over, its owner gone) after this long without a change. */
  readonly keepAliveMs: number;
  readonly trace?: TraceContext | undefined;
  /** Called once when the run ends, however it ends. */
  readonly onEnd: () => void;
}

/** A calendar this instance runs. */
export interface RunningCalendar {
  /** Stops its days' following (their searches go on, as any search) and, with `release`, gives its lease up. */
  stop(release: boolean): Promise<void>;
}

/** Whether a completed calendar had any trouble: a day given up, or a source of a day that failed. */
const troubled = (days: readonly CalendarDayRecord[]): boolean =>
  days.some((d) => d.settled?.failure !== undefined || d.settled?.sources.some((p) => p.state === "failed"));

/**
 * Runs a calendar's days not settled yet with core's `calendar()` over the service's searches (see
 * `daySearchOf`), and keeps its record: each day's search id as it starts (before it is followed, so an
 * instance taking over never starts a second one), each day as it completes (so it outlives its search),
 * the budget used, and the completion. The lease is renewed with every write and on a heartbeat; a write
 * refused (another instance holds the lease) stops the run.
 */
export const runCalendar = (o: RunCalendarOptions): RunningCalendar => {
  const logger = loggerInTrace(o.logger, o.trace);
  let state = o.record;
  let ended = false;
  const budget = state.budget && new RequestBudgetGroup(state.budget.limit, state.budget.used);
  const withDay = (index: number, change: Partial<CalendarDayRecord>) => {
    const days = state.days.slice();
    days[index] = { ...days[index]!, ...change };
    state = { ...state, days };
  };

  // Writes go one after another, each the whole latest state.
  let writes: Promise<unknown> = Promise.resolve();
  const write = (leaseMs = o.leaseMs): Promise<void> => {
    const next = writes.then(async () => {
      if (ended && leaseMs > 0) return;
      const record: CalendarRecord = budget ? { ...state, budget: { limit: budget.limit, used: budget.used } } : state;
      try {
        if (!(await o.store.save(record, o.owner, leaseMs)) && leaseMs > 0) {
          logger.log({ level: "info", msg: "calendar.lease_lost", calendarId: state.id });
          end();
        }
      } catch (e) {
        // The store is away: the next write or heartbeat tries again; past the lease, another instance takes over.
        logger.log({ level: "info", msg: "calendar.write_failed", calendarId: state.id, error: e instanceof Error ? e.message : String(e) });
      }
    });
    writes = next;
    return next;
  };

  const pending = state.days.flatMap((d, i) => (d.settled ? [] : [i]));
  const plan: CalendarPlan = { asked: state.query, days: pending.map((i) => dayQuery(state, state.days[i]!)) };
  const daySearch = daySearchOf(
    { searches: o.searches, clock: o.clock, tenant: state.tenant, hiddenCashAirlines: state.hiddenCashAirlines, deadlineAt: state.deadlineAt, budget, keepAliveMs: o.keepAliveMs, trace: o.trace },
    (p) => state.days[pending[p]!]!.searchId,
    async (p, searchId) => {
      withDay(pending[p]!, { searchId });
      await write();
    },
  );

  const onSnapshot = (c: CalendarSnapshot) => {
    let changed = false;
    c.days.forEach((day, p) => {
      const i = pending[p]!;
      if (day.state !== "completed" || state.days[i]!.settled) return;
      withDay(i, { settled: { version: day.version, sources: day.sources, cash: day.cash, miles: day.miles, failure: day.failure } });
      changed = true;
    });
    if (!c.completed) {
      if (changed) void write();
      return;
    }
    const now = o.clock.now();
    state = { ...state, completed: true, completedAt: now, joinableUntil: now + (troubled(state.days) ? Math.min(o.failedTtlMs, o.ttlMs) : o.ttlMs) };
    logger.log({ level: "info", msg: "calendar.completed", calendarId: state.id, days: state.days.length, requests: budget?.used });
    void write(0).then(end);
  };

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    subscription.unsubscribe();
    o.onEnd();
  };

  const heartbeat = setInterval(() => void write(), Math.max(500, Math.floor(o.leaseMs / 3)));
  const subscription = new Subscription();
  subscription.add(calendar(plan, daySearch, { concurrency: o.concurrency, airports: o.airports, failureMessage: dayFailureMessage }).subscribe({
    next: onSnapshot,
    error: (e: unknown) => {
      logger.log({ level: "error", msg: "calendar.failed", calendarId: state.id, error: e instanceof Error ? e.message : String(e) });
      end();
    },
  }));

  return {
    async stop(release) {
      const wasRunning = !ended;
      end();
      await writes;
      if (release && wasRunning && !state.completed) await write(0);
    },
  };
};
