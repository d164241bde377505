import { todayInSaoPaulo } from "@voar/core";
import type { AlertSettings } from "../config/alerts-schema.js";
import type { Clock } from "../clock.js";
import type { RateLimiter, TokenBuckets } from "../limits/token-bucket.js";
import type { Logger } from "../logging/logger.js";
import type { ClaimedUnit, FiredEvent, UnitResult } from "./alert-record.js";
import type { AlertMetrics } from "./alert-metrics.js";
import type { AlertStore } from "./alert-store.js";
import { alertEventOf, anyFired, evaluateDay } from "./alert-evaluation.js";
import { budgetFloorMs, daysBetween, nextCheckInMs, samePrices } from "./alert-schedule.js";
import type { RouteDayPrices } from "./route-day-prices.js";

/** What {@link createAlertChecker} needs. */
export interface AlertCheckerOptions {
  readonly store: AlertStore;
  readonly prices: RouteDayPrices;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: AlertMetrics;
  /** This instance's id: the checks' lease owner. */
  readonly owner: string;
  readonly settings: AlertSettings;
  /** The tenant's budget of checks per hour (its quota). */
  readonly checksOf: (tenant: string) => RateLimiter;
  /** The upstream requests the checks may spend per hour, every instance together; undefined: no upstream, no budget. */
  readonly upstream: TokenBuckets | undefined;
  /** A new alert id (`webhook-id`). */
  readonly newId: () => string;
  /** 0..1; default `Math.random`. */
  readonly random?: (() => number) | undefined;
}

/** The day checks of one instance. */
export interface AlertChecker {
  /** Takes the due checks it has room for (leased) and starts them. */
  tick(): Promise<void>;
  /** Resolves when the checks in flight end. */
  idle(): Promise<void>;
  /** Stops the checks in flight (their leases lapse, and another instance takes their slots). */
  close(): void;
}

/** The budget's one key: every check of the deployment draws on it. */
const BUDGET_KEY = "checks";
/** How long a day whose check failed waits before its next try. */
const FAILED_RETRY_MS = 60_000;
/** How often the schedule's numbers (days scheduled, cost of a check) are read again. */
const STATS_EVERY_MS = 15_000;
/** Tries of one watch's write when another check of it wrote first. */
const WRITE_TRIES = 8;

/**
 * Runs the watches' day checks, each slot by exactly one instance: a due day is leased to one instance (the
 * store's `claim`), its lease renewed while it is checked, and recorded by that instance only (`complete`); a dead
 * instance's slot goes to another once its lease lapses. A check asks the tenants' quotas (a day all of whose
 * tenants spent theirs waits for them), then the upstream budget (what a check has cost lately, up front; the
 * difference once its cost is known), then searches the day through `prices` (the shared cache and searches), applies what it
 * found to each watch of the day (alerts written with the watch, at the revision read) and only then records the
 * check: an instance that dies between the two leaves a slot that is checked again, never a lost alert; the
 * alerts' rule never fires twice for one price.
 */
