import { afterAll, beforeAll, describe } from "vitest";
import { runContract } from "../contract/contract-suite.js";
import { CONTRACT_ENV } from "../contract/contract-target.js";
import { bunBinary, PACKAGE_DIR, runsHere } from "./support/runtime-binaries.js";
import { startRuntime, type RuntimeServer } from "./support/runtime-process.js";

// The contract against the Bun entry, from the npm package's binary (Bun runs the TypeScript sources as they are).
const bun = bunBinary();

describe.runIf(runsHere("Bun", bun))("bun", () => {
  let server: RuntimeServer | undefined;
  beforeAll(async () => {
    if (!bun.ok) throw new Error(`Bun cannot run here: ${bun.reason}`);
    server = await startRuntime(bun.path, ["src/entries/bun.ts"], CONTRACT_ENV, PACKAGE_DIR);
  });
  afterAll(async () => {
    await server?.stop();
  });
  runContract(`bun (${bun.ok ? `v${bun.version}` : "missing"})`, () => server!.target);
});
