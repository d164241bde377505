import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { FIXTURES_DIR, recordScenario, scenario, SCENARIO_EPOCH, SCENARIOS, serializeFixture } from "../../src/index.js";

describe("recording the scenarios", () => {
  beforeEach(() => vi.useFakeTimers({ now: SCENARIO_EPOCH }));
  afterEach(() => vi.useRealTimers());

  it.each(SCENARIOS.map((s) => s.name))("records %s again, byte for byte, in virtual time", async (name) => {
    const fixture = await recordScenario(scenario(name), (ms) => vi.advanceTimersByTimeAsync(ms).then(() => undefined));
    expect(serializeFixture(fixture)).toBe(readFileSync(new URL(`${name}.json`, FIXTURES_DIR), "utf8"));
  });

  it("fails loudly when a scenario does not end as it says", async () => {
    const wrong = { ...scenario("permission-error"), ends: "completed" as const };
    await expect(recordScenario(wrong, (ms) => vi.advanceTimersByTimeAsync(ms).then(() => undefined))).rejects.toThrow(/ended refused, expected completed/);
  });
});
