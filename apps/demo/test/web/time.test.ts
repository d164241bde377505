import { describe, expect, it } from "vitest";
import { dayShift, formatClock, formatDuration, formatStops, formatZoneShift, minutesBetween, zoneShiftMinutes } from "../../src/web/format/time.js";

describe("times of the wire, for people", () => {
  it("writes durations as hours and minutes", () => {
    expect(formatDuration(345)).toBe("5h 45min");
    expect(formatDuration(50)).toBe("50min");
    expect(formatDuration(120)).toBe("2h");
    expect(formatDuration(605)).toBe("10h 05min");
  });

  it("reads local clock times without converting them", () => {
    expect(formatClock("2026-12-20T09:15:00")).toBe("09:15");
  });

  it("marks an arrival on the next day", () => {
    expect(dayShift("2026-12-20T22:35:00", "2026-12-21T07:35:00")).toBe(1);
    expect(dayShift("2026-12-20T09:15:00", "2026-12-20T15:00:00")).toBe(0);
  });

  it("shows the time-zone change: Lisbon 23:30 to São Paulo 06:50 takes 10h20, the clock goes back 3h", () => {
    const shift = zoneShiftMinutes("2026-12-20T23:30:00", "2026-12-21T06:50:00", 620);
    expect(shift).toBe(-180);
    expect(formatZoneShift(shift)).toBe("fuso −3h");
    expect(formatZoneShift(90)).toBe("fuso +1h30");
    expect(formatZoneShift(zoneShiftMinutes("2026-12-20T09:15:00", "2026-12-20T15:00:00", 345))).toBeUndefined();
  });

  it("counts a connection's wait and the stops", () => {
    expect(minutesBetween("2026-12-20T10:45:00", "2026-12-20T13:55:00")).toBe(190);
    expect([0, 1, 2].map(formatStops)).toEqual(["Direto", "1 parada", "2 paradas"]);
  });
});
