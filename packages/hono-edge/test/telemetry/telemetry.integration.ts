/**
 * The Node entry (`voar-server`, its own process) in front of the fake upstream over loopback, as an
 * operator runs it: its `/metrics` scraped after searches and read with a Prometheus text parser (per
 * airline series with the values the clients saw), on the service's port behind the admin key and on a
 * port of its own; and its spans received over OTLP/HTTP by a local receiver, nested from the client's
 * `traceparent` down to each upstream request, which carried the `traceparent` of its own span.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createFakeUpstream, liveBackend, serveOnNode, type FakeUpstream, type ServedOnNode } from "@voar/testing";
import { createSimulator } from "@voar/testing/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { connectRedis, deleteKeys, REDIS_URL, testPrefix } from "../redis/support/redis-harness.js";
import { startVoarServer, type VoarServer } from "../redis/support/voar-server.js";
import { parseScrape, sampleOf, totalOf } from "../support/prometheus.js";

const KEY = "telemetry-api-key-0123456789";
const ADMIN = "telemetry-admin-key-0123456789";
const ACCOUNT = { username: "agencia", password: "senha-do-fornecedor" };
const CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";
const AIRLINES: Record<string, string> = { LATAM: "upstream:latam", GOL: "upstream:gol", Azul: "upstream:azul" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

/** The fake upstream (LATAM, GOL, Azul simulated) on a socket, each request's `traceparent` kept. */
const upstreamOnNode = async (): Promise<{ upstream: FakeUpstream; served: ServedOnNode; traceparents: (string | null)[] }> => {
  const upstream = createFakeUpstream({ backend: liveBackend({ sources: createSimulator({ latencyMs: 150, batches: 2 }).sources }), auth: { accounts: [ACCOUNT] } });
  const traceparents: (string | null)[] = [];
  const served = await serveOnNode((request) => {
    traceparents.push(request.headers.get("traceparent"));
    return upstream.app.fetch(request);
  });
  cleanup.push(async () => {
    await served.close();
    upstream.close();
  });
  return { upstream, served, traceparents };
};

const startProxy = async (served: ServedOnNode, env: Record<string, string> = {}): Promise<VoarServer> => {
  const server = await startVoarServer({
    VOAR_API_KEYS: `acme:${KEY}`,
    VOAR_ADMIN_KEYS: ADMIN,
    VOAR_UPSTREAM_URL: `${served.origin}/api`,
    VOAR_UPSTREAM_USERNAME: ACCOUNT.username,
    VOAR_UPSTREAM_PASSWORD: ACCOUNT.password,
    VOAR_UPSTREAM_AIRLINES: "1,2,3",
    VOAR_UPSTREAM_OTAS: "false",
    ...env,
  });
  cleanup.push(() => server.stop());
  return server;
};

const consultar = async (server: VoarServer, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Envelope };
};

/** Starts a search and polls it by Token until it completes. */
const searchToEnd = async (server: VoarServer, query: unknown, headers: Record<string, string> = {}) => {
  const token = (await consultar(server, query, headers)).body["Token"] as string;
  for (let i = 0; i < 200; i++) {
    const answer = await consultar(server, { Token: token });
    if (answer.body["Completed"] === true) return answer.body;
    await sleep(100);
  }
  throw new Error(`search ${token} did not complete`);
};

type Fontes = readonly { readonly Nome: string; readonly Itens: number; readonly Estado: string }[];
const fontesOf = (body: Envelope) => (body["Progresso"] as { Fontes: Fontes }).Fontes;

