import { afterAll, beforeAll, expect, it } from "vitest";
import { runContract } from "../contract/contract-suite.js";
import { CONTRACT_ENV, type ContractTarget } from "../contract/contract-target.js";
import { externalHosts } from "../support/html.js";
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

// The Worker's bundle leaves Swagger UI's files out (its size budget): /api/docs says where the interactive
// reference is served (the Node entry) and links the document, with nothing fetched from another host.
it("workerd: /api/docs points at the Node-served reference and the OpenAPI document, without assets", async () => {
  const page = await target!.fetch("/api/docs", { method: "GET" });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("voar-server");
  expect(html).toContain('href="/api/openapi.json"');
  expect(externalHosts(html)).toEqual([]);
  expect((await target!.fetch("/api/openapi.json", { method: "GET" })).status).toBe(200);
  expect((await target!.fetch("/api/docs/assets/swagger-ui-bundle.js", { method: "GET" })).status).toBe(404);
});
