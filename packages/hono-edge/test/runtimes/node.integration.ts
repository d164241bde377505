import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import { entrySetup } from "../../src/entries/entry-env.js";
import { silentLogger } from "../../src/logging/logger.js";
import { runContract } from "../contract/contract-suite.js";
import { CONTRACT_ENV, type ContractTarget } from "../contract/contract-target.js";
import { socketTarget } from "./support/runtime-process.js";

// The contract on Node over a real socket: @hono/node-server on 127.0.0.1, a free port.
let server: ServerType | undefined;
let target: ContractTarget | undefined;

beforeAll(async () => {
  const setup = entrySetup(CONTRACT_ENV);
  const app = createApp({ config: setup.config, sources: setup.simulator.sources, logger: silentLogger });
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => resolve(info.port));
  });
  target = socketTarget(`http://127.0.0.1:${port}`);
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

runContract("node (@hono/node-server)", () => target!);
