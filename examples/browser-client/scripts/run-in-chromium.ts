/**
 * Builds the page with Vite, serves it with a Voar service on the simulator (same origin, under /api), and
 * runs it in headless Chromium (Debian's, through playwright-core): the page searches over SSE, shows each
 * envelope, and ends on the result the API itself gives for the same search. Exits non-zero when it does not.
 */
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { createApp, defineConfig, silentLogger } from "@voar/hono-edge";
import { createClient } from "@voar/http-adapter/fetch";
import { createSimulator } from "@voar/testing/simulator";
import { Hono } from "hono";
import { chromium } from "playwright-core";
import { build } from "vite";

const CHROMIUM = process.env["VOAR_CHROMIUM"] ?? "/usr/bin/chromium";
const KEY = "browser-example-key-0123456789";
const dist = fileURLToPath(new URL("../dist", import.meta.url));

if (!existsSync(CHROMIUM)) {
  console.error(`No Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or point VOAR_CHROMIUM at one.`);
  process.exit(1);
}
await build({ configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)) });

const shutdown = new AbortController();
const voar = createApp({
  config: defineConfig({ apiKeys: [{ name: "browser", key: KEY }] }),
  sources: createSimulator({ latencyMs: 800 }).sources,
  logger: silentLogger,
  signal: shutdown.signal,
});
const site = new Hono();
site.all("/api/*", (c) => voar.fetch(c.req.raw));
site.use("/*", serveStatic({ root: dist }));
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: site.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
});
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  const searches: string[] = [];
  page.on("request", (r) => r.url().includes("/ConsultaAereo/") && searches.push(new URL(r.url()).pathname));

  await page.goto(`${origin}/`);
  await page.click("button[type=submit]");
  await page.waitForSelector("#status[data-state=completed]", { timeout: 30_000 });

  const envelopes = Number(await page.getAttribute("#status", "data-envelopes"));
  const total = Number(await page.getAttribute("#status", "data-total"));
  const rows = await page.locator("#results li").allTextContents();
  const ida = await page.inputValue("[name=ida]");
  // The same search asked by the API (same tenant and query: the service shares it), for comparison.
  const api = await createClient({ baseUrl: `${origin}/api`, token: KEY, transport: "poll" }).searchAll({ Origem: "CNF", Destino: "SDU", Ida: ida, QuantidadePorPagina: 5 });

  assert.deepEqual(errors, [], "the page logged no error");
  assert.deepEqual(searches, ["/api/ConsultaAereo/Stream"], "the page followed the search on one SSE stream");
  assert.ok(envelopes > 2, `the page showed the search progressively (${envelopes} envelopes)`);
  assert.equal(total, api.TotalItens, "the page ends on the API's result");
  assert.equal(rows.length, 5, "the page lists the first five price groups");
  assert.ok(rows.every((r) => /R\$/.test(r)), "each row shows its price in reais");
  console.log(`  ✓ Chromium: ${envelopes} envelopes over one SSE stream, ${total} price groups as the API says; first: ${rows[0]}`);
} finally {
  await browser.close();
  shutdown.abort();
  server.close();
  if ("closeAllConnections" in server) server.closeAllConnections();
}
