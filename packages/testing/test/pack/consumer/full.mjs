/**
 * Run with plain `node` inside a folder where the packed @voar/* tarballs were installed with npm (every
 * package, ioredis too): one search through each public entry, to completion. Prints one JSON line of
 * what it saw; any failure exits non-zero. `REDIS_URL` (default redis://127.0.0.1:6379) for the Redis store.
 */
import { lastValueFrom } from "rxjs";
import { parseSearchRequest, search, offerCount } from "@voar/core";
import { airports, distanceKm } from "@voar/core/airports";
import { createSimulator } from "@voar/testing/simulator";
import { createReplayUpstream, loadFixture, serveOnNode, SCENARIO_EPOCH } from "@voar/testing";
import { createUpstreamSource } from "@voar/http-adapter";
import { createUpstreamSource as createFetchUpstreamSource } from "@voar/http-adapter/fetch";
import { createApp, loadConfig, ConfigError, silentLogger } from "@voar/hono-edge";
import { createRedisSessionStore } from "@voar/hono-edge/redis";

const check = (ok, what) => {
  if (!ok) throw new Error(what);
};
const seen = {};
const simulator = createSimulator({ latencyMs: 20 });

// @voar/core and @voar/core/airports, on the simulator of @voar/testing/simulator.
const gru = airports.get("GRU");
check(gru?.timeZone === "America/Sao_Paulo", `airports.get("GRU") answered ${JSON.stringify(gru)}`);
seen.gruGigKm = Math.round(distanceKm(gru, airports.get("GIG")));
const ida = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const parsed = parseSearchRequest({ Origem: "GRU", Destino: "GIG", Ida: ida, Adultos: 1, Companhia: -1 }, { airports, now: new Date() });
check(parsed.kind === "query", `the request did not parse: ${JSON.stringify(parsed)}`);
const simulated = await lastValueFrom(search(parsed.query, simulator.sources));
check(simulated.sources.every((s) => s.state === "done"), `simulated sources: ${JSON.stringify(simulated.sources)}`);
seen.coreOffers = offerCount(simulated);
check(seen.coreOffers > 0, "the simulated search found no offer");

// @voar/http-adapter (undici) and @voar/http-adapter/fetch against the fake upstream of @voar/testing,
// replaying a shipped fixture over a loopback socket.
const fixture = loadFixture("mode-a-one-way");
const recorded = parseSearchRequest(fixture.query, { airports, now: new Date(SCENARIO_EPOCH) });
check(recorded.kind === "query", "the fixture's request did not parse");
for (const [name, make] of [
  ["undici", (baseUrl) => createUpstreamSource({ baseUrl, credentials: { username: "agencia", password: "segredo" }, polling: { initialDelayMs: 20, maxDelayMs: 50 } })],
  ["fetch", (baseUrl) => createFetchUpstreamSource({ baseUrl, credentials: { username: "agencia", password: "segredo" }, polling: { initialDelayMs: 20, maxDelayMs: 50 } })],
]) {
  const upstream = createReplayUpstream(fixture);
  const served = await serveOnNode(upstream.app.fetch);
  const source = make(`${served.origin}/api`);
  try {
    const last = await lastValueFrom(search(recorded.query, [source], { baseDelayMs: 20 }));
    check(last.sources[0]?.state === "done", `${name}: ${JSON.stringify(last.sources)}`);
    seen[`${name}Offers`] = offerCount(last);
    check(seen[`${name}Offers`] > 0, `${name}: no offer from the fake upstream`);
  } finally {
    await source.close?.();
    await served.close();
  }
}
check(seen.undiciOffers === seen.fetchOffers, `undici found ${seen.undiciOffers} offers, fetch ${seen.fetchOffers}`);

// @voar/hono-edge: the app on the simulator, in memory and on Redis, searched by polling until complete.
const result = loadConfig({ env: { VOAR_API_KEYS: "pack:pack-api-key-0123456789", VOAR_RATE_LIMIT_CAPACITY: "10000", VOAR_RATE_LIMIT_REFILL_PER_SECOND: "10000" } });
if (!result.ok) throw new ConfigError(result.errors);
const searchThrough = async (app) => {
  const post = async (body) => {
    const res = await app.request("/api/ConsultaAereo/Consultar", {
      method: "POST",
      headers: { Authorization: "Bearer pack-api-key-0123456789", "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const envelope = await res.json();
    check(res.status === 200, `Consultar answered ${res.status}: ${JSON.stringify(envelope).slice(0, 300)}`);
    return envelope;
  };
  const body = { Origem: "GRU", Destino: "GIG", Ida: ida, Adultos: 1, Companhia: -1 };
  for (let i = 0; i < 300; i++) {
    const envelope = await post(body);
    if (envelope.Completed === true) return envelope;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the service's search did not complete within 300 polls");
};
const invalid = await createApp({ config: result.config, logger: silentLogger, sources: simulator.sources }).request("/api/ConsultaAereo/Consultar", {
  method: "POST",
  headers: { Authorization: "Bearer pack-api-key-0123456789", "Content-Type": "application/json" },
  body: JSON.stringify({ Origem: "GRU", Ida: ida }),
});
seen.invalidStatus = invalid.status;
seen.invalidMessage = (await invalid.json()).MensagemErro;
check(invalid.status === 400 && /Destino/.test(seen.invalidMessage), `an invalid request answered ${invalid.status} ${seen.invalidMessage}`);

const app = createApp({ config: result.config, logger: silentLogger, sources: simulator.sources });
const memory = await searchThrough(app);
seen.memoryEnvelope = Object.keys(memory).sort();
seen.memoryItems = memory.TotalItens;
check(memory.TotalItens > 0, `the service's search found nothing: ${JSON.stringify(memory).slice(0, 300)}`);
const docs = await app.request("/api/docs");
seen.docsStatus = docs.status;
check(docs.status === 200 && /<html/i.test(await docs.text()), `GET /api/docs answered ${docs.status}`);

const store = createRedisSessionStore({ redis: process.env.REDIS_URL ?? "redis://127.0.0.1:6379", ttlMs: 60_000, keyPrefix: `voar-pack-${process.pid}-${Date.now()}:` });
try {
  const onRedis = await searchThrough(createApp({ config: result.config, logger: silentLogger, sources: simulator.sources, store }));
  check(JSON.stringify(Object.keys(onRedis).sort()) === JSON.stringify(seen.memoryEnvelope), "the Redis search answered another envelope shape");
  seen.redisItems = onRedis.TotalItens;
  check(onRedis.TotalItens > 0, "the search on Redis found nothing");
} finally {
  await store.close();
}
console.log(JSON.stringify(seen));
