import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { airportsPtBr } from "@voar/core/airports";
import { createApp, defineConfig, silentLogger } from "@voar/hono-edge";
import { createSimulator } from "@voar/testing/simulator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDemoApp } from "../../src/server/demo-app.js";
import type { DemoConfig } from "../../src/shared/demo-config.js";

const config: DemoConfig = {
  apiBaseUrl: "/api",
  apiKey: "demo-api-key-for-tests-01",
  adminKey: "demo-admin-key-for-tests-01",
  backend: "simulador",
  docsUrl: "/api/docs",
  siteDocsUrl: "/docs/",
  openApiUrl: "/api/openapi.json",
  simulatedFailures: [],
  companhias: [1, 2, 3, 11, 13, 22, 26, 34],
};

let folder: string;
let docsRoot: string;
let app: ReturnType<typeof createDemoApp>;
let warnings: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  warnings = vi.spyOn(console, "warn");
  folder = await mkdtemp(join(tmpdir(), "voar-demo-docs-"));
  const webRoot = join(folder, "web");
  docsRoot = join(folder, "docs");
  await mkdir(webRoot);
  await writeFile(join(webRoot, "index.html"), "<!doctype html><title>Voar</title>");
  const service = createApp({ config: defineConfig({ apiKeys: [{ name: "demo", key: config.apiKey }] }), sources: createSimulator().sources, logger: silentLogger });
  app = createDemoApp({ service, basePath: "/api", config, airports: airportsPtBr, webRoot, docsRoot });
});
afterAll(async () => {
  warnings.mockRestore();
  await rm(folder, { recursive: true, force: true });
});

describe("the documentation site under /docs", () => {
  it("says how to build it while it is not built, without failing the demo or warning on the console", async () => {
    const res = await app.request("/docs/");
    expect(warnings).not.toHaveBeenCalled();
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).toContain("npx -y pnpm@10.34.9 docs:build");
    expect(text).toContain('href="/api/docs"');
    // The page and the API are served as before.
    expect((await app.request("/")).status).toBe(200);
  });

  it("serves the built site: /docs redirects to /docs/, pages never cached, hashed assets for good", async () => {
    await mkdir(join(docsRoot, "assets"), { recursive: true });
    await mkdir(join(docsRoot, "core"));
    await writeFile(join(docsRoot, "index.html"), "<!doctype html><title>What Voar is</title>");
    await writeFile(join(docsRoot, "core", "search.html"), "<!doctype html><title>search() as an Observable</title>");
    await writeFile(join(docsRoot, "assets", "app.abc123.js"), "export {}");

    const bare = await app.request("/docs");
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/docs/");
    const home = await app.request("/docs/");
    expect(home.status).toBe(200);
    expect(home.headers.get("cache-control")).toBe("no-cache");
    expect(await home.text()).toContain("<title>What Voar is</title>");
    expect(await (await app.request("/docs/core/search.html")).text()).toContain("search() as an Observable");
    expect((await app.request("/docs/assets/app.abc123.js")).headers.get("cache-control")).toContain("immutable");
    expect((await app.request("/docs/nowhere.html")).status).toBe(404);
  });
});