describe("GET /metrics of the Node entry, after searches through the fake upstream", () => {
  it("per-airline series with the offers the clients saw, upstream exchanges as the upstream counted them, Node's own metrics", async () => {
    const { upstream, served } = await upstreamOnNode();
    const server = await startProxy(served);
    const answers = [await searchToEnd(server, { Origem: "GRU", Destino: "GIG", Ida: daysAhead(20) }), await searchToEnd(server, { Origem: "CNF", Destino: "BSB", Ida: daysAhead(21) })];
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(401);
    const res = await fetch(`${server.baseUrl}/metrics`, { headers: { "X-Admin-Key": ADMIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = parseScrape(await res.text());

    expect(sampleOf(m, "voar_searches_started_total")).toBe(2);
    expect(sampleOf(m, "voar_searches_completed_total", { completion: "finished" })).toBe(2);
    expect(sampleOf(m, "voar_searches_running")).toBe(0);
    for (const [name, source] of Object.entries(AIRLINES)) {
      const offers = answers.reduce((n, a) => n + fontesOf(a).find((f) => f.Nome === name)!.Itens, 0);
      expect(offers, name).toBeGreaterThan(0);
      expect(sampleOf(m, "voar_source_offers_total", { source }), name).toBe(offers);
      expect(sampleOf(m, "voar_source_answer_duration_seconds", { source }), name).toBe(2);
      const seconds = sampleOf(m, "voar_source_answer_duration_seconds_sum", { source })!;
      expect(seconds, name).toBeGreaterThan(0.1); // the simulated airline takes 150 ms a batch
      expect(seconds, name).toBeLessThan(60);
    }
    expect(totalOf(m, "voar_upstream_requests_total", { route: "/ConsultaAereo/Consultar", outcome: "ok" })).toBe(upstream.stats.searches);
    expect(totalOf(m, "voar_upstream_requests_total", { route: "/Token", outcome: "ok" })).toBe(upstream.stats.logins);
    expect(sampleOf(m, "voar_http_requests_total", { route: "/api/ConsultaAereo/Consultar", method: "POST", status: "200" })).toBeGreaterThanOrEqual(4);
    // Node's own: the event loop's delay, the process's memory.
    expect(m.get("voar_nodejs_eventloop_lag_p99_seconds")?.type).toBe("GAUGE");
    expect(sampleOf(m, "voar_process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    // No Token, tenant or API key in any label.
    const labels = [...m.values()].flatMap((f) => f.samples.flatMap((s) => Object.values(s.labels)));
    for (const secret of [KEY, "acme", answers[0]!["Token"] as string]) expect(labels).not.toContain(secret);
  });

  it("the upstream answers' cache: a route asked by one agency misses, the same route asked by another hits", async () => {
    const { upstream, served } = await upstreamOnNode();
    const OTHER = "telemetry-other-agency-key-0123";
    const server = await startProxy(served, { VOAR_API_KEYS: `acme:${KEY},outra:${OTHER}` });
    const query = { Origem: "GRU", Destino: "GIG", Ida: daysAhead(22) };
    await searchToEnd(server, query);
    const asked = upstream.stats.searches;
    const scrape = async () => parseScrape(await (await fetch(`${server.baseUrl}/metrics`, { headers: { "X-Admin-Key": ADMIN } })).text());
    let m = await scrape();
    expect(sampleOf(m, "voar_upstream_cache_lookups_total", { result: "miss" })).toBe(3); // one per airline
    expect(sampleOf(m, "voar_upstream_cache_lookups_total", { result: "hit" })).toBe(0); // there from the start, at zero

    await searchToEnd(server, query, { Authorization: `Bearer ${OTHER}` });
    m = await scrape();
    expect(sampleOf(m, "voar_upstream_cache_lookups_total", { result: "hit" })).toBe(3);
    expect(sampleOf(m, "voar_searches_started_total")).toBe(2); // two tenants: two searches, one upstream search
    expect(upstream.stats.searches).toBe(asked);
  });

  it("on Redis: every store call timed, the breaker closed, no fallback", async () => {
    const redis = await connectRedis();
    const prefix = testPrefix();
    cleanup.push(async () => {
      await deleteKeys(redis, prefix);
      await redis.quit();
    });
    const { served } = await upstreamOnNode();
    const server = await startProxy(served, { VOAR_STORE_REDIS_URL: REDIS_URL, VOAR_STORE_REDIS_KEY_PREFIX: prefix });
    await searchToEnd(server, { Origem: "GRU", Destino: "GIG", Ida: daysAhead(24) });
    const m = parseScrape(await (await fetch(`${server.baseUrl}/metrics`, { headers: { "X-Admin-Key": ADMIN } })).text());
    expect(sampleOf(m, "voar_store_command_duration_seconds", { outcome: "ok" })).toBeGreaterThan(5);
    expect(sampleOf(m, "voar_store_command_duration_seconds", { outcome: "unavailable" })).toBe(0);
    expect(sampleOf(m, "voar_store_breaker_state")).toBe(0);
    expect(m.get("voar_store_fallbacks_total")?.samples.map((x) => x.value)).toEqual([0, 0]);
  });

  it("on a port of its own (metrics.port), without a key; the service's port then has no /metrics", async () => {
    const { served } = await upstreamOnNode();
    const server = await startProxy(served, { VOAR_METRICS_PORT: "0" });
    let port: number | undefined;
    for (let i = 0; i < 50 && port === undefined; i++, await sleep(50)) port = server.logs().find((r) => r.msg === "metrics.listening")?.["port"] as number | undefined;
    expect(port).toBeGreaterThan(0);
    await searchToEnd(server, { Origem: "GRU", Destino: "GIG", Ida: daysAhead(22) });
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(sampleOf(parseScrape(await res.text()), "voar_searches_started_total")).toBe(1);
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { "X-Admin-Key": ADMIN } })).status).toBe(404);
  });
});

/** An OTLP span as the JSON encoding writes it (ids in hex). */
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes?: readonly { readonly key: string; readonly value: { readonly stringValue?: string } }[];
}

