/**
 * Metrics and traces of a search through the whole proxy, in virtual time: a client's request to our
 * Consultar endpoint, our service searching a fake upstream (in process) per airline through the adapter,
 * and what the operator sees: the `prom-client` metrics at `GET /metrics` (parsed as Prometheus would) and
 * the spans an in-memory exporter received, nested request → search → source attempt → upstream call, with
 * the `traceparent` of each upstream call naming its span.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { context, propagation, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import * as fetchAdapter from "@voar/http-adapter/fetch";
import { createFakeUpstream, createSimulator, liveBackend, type FakeUpstream, type FaultRule } from "@voar/testing";
import { createApp } from "../../src/app/create-app.js";
import { createPromMetrics, type PromMetrics } from "../../src/entries/node-metrics.js";
import { jsonLinesLogger } from "../../src/logging/logger.js";
import { SyncContextManager } from "../../src/telemetry/sync-context-manager.js";
import { upstreamSourcesFor, type UpstreamAdapter } from "../../src/sources/upstream-sources.js";
import { ADMIN_KEY, AGENCY, consultar, NOW, OTHER_KEY, testConfig } from "../support/app.js";
import { systemClock } from "../../src/clock.js";
import { cachedUpstreamSources } from "../../src/sources/cached-upstream.js";
import { parseScrape, sampleOf, totalOf } from "../support/prometheus.js";

const UPSTREAM = "http://fake-upstream.test/api";
const ACCOUNT = { username: "agencia", password: "segredo-da-agencia" };
const CLIENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_SPAN = "b7ad6b7169203331";
const QUERY = { Origem: "GRU", Destino: "GIG", Ida: "2026-03-20" };

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

// As the Node entry registers it: a synchronous context manager, the service handing its context down itself.
beforeAll(() => provider.register({ contextManager: new SyncContextManager() }));
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
beforeEach(() => {
  exporter.reset();
  vi.useFakeTimers({ now: NOW, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});
afterEach(() => vi.useRealTimers());

/** Each request the fake upstream received: its path and its `traceparent`. */
interface Seen {
  readonly path: string;
  readonly traceparent: string | null;
}

