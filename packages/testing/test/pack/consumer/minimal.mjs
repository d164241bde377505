/**
 * Run with plain `node` inside a folder where only @voar/hono-edge, @voar/core and @voar/http-adapter were
 * installed from their packed tarballs: the service proxies a search to an upstream (`UPSTREAM_URL`, a fake
 * upstream the test serves) through the undici source, and the fetch build searches it directly. Run it with
 * forbid-modules.mjs so that loading @voar/testing, ioredis or fast-check fails. Prints one JSON line.
 */
import { lastValueFrom } from "rxjs";
import { parseSearchRequest, search, offerCount } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createUpstreamSource } from "@voar/http-adapter";
import { createUpstreamSource as createFetchUpstreamSource } from "@voar/http-adapter/fetch";
import { createApp, loadConfig, ConfigError, silentLogger } from "@voar/hono-edge";

const check = (ok, what) => {
  if (!ok) throw new Error(what);
};
const baseUrl = process.env.UPSTREAM_URL;
check(baseUrl, "UPSTREAM_URL is not set");
const credentials = { username: "agencia", password: "segredo" };
const polling = { initialDelayMs: 20, maxDelayMs: 50 };
const seen = {};

const ida = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const request = { Origem: "CNF", Destino: "SDU", Ida: ida, Adultos: 1, Companhia: -1 };

// @voar/http-adapter/fetch, searched to completion with core's engine.
const parsed = parseSearchRequest(request, { airports, now: new Date() });
check(parsed.kind === "query", `the request did not parse: ${JSON.stringify(parsed)}`);
const viaFetch = createFetchUpstreamSource({ baseUrl, credentials, polling });
const last = await lastValueFrom(search(parsed.query, [viaFetch], { baseDelayMs: 20 }));
check(last.sources[0]?.state === "done", `fetch source: ${JSON.stringify(last.sources)}`);
seen.fetchOffers = offerCount(last);
check(seen.fetchOffers > 0, "the fetch source found no offer");

// @voar/hono-edge proxying to the upstream through @voar/http-adapter (undici).
const result = loadConfig({ env: { VOAR_API_KEYS: "pack:pack-api-key-0123456789", VOAR_RATE_LIMIT_CAPACITY: "10000", VOAR_RATE_LIMIT_REFILL_PER_SECOND: "10000" } });
if (!result.ok) throw new ConfigError(result.errors);
const upstream = createUpstreamSource({ baseUrl, credentials, polling });
try {
  const app = createApp({ config: result.config, logger: silentLogger, sources: [upstream] });
  let envelope;
  for (let i = 0; i < 300 && envelope?.Completed !== true; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50));
    const res = await app.request("/api/ConsultaAereo/Consultar", {
      method: "POST",
      headers: { Authorization: "Bearer pack-api-key-0123456789", "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
    envelope = await res.json();
    check(res.status === 200, `Consultar answered ${res.status}: ${JSON.stringify(envelope).slice(0, 300)}`);
  }
  check(envelope.Completed === true, "the service's search did not complete within 300 polls");
  seen.serviceItems = envelope.TotalItens;
  check(envelope.TotalItens > 0, `the service found nothing: ${JSON.stringify(envelope).slice(0, 300)}`);
} finally {
  await upstream.close();
}
console.log(JSON.stringify(seen));
