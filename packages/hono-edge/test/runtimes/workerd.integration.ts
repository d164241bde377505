import { Miniflare } from "miniflare";
import { afterAll, beforeAll } from "vitest";
import { runContract } from "../contract/contract-suite.js";
import { CONTRACT_ENV, type ContractTarget } from "../contract/contract-target.js";
import { socketTarget } from "./support/runtime-process.js";
import { bundleWorkerd } from "./support/bundle-workerd.js";

// The contract against the app inside workerd (miniflare 3), over the socket miniflare opens on 127.0.0.1.
let mf: Miniflare | undefined;
let target: ContractTarget | undefined;

beforeAll(async () => {
  const { VOAR_PORT: _port, VOAR_HOSTNAME: _host, ...bindings } = CONTRACT_ENV;
  mf = new Miniflare({
    modules: true,
    script: await bundleWorkerd(),
    compatibilityDate: "2024-09-23",
    bindings,
    host: "127.0.0.1",
    port: 0,
    // The worker's request logs: drained, not echoed into the test report; its errors still show.
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.resume();
      stderr.pipe(process.stderr);
    },
  });
  target = socketTarget(new URL(await mf.ready).origin);
});
afterAll(async () => {
  await mf?.dispose();
});

runContract("workerd (miniflare 3)", () => target!);