/** A local OTLP/HTTP receiver: every span POSTed to /v1/traces (JSON), kept. */
const otlpReceiver = async (): Promise<{ endpoint: string; spans: OtlpSpan[]; contentTypes: Set<string> }> => {
  const spans: OtlpSpan[] = [];
  const contentTypes = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      contentTypes.add(`${req.method} ${req.url} ${req.headers["content-type"]}`);
      const data = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const rs of data.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { endpoint: `http://127.0.0.1:${port}`, spans, contentTypes };
};

describe("traces of the Node entry, exported over OTLP/HTTP", () => {
  it("nest from the client's traceparent to every upstream request, which carried its own span's traceparent", async () => {
    const receiver = await otlpReceiver();
    const { served, traceparents: all } = await upstreamOnNode();
    const server = await startProxy(served, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "100", OTEL_SERVICE_NAME: "voar-test" });
    // The instance logs in once at start, in a trace of its own; every request after it belongs to the search.
    for (let i = 0; i < 100 && all.length === 0; i++) await sleep(50);
    const startup = all.length;
    await searchToEnd(server, { Origem: "GRU", Destino: "GIG", Ida: daysAhead(23) }, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` });
    const traceparents = all.slice(startup);
    expect(traceparents.length).toBeGreaterThanOrEqual(2); // the all-airlines search and its polls
    const byId = () => new Map(receiver.spans.map((s) => [s.spanId, s]));
    // Wait for the batch exporter to send the upstream calls' spans and their ancestors.
    const wanted = traceparents.map((t) => t?.split("-")[2] ?? "none");
    for (let i = 0; i < 100 && !wanted.every((id) => byId().has(id)); i++) await sleep(100);
    expect([...receiver.contentTypes]).toEqual(["POST /v1/traces application/json"]);
    const spans = byId();
    for (const [i, header] of traceparents.entries()) {
      const [version, traceId, spanId, flags] = (header ?? "").split("-");
      expect([version, traceId, flags], `upstream request ${i}`).toEqual(["00", CLIENT_TRACE, "01"]);
      // Its span, a client span, under a source attempt, under the search, under the client's request.
      const call = spans.get(spanId!)!;
      expect(call.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(call.name).toMatch(/^POST \/(Token|ConsultaAereo\/Consultar)$/);
      const attempt = spans.get(call.parentSpanId!)!;
      expect(attempt.name).toBe("voar.source");
      expect(attempt.attributes?.find((a) => a.key === "voar.source.id")?.value.stringValue).toMatch(/^upstream:(latam|gol|azul)$/);
      const search = spans.get(attempt.parentSpanId!)!;
      expect(search.name).toBe("voar.search");
      const request = spans.get(search.parentSpanId!)!;
      expect([request.name, request.kind, request.parentSpanId, request.traceId]).toEqual(["POST /api/ConsultaAereo/Consultar", 2, CLIENT_SPAN, CLIENT_TRACE]);
    }
    // The request's log line carries the trace id.
    expect(server.logs().some((r) => r.msg === "request" && r["trace_id"] === CLIENT_TRACE)).toBe(true);
  });
});
