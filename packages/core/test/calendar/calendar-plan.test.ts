import { describe, expect, it } from "vitest";
import { askOrder, planCalendar } from "../../src/calendar/calendar-plan.js";
import { queryA } from "../support/offers.js";

const dates = (plan: ReturnType<typeof planCalendar>) => plan.days.map((d) => d.departureDate);

describe("planCalendar", () => {
  it("covers the days on each side of Ida, in date order, each a query of its own", () => {
    const plan = planCalendar(queryA, 3);
    expect(dates(plan)).toEqual(["2026-12-17", "2026-12-18", "2026-12-19", "2026-12-20", "2026-12-21", "2026-12-22", "2026-12-23"]);
    expect(plan.asked).toBe(queryA);
    expect(plan.days.every((d) => d !== queryA && d.origin === "CNF" && d.mode.kind === "all-airlines" && d.returnDate === undefined)).toBe(true);
  });

  it("keeps a round trip's stay, across a month's end", () => {
    const plan = planCalendar({ ...queryA, departureDate: "2026-12-30", returnDate: "2027-01-04" }, { before: 1, after: 2 });
    expect(plan.days.map((d) => [d.departureDate, d.returnDate])).toEqual([
      ["2026-12-29", "2027-01-03"],
      ["2026-12-30", "2027-01-04"],
      ["2026-12-31", "2027-01-05"],
      ["2027-01-01", "2027-01-06"],
    ]);
  });

  it("leaves out the days a search may not ask: before today, or past the 365-day window", () => {
    expect(dates(planCalendar({ ...queryA, departureDate: "2026-03-03" }, 3, "2026-03-02"))).toEqual(["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"]);
    // 365 days after 2026-03-02 is 2027-03-02: a departure on it would return the day after, too far.
    const far = planCalendar({ ...queryA, departureDate: "2027-03-01", returnDate: "2027-03-02" }, 2, "2026-03-02");
    expect(far.days.map((d) => d.departureDate)).toEqual(["2027-02-27", "2027-02-28", "2027-03-01"]);
  });
});

describe("askOrder", () => {
  it("asks the day asked first, then the nearest days outward, the earlier of two as near first", () => {
    const plan = planCalendar(queryA, 3);
    expect(askOrder(plan).map((i) => plan.days[i]!.departureDate)).toEqual([
      "2026-12-20",
      "2026-12-19",
      "2026-12-21",
      "2026-12-18",
      "2026-12-22",
      "2026-12-17",
      "2026-12-23",
    ]);
  });

  it("goes outward from the day asked even when days before it were left out", () => {
    const plan = planCalendar({ ...queryA, departureDate: "2026-03-03" }, 3, "2026-03-02");
    expect(askOrder(plan).map((i) => plan.days[i]!.departureDate)).toEqual(["2026-03-03", "2026-03-02", "2026-03-04", "2026-03-05", "2026-03-06"]);
  });
});

describe("a grid of departures by returns (DiasFlexiveisVolta)", () => {
  const roundTrip = { ...queryA, departureDate: "2026-12-20", returnDate: "2026-12-22" };

  it("pairs every departure with every return around the one asked, on or after it, in date order", () => {
    const plan = planCalendar(roundTrip, { before: 1, after: 1, returnDays: 1 });
    expect(plan.days.map((d) => `${d.departureDate.slice(8)}>${d.returnDate!.slice(8)}`)).toEqual([
      "19>21", "19>22", "19>23",
      "20>21", "20>22", "20>23",
      "21>21", "21>22", "21>23",
    ]);
    // A return before its departure is no trip: left out.
    expect(planCalendar({ ...roundTrip, returnDate: "2026-12-20" }, { before: 1, after: 1, returnDays: 1 }).days.map((d) => `${d.departureDate.slice(8)}>${d.returnDate!.slice(8)}`)).toEqual([
      "19>19", "19>20", "19>21", "20>20", "20>21", "21>21",
    ]);
  });

  it("asks the cell asked first, then the nearest: departure moved plus stay changed", () => {
    const plan = planCalendar(roundTrip, { before: 1, after: 1, returnDays: 1 });
    const order = askOrder(plan).map((i) => `${plan.days[i]!.departureDate.slice(8)}>${plan.days[i]!.returnDate!.slice(8)}`);
    // The cell asked, then every cell one day away (departure moved, or stay changed), the earlier first.
    expect(order.slice(0, 5)).toEqual(["20>22", "19>21", "20>21", "20>23", "21>23"]);
    expect(order.at(-1)).toMatch(/^(19>23|21>21)$/);
    expect(new Set(order).size).toBe(9);
  });
});
