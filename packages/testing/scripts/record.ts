/**
 * Records every shipped scenario again into `fixtures/` (`pnpm --filter @voar/testing record`). Time is
 * virtual (@sinonjs/fake-timers), so this takes seconds and writes the same bytes every time.
 * `--check` writes nothing and fails when a shipped fixture differs from a fresh recording.
 */
import { install } from "@sinonjs/fake-timers";
import { readFileSync, writeFileSync } from "node:fs";
import { FIXTURES_DIR } from "../src/fixtures/load-fixture.js";
import { SCENARIO_EPOCH, SCENARIOS } from "../src/scenarios/catalogue.js";
import { recordScenario } from "../src/scenarios/record-scenario.js";
import { serializeFixture } from "../src/fixtures/serialize-fixture.js";

const check = process.argv.includes("--check");
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const clock = install({
  now: SCENARIO_EPOCH,
  toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate", "Date"],
});
let stale = 0;
try {
  for (const s of SCENARIOS.filter((x) => only.length === 0 || only.includes(x.name))) {
    clock.setSystemTime(SCENARIO_EPOCH);
    const text = serializeFixture(await recordScenario(s, async (ms) => void (await clock.tickAsync(ms))));
    const file = new URL(`${s.name}.json`, FIXTURES_DIR);
    const kib = (Buffer.byteLength(text) / 1024).toFixed(1);
    if (check) {
      let shipped = "";
      try {
        shipped = readFileSync(file, "utf8");
      } catch (error) {
        shipped = `missing (${error instanceof Error ? error.message : String(error)})`;
      }
      const same = shipped === text;
      if (!same) stale++;
      console.log(`${same ? "same " : "STALE"} ${s.name} (${kib} KiB)`);
    } else {
      writeFileSync(file, text);
      console.log(`wrote ${s.name}.json (${kib} KiB)`);
    }
  }
} finally {
  clock.uninstall();
}
if (stale > 0) {
  console.error(`${stale} fixture(s) differ from a fresh recording: run pnpm --filter @voar/testing record`);
  process.exit(1);
}
