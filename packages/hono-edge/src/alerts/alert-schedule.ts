import { epochDay } from "@voar/core";
import type { CabinPrices } from "./alert-record.js";

/**
 * When a day is checked next: often near its departure, seldom far from it, less and less while its prices
 * stay put, and never so often that the watches' checks, all of them together, would spend more than their
 * share of the upstream's budget per hour.
 */

/** The schedule's settings (`alerts.schedule`). */
export interface ScheduleSettings {
  readonly baseIntervalMs: number;
  readonly minIntervalMs: number;
  readonly maxIntervalMs: number;
}

/** The factor of the base interval by days to departure: a quarter in the last 3 days, 4x beyond 4 months. */
export const nearnessFactor = (daysAhead: number): number =>
  daysAhead <= 3 ? 0.25 : daysAhead <= 14 ? 0.5 : daysAhead <= 45 ? 1 : daysAhead <= 120 ? 2 : 4;

/** The factor of checks in a row that found the same prices: 1, 2, 4, then 8 at most. */
export const stabilityFactor = (stable: number): number => 2 ** Math.min(Math.max(0, stable), 3);

/**
 * The least interval that keeps every day's checks within the budget: with `units` days checked each once per
 * interval, each costing `requestsPerCheck` upstream requests, the hour's spending is at most `budgetPerHour`.
 * 0 without a budget (no upstream: nothing to spend).
 */
export const budgetFloorMs = (units: number, requestsPerCheck: number, budgetPerHour: number | undefined): number =>
  budgetPerHour === undefined || budgetPerHour <= 0 ? 0 : Math.ceil((units * Math.max(0, requestsPerCheck) * 3_600_000) / budgetPerHour);

/** What {@link nextCheckInMs} weighs. */
export interface NextCheck {
  /** Days from today (São Paulo) to the day checked. */
  readonly daysAhead: number;
  readonly stable: number;
  readonly settings: ScheduleSettings;
  /** {@link budgetFloorMs} now. */
  readonly floorMs: number;
  /** 0..1: spreads the days of one burst of watches apart (±10 %). */
  readonly random: number;
}

/** Milliseconds until a day's next check. */
export const nextCheckInMs = (n: NextCheck): number => {
  const { baseIntervalMs, minIntervalMs, maxIntervalMs } = n.settings;
  const wanted = baseIntervalMs * nearnessFactor(n.daysAhead) * stabilityFactor(n.stable);
  const jittered = Math.min(maxIntervalMs, Math.max(minIntervalMs, wanted)) * (0.9 + 0.2 * n.random);
  return Math.round(Math.max(jittered, n.floorMs));
};

/** Days from `today` to `day` (both `YYYY-MM-DD`). */
export const daysBetween = (today: string, day: string): number => epochDay(day) - epochDay(today);

/** Whether two checks of a day found the same cheapest fares (any cabin: what every watch compares). */
export const samePrices = (a: CabinPrices | undefined, b: CabinPrices): boolean => {
  if (!a) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof CabinPrices>;
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (x?.cash?.total.amount !== y?.cash?.total.amount || x?.miles?.points !== y?.miles?.points || x?.miles?.taxes.amount !== y?.miles?.taxes.amount) return false;
  }
  return true;
};
