import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { airportsPtBr } from "@voar/core/airports";
import { createApp, defineConfig, silentLogger } from "@voar/hono-edge";
import { createSimulator } from "@voar/testing/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

let app: ReturnType<typeof createDemoApp>;
let webRoot: string;

beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), "voar-demo-web-"));
  await mkdir(join(webRoot, "assets"));
  await writeFile(join(webRoot, "index.html"), "<!doctype html><title>Voar</title>");
  await writeFile(join(webRoot, "assets", "index-abc.js"), "console.log(1)");
  const service = createApp({
    config: defineConfig({ apiKeys: [{ name: "demo", key: config.apiKey }], adminKeys: [config.adminKey] }),
    sources: createSimulator().sources,
    logger: silentLogger,
  });
  app = createDemoApp({ service, basePath: "/api", config, airports: airportsPtBr, webRoot });
});

afterAll(async () => {
  await rm(webRoot, { recursive: true, force: true });
});

describe("the demo app", () => {
  it("serves the page, never cached, and its hashed assets, cached for good", async () => {
    const page = await app.request("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(await page.text()).toContain("<title>Voar</title>");
    const asset = await app.request("/assets/index-abc.js");
    expect(asset.headers.get("cache-control")).toContain("immutable");
  });

  it("tells the page where the API is and which key to use", async () => {
    const res = await app.request("/demo-config.json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual(config);
  });

  it("suggests airports by code, city or name, best first, cities in Portuguese", async () => {
    const suggest = async (q: string) => (await (await app.request(`/demo/airports?q=${encodeURIComponent(q)}`)).json()) as { iata: string; city: string }[];
    const rio = await suggest("rio");
    expect(rio.slice(0, 2).map((a) => `${a.iata} ${a.city}`)).toEqual(["GIG Rio de Janeiro", "SDU Rio de Janeiro"]);
    expect((await suggest("lisb"))[0]).toMatchObject({ iata: "LIS", city: "Lisboa" });
    const cnf = (await (await app.request("/demo/airports?q=cnf")).json()) as { iata: string; city: string }[];
    expect(cnf[0]).toMatchObject({ iata: "CNF", city: "Belo Horizonte" });
    expect(await (await app.request("/demo/airports?q=")).json()).toEqual([]);
  });

  it("hands /api and /health to the service, with its own answers and errors", async () => {
    expect(await (await app.request("/health")).json()).toEqual({ status: "ok" });
    const refused = await app.request("/api/ConsultaAereo/Consultar", { method: "POST", body: "{}" });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ Success: false, Erro: { Codigo: "NAO_AUTORIZADO" } });
    const admin = await app.request("/api/admin/pagante", { headers: { "X-Admin-Key": config.adminKey } });
    expect(admin.status).toBe(200);
  });

  it("answers anything else with a 404 that says where things are", async () => {
    const res = await app.request("/nada");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ erro: "Nada em /nada. A página está em /, a API em /api." });
  });
});
