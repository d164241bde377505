import { calendar, daySettled, type AirportDirectory, type CalendarPlan, type CalendarSnapshot, type SearchSnapshot } from "@voar/core";
import { RequestBudgetGroup } from "@voar/http-adapter/fetch";
import { Subscription, tap } from "rxjs";
import type { Clock } from "../clock.js";
import { loggerInTrace, type Logger } from "../logging/logger.js";
import type { SearchHub } from "../search/search-hub.js";
import type { TraceContext } from "../search/run-search.js";
import { snapshotUsableUntil } from "../search/offer-validity.js";
import { dayQuery, daysUsableUntil, type CalendarDayRecord, type CalendarRecord } from "./calendar-record.js";
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
  /** Day searches at once at most; undefined: every day at once (within the budget, see {@link runCalendar}). */
  readonly concurrency: number | undefined;
  /** The share of the budget one day's search is given (`requestsPerDay`); with a budget, days start only while the budget left pays for theirs. */
  readonly requestsPerDay: number | undefined;
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
 * Day searches a run starts at once: every day not settled yet, at most `concurrency` when the operator caps
 * it, and with a budget as many as the requests left pay for at a day's share (at least one).
 */
const daysAtOnce = (pending: number, concurrency: number | undefined, budget: RequestBudgetGroup | undefined, perDay: number | undefined): number => {
  const paid = budget && perDay ? Math.max(1, Math.floor((budget.limit - budget.used) / perDay)) : Infinity;
  return Math.max(1, Math.min(pending, concurrency ?? Infinity, paid));
};

/**
 * Runs a calendar's days not settled yet with core's `calendar()` over the service's searches (see
 * `daySearchOf`), every day at once by default (see {@link daysAtOnce}), and keeps its record: each day's
 * search id as it starts (before it is followed, so an instance taking over never starts a second one), each
 * day as it completes with until when its prices hold (so it outlives its search), the budget used, and the
 * completion (joinable by new requests within the TTL and while every day's prices may be shown). The lease
 * is renewed with every write and on a heartbeat; a write refused (another instance holds the lease) stops the run.
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
  // Each running day's latest search snapshot: its offers say until when the day's prices may be shown.
  const latest = new Map<number, SearchSnapshot>();
  const following = daySearchOf(
    { searches: o.searches, clock: o.clock, tenant: state.tenant, hiddenCashAirlines: state.hiddenCashAirlines, deadlineAt: state.deadlineAt, budget, keepAliveMs: o.keepAliveMs, trace: o.trace },
    (p) => state.days[pending[p]!]!.searchId,
    async (p, searchId) => {
      withDay(pending[p]!, { searchId });
      await write();
    },
  );
  const daySearch = (query: CalendarPlan["days"][number], p: number) => following(query, p).pipe(tap((s) => latest.set(p, s)));

  const onSnapshot = (c: CalendarSnapshot) => {
    let changed = false;
    c.days.forEach((day, p) => {
      const i = pending[p]!;
      if (!daySettled(day) || state.days[i]!.settled) return;
      const searched = latest.get(p);
      const usableUntil = searched ? snapshotUsableUntil(searched) : undefined;
      withDay(i, { settled: { version: day.version, sources: day.sources, cash: day.cash, miles: day.miles, failure: day.failure, validUntil: day.validUntil, usableUntil } });
      latest.delete(p);
      changed = true;
    });
    if (!c.completed) {
      if (changed) void write();
      return;
    }
    const now = o.clock.now();
    const window = now + (troubled(state.days) ? Math.min(o.failedTtlMs, o.ttlMs) : o.ttlMs);
    state = { ...state, completed: true, completedAt: now, joinableUntil: Math.min(window, daysUsableUntil(state.days) ?? Infinity) };
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
  const concurrency = daysAtOnce(pending.length, o.concurrency, budget, o.requestsPerDay);
  subscription.add(calendar(plan, daySearch, { concurrency, airports: o.airports, failureMessage: dayFailureMessage }).subscribe({
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