/** Our service (LATAM, GOL, Azul through the fetch adapter) in front of a fake upstream, with prom-client metrics and JSON log lines kept. */
const proxy = (faults: readonly FaultRule[] = [], loginFaults: readonly FaultRule[] = [], cached = false) => {
  const upstream: FakeUpstream = createFakeUpstream({
    backend: liveBackend({ sources: createSimulator({ latencyMs: 400, batches: 2 }).sources }),
    auth: { accounts: [ACCOUNT] },
    faults,
    loginFaults,
  });
  const seen: Seen[] = [];
  const fetch: typeof upstream.fetch = (input, init) => {
    seen.push({ path: new URL(String(input)).pathname, traceparent: new Headers(init?.headers).get("traceparent") });
    return upstream.fetch(input, init);
  };
  const adapter: UpstreamAdapter = {
    createFanOutSources: (o) => fetchAdapter.createFanOutSources({ ...o, fetch, polling: { initialDelayMs: 250, maxDelayMs: 1_000 } }),
    createUpstreamSource: (o) => fetchAdapter.createUpstreamSource({ ...o, fetch }),
  };
  const config = testConfig({ upstream: { url: UPSTREAM, ...ACCOUNT, airlines: [1, 2, 3], otas: false, strategy: "fan-out" }, search: { maxAttempts: 2 } });
  const metrics: PromMetrics = createPromMetrics({ nodeMetrics: false });
  const sources = upstreamSourcesFor(config.upstream!, adapter, { metrics });
  const lines: Record<string, unknown>[] = [];
  const logger = jsonLinesLogger((line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  // With the answer cache shared by the tenants, as voar-server runs the upstream's sources.
  const served = cached ? cachedUpstreamSources(sources.sources, config.upstream!, { clock: systemClock }).sources : sources.sources;
  const app = createApp({ config, sources: served, logger, metrics, metricsExposition: metrics });
  const scrape = async () => {
    const res = await app.request("/metrics", { headers: { "X-Admin-Key": ADMIN_KEY } });
    expect(res.status).toBe(200);
    return parseScrape(await res.text());
  };
  return { app, upstream, seen, lines, scrape, close: () => (sources.close(), upstream.close()) };
};

/** Sends the query (with the client's `traceparent`), then polls by Token every second until Completed. */
const searchToEnd = async (app: ReturnType<typeof createApp>, key?: string) => {
  const auth: Record<string, string> = key === undefined ? {} : { Authorization: `Bearer ${key}` };
  const first = await consultar(app, QUERY, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, ...auth });
  let last = first;
  for (let i = 0; i < 120 && !last.body.Completed; i++) {
    await vi.advanceTimersByTimeAsync(1_000);
    last = await consultar(app, { Token: first.body.Token }, auth);
  }
  expect(last.body.Completed).toBe(true);
  return last;
};

const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

describe("traces: request → search → source attempt → upstream call", () => {
  it("nest under the client's trace, and every upstream request carries the traceparent of its own span", async () => {
    const p = proxy();
    await searchToEnd(p.app);
    const spans = exporter.getFinishedSpans();
    const [request] = named(spans, "POST /api/ConsultaAereo/Consultar").filter((s) => parentOf(s) === CLIENT_SPAN);
    expect(request, "the first request's span, child of the client's").toBeDefined();
    expect(request!.spanContext().traceId).toBe(CLIENT_TRACE);
    const [search, ...more] = named(spans, "voar.search");
    expect(more).toEqual([]);
    expect(parentOf(search!)).toBe(request!.spanContext().spanId);
    // Ours: the fake upstream runs an engine of its own in this process, whose spans are left out here.
    const attempts = named(spans, "voar.source").filter((s) => String(s.attributes["voar.source.id"]).startsWith("upstream:"));
    expect(attempts.map((s) => s.attributes["voar.source.id"]).sort()).toEqual(["upstream:azul", "upstream:gol", "upstream:latam"]);
    for (const a of attempts) expect(parentOf(a)).toBe(search!.spanContext().spanId);
    // Every upstream call is a client span under one of the attempts, in the client's trace.
    const calls = spans.filter((s) => s.name === "POST /ConsultaAereo/Consultar" || s.name === "POST /Token");
    const attemptIds = new Set(attempts.map((a) => a.spanContext().spanId));
    expect(calls.length).toBe(p.seen.length);
    for (const c of calls) {
      expect(attemptIds.has(parentOf(c)!), c.name).toBe(true);
      expect(c.spanContext().traceId).toBe(CLIENT_TRACE);
    }
    // What the upstream received: a traceparent on each request, naming that request's own span.
    const callIds = new Set(calls.map((c) => c.spanContext().spanId));
    expect(p.seen.length).toBeGreaterThan(3);
    for (const s of p.seen) {
      const [version, traceId, spanId] = (s.traceparent ?? "").split("-");
      expect(version).toBe("00");
      expect(traceId).toBe(CLIENT_TRACE);
      expect(callIds.has(spanId!), `${s.path} sent its own span's id`).toBe(true);
    }
    // Each attempt's span names the offers it brought.
    expect(attempts.reduce((n, a) => n + Number(a.attributes["voar.source.offers"]), 0)).toBeGreaterThan(0);
    // Log lines carry the trace id: the request line of the first request, in the client's trace.
    expect(p.lines.find((l) => l["msg"] === "request" && l["trace_id"] === CLIENT_TRACE)).toBeDefined();
    p.close();
  });

  it("log lines written after an await keep their trace: the search's start and each source's failure, a failed login", async () => {
    const p = proxy([{ at: 1, through: "end", fault: { kind: "status", status: 503 } }]);
    await searchToEnd(p.app);
    const searchLines = p.lines.filter((l) => String(l["msg"]).startsWith("search."));
    expect(searchLines.map((l) => l["msg"])).toEqual(expect.arrayContaining(["search.started", "search.source_retry", "search.source_failed"]));
    for (const l of searchLines) expect([l["msg"], l["trace_id"]]).toEqual([l["msg"], CLIENT_TRACE]);
    const login = await p.app.request("/api/Token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
      body: new URLSearchParams({ grant_type: "password", username: AGENCY.username, password: "not-the-password" }).toString(),
    });
    expect(login.status).toBe(400);
    expect(p.lines.find((l) => l["msg"] === "login.failed")).toMatchObject({ username: AGENCY.username, trace_id: CLIENT_TRACE });
    p.close();
  });

  it.each([
    ["through the answer cache's shared run", true],
    ["through the adapter's shared upstream search", false],
  ])("a search that joins an upstream search in flight (another agency's) links to the span its upstream requests are under: %s", async (_, cached) => {
    const p = proxy([], [], cached);
    const first = await consultar(p.app, QUERY);
    await vi.advanceTimersByTimeAsync(100);
    const asked = p.upstream.stats.searches;
    await searchToEnd(p.app, OTHER_KEY);
    expect(p.upstream.stats.searches).toBeGreaterThanOrEqual(asked);
    await consultar(p.app, { Token: first.body.Token });
    const attempts = named(exporter.getFinishedSpans(), "voar.source").filter((s) => String(s.attributes["voar.source.id"]).startsWith("upstream:"));
    const requests = exporter.getFinishedSpans().filter((s) => s.name === "POST /ConsultaAereo/Consultar");
    // Each airline: the first agency's attempt has the upstream requests; the second's links to it.
    for (const id of ["upstream:latam", "upstream:gol", "upstream:azul"]) {
      const mine = attempts.filter((a) => a.attributes["voar.source.id"] === id);
      const joined = mine.filter((a) => a.links.length > 0);
      expect(joined, id).toHaveLength(1);
      const starter = joined[0]!.links[0]!.context.spanId;
      expect(joined[0]!.links[0]!.attributes?.["voar.link"]).toBe("shared-upstream-search");
      expect(requests.some((r) => parentOf(r) === starter), id).toBe(true);
      expect(requests.some((r) => parentOf(r) === joined[0]!.spanContext().spanId), id).toBe(false);
    }
    p.close();
  });

  it("a request without traceparent starts a trace of its own", async () => {
    const p = proxy();
    const res = await p.app.request("/health");
    expect(res.status).toBe(200);

    const [span] = named(exporter.getFinishedSpans(), "GET /health");
    expect(parentOf(span!)).toBeUndefined();
    expect(span!.attributes["http.response.status_code"]).toBe(200);
    p.close();
  });
});

