import { describe, expect, it } from "vitest";
import { colorEnabled } from "../../src/cli/colors.js";

describe("when the CLI colors its output", () => {
  it("colors a terminal, never a pipe, and follows NO_COLOR, FORCE_COLOR and TERM=dumb", () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    expect(colorEnabled({ out: tty, env: {} })).toBe(true);
    expect(colorEnabled({ out: pipe, env: {} })).toBe(false);
    expect(colorEnabled({ out: pipe, env: { CI: "true" } })).toBe(false);
    expect(colorEnabled({ out: tty, env: { NO_COLOR: "1" } })).toBe(false);
    expect(colorEnabled({ out: tty, env: { NO_COLOR: "" } })).toBe(true);
    expect(colorEnabled({ out: tty, env: { TERM: "dumb" } })).toBe(false);
    expect(colorEnabled({ out: pipe, env: { FORCE_COLOR: "1" } })).toBe(true);
    expect(colorEnabled({ out: pipe, env: { FORCE_COLOR: "0" } })).toBe(false);
    expect(colorEnabled({ out: tty, env: { NO_COLOR: "1", FORCE_COLOR: "1" } })).toBe(false);
  });
});
