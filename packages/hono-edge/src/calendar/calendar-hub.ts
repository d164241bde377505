import { planCalendar, todayInSaoPaulo, type AirportDirectory, type CalendarSnapshot, type SearchQuery } from "@voar/core";
import type { Clock } from "../clock.js";
import type { Admission } from "../limits/admission.js";
import type { Logger } from "../logging/logger.js";
import type { SearchHub } from "../search/search-hub.js";
import type { TraceContext } from "../search/run-search.js";
import { calendarKey, searchDaysAgain, staleDays, type CalendarRecord } from "./calendar-record.js";
import { runCalendar, type RunningCalendar } from "./calendar-runner.js";
import type { CalendarStore } from "./calendar-store.js";
import { calendarSnapshotOf } from "./calendar-view.js";
import { watchCalendar, type CalendarUpdate } from "./watch-calendar.js";

/**
 * The least time between two events of a calendar's stream: days changing within it go out in one event (all
 * days start at once, and their airlines answer about together), five a second at most.
 */
export const CALENDAR_EVENT_GAP_MS = 200;

/** What a {@link CalendarHub} needs. */
export interface CalendarHubOptions {
  readonly searches: SearchHub;
  readonly store: CalendarStore;
  /** Watches the days' searches (the session store's `watch`), to wake a stream at their changes. */
  readonly watch: (searchId: string, listener: () => void) => Promise<() => void>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly airports: AirportDirectory;
  readonly instanceId: string;
  readonly newId: () => string;
  /** A search's deadline: a calendar's is one per round of `concurrency` days (one round by default), plus one. */
  readonly searchDeadlineMs: number;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly failedTtlMs: number;
  /** Day searches one calendar runs at once at most; undefined: every day at once (within its budget). */
  readonly concurrency: number | undefined;
  /** Upstream requests a calendar may cause per day asked; undefined: no budget of its own. */
  readonly requestsPerDay: number | undefined;
  /** A running day's search is checked (taken over when its owner died) after this long without a change. */
  readonly keepAliveMs: number;
  /** How often a stream looks for changes no search announces (a day started). */
  readonly pollHintMs: number;
  readonly admission?: Admission | undefined;
}

/**
 * The price calendars of one instance, over the calendar store and the search hub: starts a calendar or
 * joins the live one with the same key, runs it (its days as ordinary searches, see `runCalendar`), takes
 * one over whose owner stopped renewing its lease (its days not started yet start here; its running days
 * are ordinary searches, taken over as any), searches again the days whose prices stopped being current
 * when the calendar is asked for again (see {@link CalendarHub.find}), and rebuilds a calendar's snapshot
 * from its days on any instance.
 */
export class CalendarHub {
  private readonly running = new Map<string, RunningCalendar>();
  private readonly takingOver = new Set<string>();

  constructor(private readonly o: CalendarHubOptions) {}

  /**
   * Starts the calendar of a query for a tenant (`flexibleDays` each side of its date; with `returnDays`, a grid
   * of departures by returns), or joins the live one.
   */
  async open(tenant: string, query: SearchQuery, days: { readonly flexibleDays: number; readonly returnDays?: number | undefined }, hiddenCashAirlines: readonly number[], trace?: TraceContext): Promise<CalendarRecord> {
    const { flexibleDays, returnDays } = days;
    const key = calendarKey(tenant, query, flexibleDays, returnDays, hiddenCashAirlines);
    this.o.admission?.admit(key);
    const now = this.o.clock.now();
    const plan = planCalendar(query, { before: flexibleDays, after: flexibleDays, returnDays }, todayInSaoPaulo(new Date(now)));
    const rounds = Math.ceil(plan.days.length / Math.max(1, this.o.concurrency ?? plan.days.length));
    const candidate: CalendarRecord = {
      id: this.o.store.idFor?.(key, this.o.newId()) ?? this.o.newId(),
      key,
      tenant,
      query,
      flexibleDays,
      ...(returnDays === undefined ? {} : { returnDays }),
      hiddenCashAirlines: [...hiddenCashAirlines],
      days: plan.days.map((d) => ({ departureDate: d.departureDate, ...(d.returnDate === undefined ? {} : { returnDate: d.returnDate }) })),
      ...(this.o.requestsPerDay === undefined ? {} : { budget: { limit: this.o.requestsPerDay * plan.days.length, used: 0 } }),
      createdAt: now,
      deadlineAt: now + (rounds + 1) * this.o.searchDeadlineMs,
      completed: false,
      lease: { owner: this.o.instanceId, expiresAt: now + this.o.leaseMs },
    };
    const { record, created } = await this.o.store.openOrJoin(candidate);
    this.o.admission?.served(key);
    if (created) {
      this.o.logger.log({ level: "info", msg: "calendar.started", calendarId: record.id, tenant, days: record.days.length });
      this.start(record, trace);
      return record;
    }
    return this.ensureRunning(record, trace);
  }

