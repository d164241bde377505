import { describe, expect, it } from "vitest";
import {
  dayShift,
  formatBrl,
  formatClock,
  formatCount,
  formatDuration,
  formatLocal,
  formatMiles,
  formatPercent,
  formatStops,
  formatZoneShift,
  minutesBetween,
  zoneShiftMinutes,
} from "../../src/shared/pt-br-format.js";

describe("numbers, money and times of the wire, for people (pt-BR, shared by the page and the CLI)", () => {
  it("writes money, counts, miles and percentages with pt-BR separators", () => {
    expect(formatBrl(1091.96)).toBe("R$\u00a01.091,96");
    expect(formatBrl(0.5)).toBe("R$\u00a00,50");
    expect(formatCount(12345)).toBe("12.345");
    expect(formatMiles(14691)).toBe("14.691 milhas");
    expect(formatMiles(12000, 10500)).toBe("12.000 + 10.500 milhas");
    expect(formatPercent(37.83)).toBe("38%");
    expect(formatPercent(5)).toBe("5%");
  });

  it("writes a local date-time as day, month and clock", () => {
    expect(formatLocal("2026-12-20T09:15:00")).toBe("20/12 09:15");
  });

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