export const createAlertChecker = (o: AlertCheckerOptions): AlertChecker => {
  const running = new Map<string, { readonly done: Promise<void>; readonly abort: AbortController }>();
  const random = o.random ?? Math.random;
  const { schedule, budget } = o.settings;
  const budgetPerHour = budget.upstreamRequestsPerHour === undefined ? undefined : Math.max(1, Math.floor(budget.upstreamRequestsPerHour * budget.share));
  let stats = { units: 0, requestsPerCheck: 0, readAt: -Infinity };

  const floor = async () => {
    if (budgetPerHour === undefined) return 0;
    if (o.clock.now() - stats.readAt >= STATS_EVERY_MS) stats = { ...(await o.store.stats()), readAt: o.clock.now() };
    return budgetFloorMs(stats.units, stats.requestsPerCheck, budgetPerHour);
  };

  /** Takes a check's expected cost from the budget: how many requests were taken, or minus the seconds to wait. */
  const reserve = async (budget: TokenBuckets): Promise<number> => {
    await floor();
    const wanted = Math.max(1, Math.ceil(stats.requestsPerCheck));
    for (let taken = 0; taken < wanted; taken++) {
      const d = await budget.take(BUDGET_KEY);
      if (!d.ok) {
        for (let i = 0; i < taken; i++) await budget.refund(BUDGET_KEY);
        return -d.retryAfterSeconds;
      }
    }
    return wanted;
  };
  /** Takes the rest of a check's cost, or gives back what it did not need. */
  const settle = async (budget: TokenBuckets, taken: number, cost: number) => {
    for (let i = taken; i < cost; i++) await budget.take(BUDGET_KEY);
    for (let i = cost; i < taken; i++) await budget.refund(BUDGET_KEY);
  };

  /** Applies a day's check to every watch of it; each write at the revision it read, tried again when another came first. */
  const apply = async (unit: ClaimedUnit, result: UnitResult) => {
    const day = unit.query.departureDate;
    for (const [id, tenant] of Object.entries(unit.watchers)) {
      for (let attempt = 1; attempt <= WRITE_TRIES; attempt++) {
        const w = await o.store.get(id);
        if (!w || w.expiresAt <= o.clock.now() || !w.spec.days.includes(day)) break;
        const { next, fired } = evaluateDay(w, day, result);
        const events: FiredEvent[] = [];
        if (anyFired(fired)) {
          // A search of the tenant's own, answered by the cache the check just filled: the alert's TokenBusca.
          const token = await o.prices.searchFor(tenant, unit.query).catch(() => undefined);
          events.push({ event: alertEventOf(w, day, fired, { id: o.newId(), token, at: result.at }), webhook: w.spec.webhook });
        }
        if (await o.store.update(next, w.rev, events)) {
          if (fired.cash) o.metrics.fired("cash");
          if (fired.miles) o.metrics.fired("miles");
          if (events.length > 0) o.logger.log({ level: "info", msg: "alert.fired", alertId: id, tenant, day, cash: fired.cash !== undefined, miles: fired.miles !== undefined });
          break;
        }
      }
    }
  };

  const check = async (unit: ClaimedUnit, signal: AbortSignal): Promise<void> => {
    const day = unit.query.departureDate;
    const now = o.clock.now();
    if (daysBetween(todayInSaoPaulo(new Date(now)), day) < 0) return void (await o.store.drop(unit.key));
    // The tenants' quotas: a check serves every watch of the day; it waits only when every tenant spent its quota.
    const tenants = [...new Set(Object.values(unit.watchers))];
    const decisions = await Promise.all(tenants.map((t) => o.checksOf(t).take(t)));
    if (!decisions.some((d) => d.ok)) {
      const wait = Math.min(...decisions.map((d) => (d.ok ? 0 : d.retryAfterSeconds)));
      o.metrics.check("quota", 0);
      o.logger.log({ level: "info", msg: "alert.check_deferred", unit: unit.key, reason: "quota", retryInMs: wait * 1000 });
      return o.store.release(unit.key, o.owner, wait * 1000);
    }
    // The upstream budget: what a check has cost lately, taken up front (a check while that is unknown: one request).
    const upFront = o.upstream ? await reserve(o.upstream) : 0;
    if (upFront < 0) {
      const wait = -upFront;
      o.metrics.check("budget", 0);
      o.logger.log({ level: "info", msg: "alert.check_deferred", unit: unit.key, reason: "budget", retryInMs: wait * 1000 });
      return o.store.release(unit.key, o.owner, wait * 1000);
    }
    const heartbeat = setInterval(() => void o.store.renew(unit.key, o.owner, schedule.leaseMs).catch(() => undefined), Math.max(50, Math.floor(schedule.leaseMs / 3)));
    let result: UnitResult;
    try {
      result = await o.prices.check(unit.query, signal);
    } catch (e) {
      clearInterval(heartbeat);
      // Stopping: the slot goes back at once, for another instance to take.
      if (signal.aborted) return o.store.release(unit.key, o.owner, 0).catch(() => undefined);
      o.metrics.check("failed", 0);
      o.logger.log({ level: "warn", msg: "alert.check_failed", unit: unit.key, error: e instanceof Error ? e.message : String(e) });
      return o.store.release(unit.key, o.owner, Math.min(FAILED_RETRY_MS, schedule.minIntervalMs));
    }
    try {
      // Its cost, now known, set against what was taken up front.
      if (o.upstream) await settle(o.upstream, upFront, result.requests);
      await apply(unit, result);
    } finally {
      clearInterval(heartbeat);
    }
    const stable = result.failed === 0 && samePrices(unit.last?.prices, result.prices) ? unit.stable + 1 : 0;
    const nextInMs = nextCheckInMs({ daysAhead: daysBetween(todayInSaoPaulo(new Date(o.clock.now())), day), stable, settings: schedule, floorMs: await floor(), random: random() });
    const recorded = await o.store.complete(unit.key, o.owner, unit.claimed, result, stable, nextInMs);
    if (result.requests > 0) stats = { ...stats, readAt: -Infinity }; // the average moved: read it again before the next reservation
    o.metrics.check("checked", result.requests);
    o.logger.log({ level: "info", msg: recorded ? "alert.checked" : "alert.check_lease_lost", unit: unit.key, slot: unit.claimed, requests: result.requests, watches: Object.keys(unit.watchers).length, nextInMs });
  };

  return {
    async tick() {
      const free = schedule.concurrency - running.size;
      if (free <= 0) return;
      for (const unit of await o.store.claim(o.owner, schedule.leaseMs, free)) {
        const abort = new AbortController();
        const done = check(unit, abort.signal)
          .catch((e: unknown) => o.logger.log({ level: "warn", msg: "alert.check_error", unit: unit.key, error: e instanceof Error ? e.message : String(e) }))
          .finally(() => running.delete(unit.key));
        running.set(unit.key, { done, abort });
      }
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running.values()].map((r) => r.done));
    },
    close() {
      for (const r of running.values()) r.abort.abort(new DOMException("the service is stopping", "AbortError"));
    },
  };
};