  /**
   * A live calendar of the tenant by id; undefined when unknown, expired or another tenant's. A calendar run
   * nowhere (completed, or its instance gone) whose days' prices stopped being current has those days
   * searched again from here: the record returned is the one now running.
   */
  async find(tenant: string, id: string): Promise<CalendarRecord | undefined> {
    const record = await this.o.store.get(id);
    if (!record || record.tenant !== tenant) return undefined;
    return this.ensureRunning(record);
  }

  /** The calendar's snapshot now, from its record and its days' searches. */
  snapshot(record: CalendarRecord): Promise<CalendarSnapshot> {
    return calendarSnapshotOf(record, this.o.searches, this.o.airports, this.o.clock.now());
  }

  /** Every new snapshot of a calendar after a version, for the SSE stream (see `watchCalendar`), at most one per {@link CALENDAR_EVENT_GAP_MS}. */
  updates(record: CalendarRecord, lastVersion: number | undefined, keepAliveMs: number, signal: AbortSignal): AsyncGenerator<CalendarUpdate> {
    return watchCalendar({
      latest: async () => this.snapshot((await this.find(record.tenant, record.id)) ?? record),
      watch: this.o.watch,
      lastVersion,
      keepAliveMs,
      tickMs: Math.max(100, this.o.pollHintMs),
      gapMs: CALENDAR_EVENT_GAP_MS,
      signal,
    });
  }

  /** Stops every calendar this instance runs and gives up their leases (their day searches are the search hub's). */
  async close(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.stop(true)));
  }

  private start(record: CalendarRecord, trace?: TraceContext): void {
    const o = this.o;
    let ended = false;
    const run = runCalendar({
      record,
      searches: o.searches,
      store: o.store,
      owner: o.instanceId,
      leaseMs: o.leaseMs,
      clock: o.clock,
      logger: o.logger,
      airports: o.airports,
      concurrency: o.concurrency,
      requestsPerDay: o.requestsPerDay,
      ttlMs: o.ttlMs,
      failedTtlMs: o.failedTtlMs,
      keepAliveMs: o.keepAliveMs,
      trace,
      onEnd: () => {
        ended = true;
        this.running.delete(record.id);
      },
    });
    if (!ended) this.running.set(record.id, run);
  }

  /**
   * Runs a calendar here when no instance does and it has days to search: one not complete whose lease
   * lapsed (its instance died) is taken over; one whose settled days' prices stopped being current (see
   * `staleDays`) has those days searched again, the calendar running anew. Resolves to the record as it now
   * stands (the one given when nothing changed, or another instance won the lease).
   */
  private async ensureRunning(record: CalendarRecord, trace?: TraceContext): Promise<CalendarRecord> {
    const id = record.id;
    const now = this.o.clock.now();
    if (this.running.has(id) || this.takingOver.has(id)) return record;
    const stale = staleDays(record, now);
    const runElsewhere = record.lease !== undefined && record.lease.expiresAt > now;
    if (runElsewhere || (record.completed && stale.length === 0)) return record;
    this.takingOver.add(id);
    try {
      const { searchDeadlineMs: deadlineMs, concurrency, requestsPerDay } = this.o;
      const next = stale.length > 0 ? searchDaysAgain(record, stale, now, { deadlineMs, concurrency, requestsPerDay }) : record;
      // Under this instance's lease: refused when another instance took it first.
      if (!(await this.o.store.save(next, this.o.instanceId, this.o.leaseMs))) return record;
      if (stale.length > 0) this.o.logger.log({ level: "info", msg: "calendar.refreshed", calendarId: id, days: stale.length });
      else this.o.logger.log({ level: "info", msg: "calendar.taken_over", calendarId: id, started: record.days.filter((d) => d.searchId !== undefined).length });
      this.start(next, trace);
      return next;
    } finally {
      this.takingOver.delete(id);
    }
  }
}