describe("metrics of searches through the upstream", () => {
  it("count the search, each airline's answer and offers, and every upstream exchange", async () => {
    const p = proxy();
    const last = await searchToEnd(p.app);
    // The same query again joins the search (same tenant, same query).
    await consultar(p.app, QUERY);
    const m = await p.scrape();
    expect(sampleOf(m, "voar_searches_started_total")).toBe(1);
    expect(sampleOf(m, "voar_searches_joined_total")).toBe(1);
    expect(sampleOf(m, "voar_searches_completed_total", { completion: "finished" })).toBe(1);
    expect(sampleOf(m, "voar_searches_running")).toBe(0);
    const polls = sampleOf(m, "voar_http_requests_total", { route: "/api/ConsultaAereo/Consultar", method: "POST", status: "200" });
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(sampleOf(m, "voar_http_request_duration_seconds", { route: "/api/ConsultaAereo/Consultar", method: "POST" })).toBe(polls);
    // Per airline: one answer each, with the offers the client saw in Progresso.
    const ids: Record<string, string> = { LATAM: "upstream:latam", GOL: "upstream:gol", Azul: "upstream:azul" };
    for (const f of last.body.Progresso.Fontes) {
      const source = ids[f.Nome]!;
      expect(sampleOf(m, "voar_source_offers_total", { source }), f.Nome).toBe(f.Itens);
      expect(sampleOf(m, "voar_source_answer_duration_seconds", { source }), f.Nome).toBe(1);
    }
    // Every exchange with the upstream, by route and outcome, as many as it received; each airline's search counted
    // under its source (which airline costs what), the login under upstream:login, nothing under other.
    expect(totalOf(m, "voar_upstream_requests_total", { route: "/ConsultaAereo/Consultar", outcome: "ok" })).toBe(p.upstream.stats.searches);
    for (const source of Object.values(ids)) expect(sampleOf(m, "voar_upstream_requests_total", { route: "/ConsultaAereo/Consultar", outcome: "ok", source }), source).toBeGreaterThanOrEqual(1);
    expect(sampleOf(m, "voar_upstream_requests_total", { route: "/Token", outcome: "ok", source: "upstream:login" })).toBe(p.upstream.stats.logins);
    expect(totalOf(m, "voar_upstream_requests_total", { source: "other" })).toBe(0);
    const labelled = new Set(m.get("voar_upstream_requests_total")!.samples.map((s) => s.labels["source"]));
    expect([...labelled].sort()).toEqual(["other", "upstream:azul", "upstream:gol", "upstream:latam", "upstream:login"]);
    expect(sampleOf(m, "voar_upstream_login_state")).toBe(0);
    expect(sampleOf(m, "voar_source_breaker_state", { source: "upstream:login" })).toBe(0);
    p.close();
  });

  it("count failures by airline and error kind, each airline's breaker, and a search in which every airline failed", async () => {
    const p = proxy([{ at: 1, through: "end", fault: { kind: "status", status: 503 } }]);
    const last = await searchToEnd(p.app);
    expect(last.body.Progresso.Fontes.every((f) => f.Estado === "falhou")).toBe(true);
    const m = await p.scrape();
    // Each airline: its first attempt failed on the 503s (retried), its breaker opened after them, and the retry
    // was refused by the breaker without asking the upstream (final).
    for (const source of ["upstream:latam", "upstream:gol", "upstream:azul"]) {
      expect(sampleOf(m, "voar_source_failures_total", { source, error: "HttpStatusError", final: "false" }), source).toBe(1);
      expect(sampleOf(m, "voar_source_failures_total", { source, error: "SourceUnavailable", final: "true" }), source).toBe(1);
      expect(sampleOf(m, "voar_source_breaker_state", { source }), source).toBe(1);
    }
    expect(sampleOf(m, "voar_searches_failed_total")).toBe(1);
    expect(totalOf(m, "voar_upstream_requests_total", { route: "/ConsultaAereo/Consultar", outcome: "server_error" })).toBe(p.upstream.stats.searches);
    p.close();
  });

  it("count the answers a second agency got from the answer cache as origin cache, asking the upstream nothing", async () => {
    const p = proxy([], [], true);
    await searchToEnd(p.app);
    const asked = p.upstream.stats.searches;
    await searchToEnd(p.app, OTHER_KEY);
    const m = await p.scrape();
    expect(p.upstream.stats.searches).toBe(asked);
    for (const source of ["upstream:latam", "upstream:gol", "upstream:azul"]) {
      expect(sampleOf(m, "voar_source_answer_duration_seconds", { source, origin: "upstream" }), source).toBe(1);
      expect(sampleOf(m, "voar_source_answer_duration_seconds", { source, origin: "cache" }), source).toBe(1);
    }
    p.close();
  });

  it("count an upstream 429 as rate_limited (not a client error), by airline", async () => {
    const p = proxy([{ at: 1, through: 2, fault: { kind: "rate-limit", retryAfterS: 1 } }]);
    await searchToEnd(p.app);
    const m = await p.scrape();
    expect(totalOf(m, "voar_upstream_requests_total", { route: "/ConsultaAereo/Consultar", outcome: "rate_limited" })).toBe(2);
    expect(totalOf(m, "voar_upstream_requests_total", { outcome: "client_error" })).toBe(0);
    expect(totalOf(m, "voar_upstream_requests_total", { route: "/ConsultaAereo/Consultar", outcome: "ok" })).toBe(p.upstream.stats.searches - 2);
    p.close();
  });

  it("show the login failing (its breaker open) and the credentials refused (invalid_grant)", async () => {
    const failing = proxy([], [{ at: 1, through: "end", fault: { kind: "status", status: 500 } }]);
    await searchToEnd(failing.app);
    const f = await failing.scrape();
    expect(sampleOf(f, "voar_upstream_login_state")).toBe(1);
    expect(sampleOf(f, "voar_source_breaker_state", { source: "upstream:login" })).toBeGreaterThanOrEqual(1);
    expect(sampleOf(f, "voar_upstream_requests_total", { route: "/Token", outcome: "server_error", source: "upstream:login" })).toBe(failing.upstream.stats.logins);
    failing.close();

    const refused = proxy([], [{ at: 1, through: "end", fault: { kind: "invalid-grant" } }]);
    await searchToEnd(refused.app);
    const r = await refused.scrape();
    expect(sampleOf(r, "voar_upstream_login_state")).toBe(2);
    expect(sampleOf(r, "voar_upstream_requests_total", { route: "/Token", outcome: "client_error", source: "upstream:login" })).toBe(1);
    refused.close();
  });

  it("GET /metrics needs an admin key; labels never hold a path's ids", async () => {
    const p = proxy();
    expect((await p.app.request("/metrics")).status).toBe(401);
    expect((await p.app.request("/metrics", { headers: { Authorization: "Bearer test-api-key-0123456789" } })).status).toBe(401);
    await p.app.request("/api/ConsultaAereo/7d1c9f0e-secret-looking-id");
    const m = await p.scrape();
    const routes = new Set(m.get("voar_http_requests_total")!.samples.map((s) => s.labels["route"]));
    // Every route pattern is there from the start (at zero); a path with an id is only ever `unmatched`.
    expect([...routes].sort()).toEqual(["/api/ConsultaAereo/Consultar", "/api/ConsultaAereo/Stream", "/api/Token", "/api/admin/pagante", "/api/docs", "/api/openapi.json", "/health", "/metrics", "/ready", "unmatched"]);
    expect([...routes].some((r) => r?.includes("7d1c9f0e"))).toBe(false);
    expect(sampleOf(m, "voar_http_requests_total", { route: "/metrics", status: "401" })).toBe(2);
    p.close();
  });
});
