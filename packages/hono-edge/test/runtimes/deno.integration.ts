import { afterAll, beforeAll, describe } from "vitest";
import { runContract } from "../contract/contract-suite.js";
import { CONTRACT_ENV } from "../contract/contract-target.js";
import { denoBinary, PACKAGE_DIR, runsHere } from "./support/runtime-binaries.js";
import { startRuntime, type RuntimeServer } from "./support/runtime-process.js";

// The contract against the Deno entry, from the npm package's binary. `--sloppy-imports` lets Deno read the
// workspace's TypeScript sources as written (relative imports end in `.js`, files in `.ts`); bare imports
// resolve through package.json and node_modules. No update check: the test reaches nothing beyond loopback.
const deno = denoBinary();

describe.runIf(runsHere("Deno", deno))("deno", () => {
  let server: RuntimeServer | undefined;
  beforeAll(async () => {
    if (!deno.ok) throw new Error(`Deno cannot run here: ${deno.reason}`);
    server = await startRuntime(deno.path, ["run", "--allow-env", "--allow-net=127.0.0.1", "--sloppy-imports", "src/entries/deno.ts"], { ...CONTRACT_ENV, DENO_NO_UPDATE_CHECK: "1" }, PACKAGE_DIR);
  });
  afterAll(async () => {
    await server?.stop();
  });
  runContract(`deno (${deno.ok ? deno.version : "missing"})`, () => server!.target);
});
