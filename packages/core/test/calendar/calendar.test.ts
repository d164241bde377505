import { ignoreElements, tap } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { describe, expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import { planCalendar } from "../../src/calendar/calendar-plan.js";
import { calendar, DAY_NOT_SEARCHED, DAY_STOPPED } from "../../src/calendar/calendar.js";
import type { CalendarSnapshot } from "../../src/calendar/calendar-snapshot.js";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot, type SearchSnapshot } from "../../src/engine/snapshot.js";
import type { SearchQuery } from "../../src/query/query.js";
import { makeOffer, queryA } from "../support/offers.js";

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** The snapshots of a day's search: a first batch at `total`, then done (completed). */
const daySnapshots = (day: SearchQuery, total: number): { readonly first: SearchSnapshot; readonly done: SearchSnapshot } => {
  const start = initialSnapshot(day, [{ id: "latam", name: "LATAM" }]);
  const first = reduce(start, { type: "batch", sourceId: "latam", offers: [makeOffer({ id: `o-${day.departureDate}`, total, departure: `${day.departureDate}T10:00:00` })] });
  return { first, done: reduce(first, { type: "done", sourceId: "latam" }) };
};

const priceOf = (day: SearchQuery) => 10_000 + Number(day.departureDate.slice(8, 10)) * 100;

describe("calendar", () => {
  it("searches the day asked first, then outward, never more than `concurrency` days at once", () => {
    scheduler().run(({ cold, expectSubscriptions, flush }) => {
      const plan = planCalendar(queryA, 2); // 18 .. 22 December
      // Each day's search takes 4 frames, 2 for the day asked: the next day starts when one ends.
      const searches = new Map<string, ReturnType<typeof cold<SearchSnapshot>>>();
      const daySearch = (day: SearchQuery) => {
        const { first, done } = daySnapshots(day, priceOf(day));
        const s = cold(day.departureDate === "2026-12-20" ? "-a(b|)" : "-a--(b|)", { a: first, b: done });
        searches.set(day.departureDate, s);
        return s;
      };
      const last: CalendarSnapshot[] = [];
      calendar(plan, daySearch, { concurrency: 2, airports }).subscribe((c) => last.push(c));
      flush();
      expectSubscriptions(searches.get("2026-12-20")!.subscriptions).toBe("^-!");
      expectSubscriptions(searches.get("2026-12-19")!.subscriptions).toBe("^---!");
      expectSubscriptions(searches.get("2026-12-21")!.subscriptions).toBe("--^---!");
      expectSubscriptions(searches.get("2026-12-18")!.subscriptions).toBe("----^---!");
      expectSubscriptions(searches.get("2026-12-22")!.subscriptions).toBe("------^---!");
      const final = last.at(-1)!;
      expect(final.completed).toBe(true);
      expect(final.days.map((d) => [d.query.departureDate, d.state, d.cash?.total.amount, d.asked])).toEqual([
        ["2026-12-18", "completed", 11_800, false],
        ["2026-12-19", "completed", 11_900, false],
        ["2026-12-20", "completed", 12_000, true],
        ["2026-12-21", "completed", 12_100, false],
        ["2026-12-22", "completed", 12_200, false],
      ]);
      // Versions grow by one per change; the first snapshot has every day waiting.
      expect(last[0]!.days.every((d) => d.state === "waiting")).toBe(true);
      expect(last.map((c) => c.version)).toEqual(last.map((_, i) => i));
    });
  });

  it("a day whose search fails, or ends before completing, is completed with why: the calendar goes on", () => {
    scheduler().run(({ cold, flush }) => {
      const plan = planCalendar(queryA, 1);
      const daySearch = (day: SearchQuery) => {
        const { first, done } = daySnapshots(day, priceOf(day));
        if (day.departureDate === "2026-12-19") return cold<SearchSnapshot>("-#", undefined, new Error("capacity: secret detail"));
        if (day.departureDate === "2026-12-21") return cold("-a|", { a: first });
        return cold("-a-b|", { a: first, b: done });
      };
      const seen: CalendarSnapshot[] = [];
      calendar(plan, daySearch, { airports }).subscribe((c) => seen.push(c));
      flush();
      const final = seen.at(-1)!;
      expect(final.completed).toBe(true);
      expect(final.days.map((d) => [d.state, d.failure, d.cash?.total.amount])).toEqual([
        ["completed", DAY_NOT_SEARCHED, undefined],
        ["completed", undefined, 12_000],
        // It kept the price it had found: partial, never lost.
        ["completed", DAY_STOPPED, 12_100],
      ]);
      expect(JSON.stringify(final)).not.toMatch(/secret/);
    });
  });

  it("names a failure as the caller says; a late change of a completed day changes nothing", () => {
    scheduler().run(({ cold, flush }) => {
      const plan = planCalendar(queryA, 0);
      const seen: CalendarSnapshot[] = [];
      calendar(plan, () => cold<SearchSnapshot>("#", undefined, new Error("x")), { airports, failureMessage: () => "Limite de buscas." }).subscribe((c) => seen.push(c));
      flush();
      expect(seen.at(-1)!.days[0]).toMatchObject({ state: "completed", failure: "Limite de buscas." });
    });
  });

  it("unsubscribing stops every day's search in flight", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const plan = planCalendar(queryA, 1);
      const all: ReturnType<typeof cold<SearchSnapshot>>[] = [];
      const daySearch = (day: SearchQuery) => {
        const { first, done } = daySnapshots(day, priceOf(day));
        const s = cold("-a------b|", { a: first, b: done });
        all.push(s);
        return s;
      };
      // Subscribed at frame 0, unsubscribed at frame 3.
      const versions: number[] = [];
      const calendar$ = calendar(plan, daySearch, { concurrency: 2, airports }).pipe(tap((c) => versions.push(c.version)), ignoreElements());
      expectObservable(calendar$, "^--!").toBe("");
      flush();
      // The start, two days started, their first snapshots; nothing after the unsubscription.
      expect(versions).toEqual([0, 1, 2, 3, 4]);
      expect(all).toHaveLength(2);
      for (const s of all) expectSubscriptions(s.subscriptions).toBe("^--!");
    });
  });
});
