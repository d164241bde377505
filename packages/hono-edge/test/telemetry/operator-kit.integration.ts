/**
 * The operator's kit against a real Prometheus (Debian's `prometheus` and `promtool`; CI installs them): the
 * shipped `deploy/prometheus/prometheus.yml` passes `promtool check config`; Prometheus, configured as it is
 * but pointed at a `voar-server` (its own process, its metrics port) in front of the fake upstream, scrapes it;
 * and every query of the Grafana dashboard is valid PromQL that Prometheus evaluates, the panels of what the
 * searches did returning series (per airline, per route, the answer cache's hits).
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFakeUpstream, liveBackend, serveOnNode } from "@voar/testing";
import { createSimulator } from "@voar/testing/simulator";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { REPO_DIR } from "../deploy/support/deploy-files.js";
import { startVoarServer, type VoarServer } from "../redis/support/voar-server.js";
import { prometheusTools as tools, startPrometheus } from "./support/prometheus-process.js";

const KEYS = { acme: "kit-acme-key-0123456789", other: "kit-other-key-0123456789" };
const ACCOUNT = { username: "agencia", password: "senha-do-fornecedor" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

if (!tools && process.env["CI"] === "true") throw new Error("prometheus and promtool are needed here (.ci/run installs Debian's prometheus package)");

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => undefined);
});

interface Query {
  readonly panel: string;
  readonly expr: string;
}

let prometheusUrl = "";
let queries: Query[] = [];

/** Evaluates a query at Prometheus now: its status, error, and series. */
const evaluate = async (expr: string) => {
  const res = await fetch(`${prometheusUrl}/api/v1/query?${new URLSearchParams({ query: expr })}`);
  return (await res.json()) as { status: string; error?: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } };
};

const consultar = async (server: VoarServer, body: unknown, key: string) => {
  const res = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope;
};

const searchToEnd = async (server: VoarServer, query: unknown, key: string) => {
  const token = (await consultar(server, query, key))["Token"];
  for (let i = 0; i < 200; i++) {
    if ((await consultar(server, { Token: token }, key))["Completed"] === true) return;
    await sleep(100);
  }
  throw new Error("the search did not complete");
};

