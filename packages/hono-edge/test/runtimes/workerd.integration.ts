import { afterAll, beforeAll } from "vitest";
import { runContract } from "../contract/contract-suite.js";
import { CONTRACT_ENV, type ContractTarget } from "../contract/contract-target.js";
import { startWorkerd, type WorkerdServer } from "./support/workerd-miniflare.js";

// The contract against the Worker inside workerd (miniflare 3), as wrangler.toml declares it: searches
// served by their Durable Object, over the socket miniflare opens on 127.0.0.1.
let server: WorkerdServer | undefined;
let target: ContractTarget | undefined;

beforeAll(async () => {
  const { VOAR_PORT: _port, VOAR_HOSTNAME: _host, ...bindings } = CONTRACT_ENV;
  server = await startWorkerd(bindings);
  target = server.target;
});
afterAll(async () => {
  await server?.mf.dispose();
});

runContract("workerd (miniflare 3, Durable Objects)", () => target!);
