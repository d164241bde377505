/**
 * The schedule of price watches' checks: intervals that tighten near departure and loosen while prices stay put,
 * never below what the upstream budget allows; two instances on one store check each slot once, and a dead
 * instance's slot goes to the other once its lease lapses; the budget and the tenants' quotas put checks off.
 */
import { addDays, todayInSaoPaulo } from "@voar/core";
import { describe, expect, it } from "vitest";
import { budgetFloorMs, nextCheckInMs } from "../../src/alerts/alert-schedule.js";
import { createMemorySessionStore } from "../../src/search/memory-session-store.js";
import { manualClock, OTHER_KEY } from "../support/app.js";
import { alertApp, alertas, priceLever } from "./support.js";

const settings = { baseIntervalMs: 3_600_000, minIntervalMs: 900_000, maxIntervalMs: 43_200_000 };
const today = todayInSaoPaulo(new Date());

describe("price watches: the schedule", () => {
  it("checks more often near departure, less while prices stay put, never under the budget's floor", () => {
    const at = (daysAhead: number, stable = 0, floorMs = 0) => nextCheckInMs({ daysAhead, stable, settings, floorMs, random: 0.5 });
    expect([2, 10, 30, 90, 200].map((d) => at(d) / 60_000)).toEqual([15, 30, 60, 120, 240]);
    expect([0, 1, 2, 3, 9].map((s) => at(30, s) / 3_600_000)).toEqual([1, 2, 4, 8, 8]);
    expect(at(200, 3)).toBe(43_200_000);
    // 3,000 days checked, 6 requests each, 600 requests an hour: no day more often than every 30 h.
    expect(budgetFloorMs(3_000, 6, 600)).toBe(30 * 3_600_000);
    expect(at(2, 0, budgetFloorMs(3_000, 6, 600))).toBe(30 * 3_600_000);
    expect(budgetFloorMs(3_000, 6, undefined)).toBe(0);
  });

  it("two instances on one store check each slot once; a dead instance's slot goes to the other after its lease", async () => {
    const clock = manualClock(Date.now());
    const store = createMemorySessionStore({ clock, maxSessions: 100, ttlMs: 60_000 });
    const lever = priceLever();
    const days = [20, 21, 22, 23].map((n) => addDays(today, n));
    for (const d of days) lever.cash.set(d, 500_00);
    const configInput = { alerts: { schedule: { baseIntervalMs: 1_000, minIntervalMs: 1_000, maxIntervalMs: 1_000, leaseMs: 5_000, concurrency: 2 } } };
    const one = alertApp({ alerts: { prices: () => lever.prices }, deps: { clock, store, instanceId: "um" }, configInput });
    const two = alertApp({ alerts: { prices: () => lever.prices }, deps: { clock, store, instanceId: "dois" }, configInput });
    await alertas(one.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: days[1], DiasFlexiveis: 1 } });
    await alertas(two.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: days[3] }, key: OTHER_KEY });
    const round = async (...apps: (typeof one)[]) => {
      for (const app of apps) await app.alerts().tick();
      for (const app of apps) await app.alerts().idle();
    };
    for (let i = 0; i < 5; i++) {
      await round(one, two);
      clock.advance(1_100);
    }
    // Every slot of every day once: 5 rounds, 4 days, 2 at a time on each instance.
    const perDay = new Map<string, number>();
    for (const q of lever.checks) perDay.set(q.departureDate, (perDay.get(q.departureDate) ?? 0) + 1);
    expect([...perDay.values()]).toEqual([5, 5, 5, 5]);

    // Instance two takes two slots and dies before finishing them: nobody checks them within the lease...
    const check = lever.prices.check;
    const stuck: string[] = [];
    lever.prices.check = (q) => (stuck.push(q.departureDate), new Promise(() => undefined));
    await two.alerts().tick();
    lever.prices.check = check;
    expect(stuck).toHaveLength(2);
    const count = (d: string) => lever.checks.filter((q) => q.departureDate === d).length;
    for (let i = 0; i < 3; i++) {
      await round(one);
      clock.advance(1_100);
    }
    expect(stuck.map(count)).toEqual([5, 5]);
    // ...and once it lapsed, the survivor checks them, the slot two held: each once more.
    clock.advance(5_000);
    for (let i = 0; i < 3; i++) {
      await round(one);
      clock.advance(100);
    }
    expect(stuck.map(count)).toEqual([6, 6]);
  });

  it("puts checks off when the upstream budget is spent, and when every tenant of a day spent its quota", async () => {
    const clock = manualClock(Date.now());
    const lever = priceLever();
    const days = [30, 31, 32].map((n) => addDays(today, n));
    for (const d of days) lever.cash.set(d, 500_00);
    // 50 requests an hour at a share of 0.2: 10. The first check (cost unknown: 1 up front) costs 6; the next takes 6 up front: not there.
    const budgeted = alertApp({ alerts: { prices: () => lever.prices }, deps: { clock }, configInput: { alerts: { budget: { upstreamRequestsPerHour: 50 }, schedule: { concurrency: 1 } } } });
    await alertas(budgeted.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: days[1], DiasFlexiveis: 1 } });
    for (let i = 0; i < 2; i++) {
      await budgeted.alerts().tick();
      await budgeted.alerts().idle();
    }
    expect(lever.checks).toHaveLength(1);
    const { logs } = budgeted;
    expect(logs.records.filter((r) => r.msg === "alert.check_deferred" && r["reason"] === "budget")).toHaveLength(1);

    const quota = priceLever();
    for (const d of days) quota.cash.set(d, 500_00);
    const limited = alertApp({ alerts: { prices: () => quota.prices }, deps: { clock }, configInput: { alerts: { quota: { checksPerHour: 2 } } } });
    await alertas(limited.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: days[1], DiasFlexiveis: 1 } });
    await limited.alerts().tick();
    await limited.alerts().idle();
    expect(quota.checks).toHaveLength(2);
    expect(limited.logs.records.filter((r) => r.msg === "alert.check_deferred" && r["reason"] === "quota")).toHaveLength(1);
  });
});
