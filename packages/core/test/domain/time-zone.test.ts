import { describe, expect, it } from "vitest";
import { elapsedMinutes, offsetMinutesAt, zonedToUtcMs } from "../../src/domain/time-zone.js";

describe("time zones", () => {
  it("a GRU-LIS night flight lasts wall-clock difference minus the zone change", () => {
    expect(elapsedMinutes("2026-12-20T19:05:00", "America/Sao_Paulo", "2026-12-21T07:40:00", "Europe/Lisbon")).toBe(575);
  });

  it("offsets are right on both sides of a DST change, memoized or not", () => {
    const before = Date.UTC(2026, 2, 29, 0, 59);
    const after = Date.UTC(2026, 2, 29, 1, 0);
    for (let i = 0; i < 2; i++) {
      expect(offsetMinutesAt("Europe/Lisbon", before)).toBe(0);
      expect(offsetMinutesAt("Europe/Lisbon", after)).toBe(60);
    }
    // Lord Howe changes by 30 minutes at 02:00 local (15:30 UTC): a half-hour boundary of UTC.
    expect(offsetMinutesAt("Australia/Lord_Howe", Date.UTC(2026, 9, 3, 15, 29))).toBe(630);
    expect(offsetMinutesAt("Australia/Lord_Howe", Date.UTC(2026, 9, 3, 15, 30))).toBe(660);
  });

  it("a local time is read in its own zone", () => {
    expect(zonedToUtcMs("2026-12-20T10:00:00", "America/Sao_Paulo")).toBe(Date.UTC(2026, 11, 20, 13, 0));
  });
});