describe.skipIf(!tools)("the operator's kit on a real Prometheus", () => {
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "voar-prometheus-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    // The service: voar-server on its metrics port, in front of the fake upstream (LATAM, GOL, Azul).
    const upstream = createFakeUpstream({ backend: liveBackend({ sources: createSimulator({ latencyMs: 150, batches: 2 }).sources }), auth: { accounts: [ACCOUNT] } });
    const served = await serveOnNode(upstream.app.fetch);
    cleanup.push(() => upstream.close(), () => served.close());
    const server = await startVoarServer({
      VOAR_API_KEYS: `acme:${KEYS.acme},other:${KEYS.other}`,
      VOAR_UPSTREAM_URL: `${served.origin}/api`,
      VOAR_UPSTREAM_USERNAME: ACCOUNT.username,
      VOAR_UPSTREAM_PASSWORD: ACCOUNT.password,
      VOAR_UPSTREAM_AIRLINES: "1,2,3",
      VOAR_UPSTREAM_OTAS: "false",
      VOAR_METRICS_PORT: "0",
    });
    cleanup.push(() => server.stop());
    let metricsPort: number | undefined;
    for (let i = 0; i < 100 && metricsPort === undefined; i++, await sleep(50)) metricsPort = server.logs().find((r) => r.msg === "metrics.listening")?.["port"] as number | undefined;
    if (metricsPort === undefined) throw new Error("voar-server did not say its metrics port");

    // Prometheus as shipped, its targets replaced by this instance, scraping every second.
    const prometheus = await startPrometheus(dir, [{ target: `127.0.0.1:${metricsPort}` }]);
    cleanup.push(() => prometheus.stop());
    prometheusUrl = prometheus.url;

    // What an agency's day looks like: searches of two agencies, the second answered from the answer cache.
    const query = { Origem: "GRU", Destino: "GIG", Ida: daysAhead(21) };
    await searchToEnd(server, query, KEYS.acme);
    await searchToEnd(server, query, KEYS.other);
    await searchToEnd(server, { Origem: "CNF", Destino: "SDU", Ida: daysAhead(22) }, KEYS.acme);
    // rate() needs two scrapes after the activity.
    await sleep(3_000);

    const dashboard = JSON.parse(await readFile(path.join(REPO_DIR, "deploy/grafana/dashboards/voar-dashboard.json"), "utf8")) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    // Grafana's own variable, as Grafana would put it for a short range.
    queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr.replaceAll("$__rate_interval", "1m") })));
  }, 120_000);

  it("promtool accepts deploy/prometheus/prometheus.yml as shipped, with its alert rules", () => {
    const check = spawnSync("promtool", ["check", "config", path.join(REPO_DIR, "deploy/prometheus/prometheus.yml")], { encoding: "utf8" });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/SUCCESS: 13 rules found/);
  });

  it("promtool test rules: each alert fires on what it is for, not on a normal run, a blip or a source nobody asks", () => {
    const test = spawnSync("promtool", ["test", "rules", "alerts.test.yml"], { cwd: path.join(REPO_DIR, "deploy/prometheus"), encoding: "utf8" });
    expect(test.status, test.stdout + test.stderr).toBe(0);
  });

  it("promtool test rules on the series recorded in each outage (alert-outages.integration.ts): each alert fires, then resolves", () => {
    const test = spawnSync("promtool", ["test", "rules", "alerts.recorded.test.yml"], { cwd: path.join(REPO_DIR, "deploy/prometheus"), encoding: "utf8" });
    expect(test.status, test.stdout + test.stderr).toBe(0);
  });

  it("every alert rule evaluates against the scraped instance, and none fires in a normal run", async () => {
    const rules = parse(await readFile(path.join(REPO_DIR, "deploy/prometheus/alerts.yml"), "utf8")) as { groups: { rules: { alert: string; expr: string }[] }[] };
    for (const rule of rules.groups.flatMap((g) => g.rules)) {
      const answer = await evaluate(rule.expr);
      expect([rule.alert, answer.status, answer.error, answer.data?.result ?? []]).toEqual([rule.alert, "success", undefined, []]);
    }
  });

  it("evaluates every query of the Grafana dashboard, with series for what the searches did", async () => {
    expect(queries.length).toBeGreaterThan(20);
    const results = new Map<string, { metric: Record<string, string> }[]>();
    for (const q of queries) {
      const answer = await evaluate(q.expr);
      expect([q.panel, answer.status, answer.error]).toEqual([q.panel, "success", undefined]);
      results.set(q.expr, answer.data?.result ?? []);
    }
    const seriesOf = (fragment: string) => [...results].filter(([expr]) => expr.includes(fragment)).flatMap(([, r]) => r);
    // Requests by route, searches started, each airline's answer time, the upstream's requests, the cache's hits.
    expect(seriesOf("sum by (route) (rate(voar_http_requests_total").map((s) => s.metric["route"])).toContain("/api/ConsultaAereo/Consultar");
    expect(results.get("sum(rate(voar_searches_started_total[1m]))")).toHaveLength(1);
    const sources = new Set(seriesOf("histogram_quantile(0.5, sum by (le, source) (rate(voar_source_answer_duration_seconds_bucket").map((s) => s.metric["source"]));
    expect([...sources].sort()).toEqual(["upstream:azul", "upstream:gol", "upstream:latam"]);
    expect(seriesOf("sum by (route, outcome) (rate(voar_upstream_requests_total").map((s) => s.metric["outcome"])).toContain("ok");
    expect(seriesOf("sum by (result) (rate(voar_upstream_cache_lookups_total").map((s) => s.metric["result"]).sort()).toEqual(expect.arrayContaining(["hit", "miss"]));
    expect(seriesOf("voar_process_resident_memory_bytes")).toHaveLength(1);
    expect(seriesOf("voar_nodejs_eventloop_lag_p99_seconds")).toHaveLength(1);
    // Every query returns series in a normal run: the counters of what did not happen (refusals, failures,
    // fallbacks, breakers that never tripped) exist at zero from the instance's start.
    expect(queries.filter((q) => (results.get(q.expr) ?? []).length === 0).map((q) => `${q.panel}: ${q.expr}`)).toEqual([]);
    // Cache hits apart from upstream answers: the second agency's search was served from the cache.
    expect(seriesOf("sum by (origin) (rate(voar_source_answer_duration_seconds_count").map((s) => s.metric["origin"]).sort()).toEqual(["cache", "upstream"]);
  });
});
