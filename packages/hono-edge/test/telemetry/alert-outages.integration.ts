/**
 * Every outage the shipped alerts are for, produced for real and seen by a real Prometheus: for each, a voar-server
 * in front of its own fake upstream (or Redis, or trace collector), searched by a client all along, scraped and
 * evaluated every second by its own Prometheus with `deploy/prometheus/alerts.yml` loaded, every duration in the
 * rules divided by {@link SCALE} (1 s here stands for 30 s in production). The fault is injected once the instance
 * runs searches well, and each alert the outage should raise must fire within its stated time; the fault then heals
 * and each must resolve. The outages run side by side, so the file takes about as long as its slowest.
 *
 * With `VOAR_RECORD_ALERT_SERIES=<file>`, the series the rules read are written there as a promtool test
 * (`deploy/prometheus/alerts.recorded.test.yml`: each second replayed as 30 s, against the rules as shipped).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFakeUpstream, liveBackend, serveOnNode, type FaultRule } from "@voar/testing";
import { createSimulator } from "@voar/testing/simulator";
import { stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { daysAhead } from "../contract/contract-target.js";
import { freePort, ownRedis } from "../redis/support/own-redis.js";
import { startVoarServer, type VoarServer } from "../redis/support/voar-server.js";
import { prometheusTools, scaledAlertRules, startPrometheus, type PrometheusProcess } from "./support/prometheus-process.js";

/** Rules' durations are divided by this: an alert `for: 1m` waits 2 s here. */
const SCALE = 30;
const KEY = "alerts-acme-key-0123456789";
const ACCOUNT = { username: "agencia", password: "senha-do-fornecedor" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const ROUTES = [
  ["GRU", "GIG"],
  ["CNF", "SDU"],
  ["BSB", "SSA"],
  ["POA", "REC"],
] as const;

if (!prometheusTools && process.env["CI"] === "true") throw new Error("prometheus and promtool are needed here (.ci/run installs Debian's prometheus package)");

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => undefined);
});

/** What an outage's fault acts on: the fake upstream's fault rules (mutable), and the instance. */
interface Stage {
  readonly faults: FaultRule[];
  readonly loginFaults: FaultRule[];
  /** Companhia whose searches answer 500 (one airline down), or undefined. */
  failingAirline: number | undefined;
  /** Revokes every token the upstream issued (the next request of each holder gets 401). */
  revokeTokens(): void;
  /** Stops and starts the instance again (same ports, same environment). */
  restart(): Promise<void>;
}

/** One outage: what it needs, how its fault comes and goes, and the alerts (with their stated time to fire, in production seconds). */
interface Outage {
  readonly name: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Starts what the instance needs besides the upstream (a Redis, a collector): extra environment. */
  readonly before?: () => Promise<Readonly<Record<string, string>>>;
  readonly inject: (s: Stage) => void | Promise<void>;
  readonly heal: (s: Stage) => void | Promise<void>;
  /** Alert name → the most it may take to fire from the fault, in test seconds (the scaled rule's time, and what the fault needs in real time: failures to open a breaker, a restart, 12 s answers). */
  readonly fires: Readonly<Record<string, number>>;
}

const forever = (fault: FaultRule["fault"]): FaultRule => ({ at: 1, through: "end", fault });

let redis: ReturnType<typeof ownRedis> | undefined;
let collector: { server: Server; answer: boolean } | undefined;

const OUTAGES: readonly Outage[] = [
  {
    // Every Consultar answers 500 (ASP.NET's page): the shared all-airlines search's breaker, every source, every search.
    name: "consultar-500",
    inject: (s) => void s.faults.push(forever({ kind: "status", status: 500 })),
    heal: (s) => void s.faults.splice(0),
    fires: { VoarUpstreamBreakerOpen: 30, VoarSourceFailing: 30, VoarSearchesFailing: 30, VoarErrorRatio: 30 },
  },
  {
    // One airline (GOL, asked alone: the fan-out strategy) answers 500; the others answer: a partial outage.
    name: "one-airline-500",
    env: { VOAR_UPSTREAM_STRATEGY: "fan-out" },
    inject: (s) => void (s.failingAirline = 2),
    heal: (s) => void (s.failingAirline = undefined),
    fires: { VoarSourceFailing: 30, VoarUpstreamBreakerOpen: 40 },
  },
  {
    // `/Token` answers 500, and the token the instance held is revoked: no search gets a token (they answer 502).
    name: "token-500",
    inject: (s) => {
      s.loginFaults.push(forever({ kind: "status", status: 500 }));
      s.revokeTokens();
    },
    heal: (s) => void s.loginFaults.splice(0),
    fires: { VoarUpstreamLoginFailing: 30, VoarSearchesFailing: 30 },
  },
  {
    // The account's credentials refused (`invalid_grant`): fixed by the operator, who restarts the instance.
    name: "credentials-refused",
    inject: async (s) => {
      s.loginFaults.push(forever({ kind: "invalid-grant" }));
      await s.restart(); // the token it holds would last: a new instance logs in with them
    },
    heal: async (s) => {
      s.loginFaults.splice(0);
      await s.restart();
    },
    fires: { VoarUpstreamCredentialsRefused: 50 },
  },
  {
    // The upstream answers every request in 12 s: slower than the plain client's 10 s pace.
    name: "upstream-slow",
    env: { VOAR_UPSTREAM_STRATEGY: "fan-out" },
    inject: (s) => void s.faults.push(forever({ kind: "slow", delayMs: 12_000 })),
    heal: (s) => void s.faults.splice(0),
    fires: { VoarUpstreamSlow: 50 },
  },
  {
    // Redis frozen (SIGSTOP): its probes go unanswered.
    name: "store-down",
    before: async () => {
      redis = ownRedis(await freePort());
      await redis.start();
      cleanup.push(() => redis?.stop());
      return { VOAR_STORE_REDIS_URL: redis.url };
    },
    inject: () => redis!.pause(),
    heal: () => redis!.resume(),
    fires: { VoarStoreDown: 30 },
  },
  {
    // The trace collector takes connections and never answers: the tracer's queue (4 spans here) fills up.
    name: "spans-dropped",
    before: async () => {
      // An OTLP/HTTP collector that takes every batch (200), or holds every request unanswered.
      const c = { answer: true, server: createServer((req, res) => req.resume().on("end", () => c.answer && res.writeHead(200, { "content-type": "application/json" }).end("{}"))) };
      collector = c;
      await new Promise<void>((resolve) => c.server.listen(0, "127.0.0.1", resolve));
      cleanup.push(() => c.server.close());
      const port = (c.server.address() as { port: number }).port;
      return { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_BSP_MAX_QUEUE_SIZE: "4", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "4", OTEL_BSP_SCHEDULE_DELAY: "200", OTEL_EXPORTER_OTLP_TIMEOUT: "2000" };
    },
    inject: () => void (collector!.answer = false),
    heal: () => void (collector!.answer = true),
    fires: { VoarTraceSpansDropped: 30 },
  },
];

/** A client searching all along: a new search every 1.5 s (a route and day no other asked), each polled every second until complete. */
const searching = (server: () => VoarServer, signal: AbortSignal) => {
  const post = (body: unknown) =>
    fetch(`${server().baseUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then((r) => r.json() as Promise<Record<string, unknown>>)
      .catch(() => ({}) as Record<string, unknown>);
  const one = async (i: number) => {
    const [from, to] = ROUTES[i % ROUTES.length]!;
    const token = (await post({ Origem: from, Destino: to, Ida: daysAhead(3 + Math.floor(i / ROUTES.length)) }))["Token"];
    for (let n = 0; n < 40 && token !== undefined && !signal.aborted; n++) {
      await sleep(1_000);
      if ((await post({ Token: token }))["Completed"] === true) return;
    }
  };
  void (async () => {
    for (let i = 0; !signal.aborted; i++) {
      void one(i);
      await sleep(1_500);
    }
  })();
};

/** Waits until `check` holds (polling every 250 ms), at most `ms`; the seconds it took, or undefined. */
const until = async (check: () => Promise<boolean>, ms: number): Promise<number | undefined> => {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return (Date.now() - started) / 1_000;
    await sleep(250);
  }
  return undefined;
};

/** What one outage showed: each alert's time to fire and to resolve (test seconds), and the series recorded. */
interface Seen {
  readonly outage: string;
  readonly fired: Record<string, number | undefined>;
  readonly resolved: Record<string, number | undefined>;
  readonly firedAtS: number;
  readonly endedAtS: number;
  /** The alerts firing once all had fired, as promtool expects them (the instance named after the outage). */
  readonly firing: { alertname: string; exp_labels: Record<string, string>; exp_annotations: Record<string, string> }[];
  readonly recorded: { series: string; values: string }[];
  readonly errors: string[];
}

/** The series the rules read (for the promtool test of recorded series). */
const RECORDED = [
  "voar_source_breaker_state",
  "voar_upstream_requests_total",
  "voar_source_failures_total",
  "voar_source_answer_duration_seconds_count",
  "voar_searches_started_total",
  "voar_searches_failed_total",
  "voar_http_requests_total",
  "voar_upstream_login_state",
  "voar_upstream_slow",
  "voar_store_breaker_state",
  "voar_trace_spans_dropped_total",
];

const run = async (o: Outage): Promise<Seen> => {
  const dir = await mkdtemp(path.join(tmpdir(), `voar-alerts-${o.name}-`));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const stage: Stage = { faults: [], loginFaults: [], failingAirline: undefined, revokeTokens: () => undefined, restart: () => Promise.resolve() };
  const upstream = createFakeUpstream({
    backend: liveBackend({ sources: createSimulator({ latencyMs: 150, batches: 2 }).sources }),
    auth: { accounts: [ACCOUNT] },
    faults: stage.faults,
    loginFaults: stage.loginFaults,
  });
  // One airline down: its own searches (the fan-out asks each airline alone; a failed first ask has no lease) answer 500.
  const served = await serveOnNode(async (request) => {
    if (stage.failingAirline !== undefined && new URL(request.url).pathname.endsWith("/ConsultaAereo/Consultar")) {
      const body = (await request.clone().json().catch(() => ({}))) as { Companhia?: number };
      if (body.Companhia === stage.failingAirline) return Response.json({ Message: "An error has occurred." }, { status: 500 });
    }
    return upstream.app.fetch(request);
  });
  cleanup.push(() => upstream.close(), () => served.close());
  stage.revokeTokens = () => upstream.tokens.revokeAll();
  const metricsPort = await freePort();
  const env = {
    VOAR_API_KEYS: `acme:${KEY}`,
    VOAR_UPSTREAM_URL: `${served.origin}/api`,
    VOAR_UPSTREAM_USERNAME: ACCOUNT.username,
    VOAR_UPSTREAM_PASSWORD: ACCOUNT.password,
    VOAR_UPSTREAM_AIRLINES: "1,2,3",
    VOAR_UPSTREAM_OTAS: "false",
    VOAR_UPSTREAM_CACHE_ENABLED: "false",
    VOAR_UPSTREAM_BREAKER_COOLDOWN_MS: "2000",
    VOAR_RATE_LIMIT_CAPACITY: "1000",
    VOAR_RATE_LIMIT_REFILL_PER_SECOND: "100",
    VOAR_METRICS_PORT: String(metricsPort),
    ...o.env,
    ...(o.before ? await o.before() : {}),
  };
  let server = await startVoarServer(env);
  stage.restart = async () => {
    await server.stop();
    server = await startVoarServer(env);
  };
  cleanup.push(() => server.stop());
  const client = new AbortController();
  cleanup.push(() => client.abort());
  const prometheus: PrometheusProcess = await startPrometheus(dir, [{ target: `127.0.0.1:${metricsPort}` }], await scaledAlertRules(SCALE));
  cleanup.push(() => prometheus.stop());
  const startS = Date.now() / 1_000;
  searching(() => server, client.signal);
  const errors: string[] = [];
  const firing = async () => new Set((await prometheus.alerts()).filter((a) => a.state === "firing").map((a) => a.labels["alertname"]!));

  // A normal run first: searches answered, no alert.
  await sleep(8_000);
  const normal = await firing();
  if (normal.size > 0) errors.push(`${o.name}: alerts firing before the fault: ${[...normal].join(", ")}`);

  const names = Object.keys(o.fires);
  const injectedAt = Date.now();
  await o.inject(stage);
  const fired: Record<string, number | undefined> = {};
  await until(async () => {
    const now = await firing();
    for (const n of names) if (fired[n] === undefined && now.has(n)) fired[n] = (Date.now() - injectedAt) / 1_000;
    return names.every((n) => fired[n] !== undefined);
  }, 75_000);
  const firedAtS = Date.now() / 1_000;
  const instance = `127.0.0.1:${metricsPort}`;
  const renamed = (text: string) => text.replaceAll(instance, o.name);
  const firingNow = (await prometheus.alerts())
    .filter((a) => a.state === "firing" && names.includes(a.labels["alertname"]!))
    .map(({ labels: { alertname, ...labels }, annotations }) => ({
      alertname: alertname!,
      exp_labels: Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, renamed(v)])),
      exp_annotations: Object.fromEntries(Object.entries(annotations).map(([k, v]) => [k, renamed(v)])),
    }));

  // The fault holds a few seconds more, so the recorded series show every alert firing before anything heals.
  await sleep(3_000);
  const healedAt = Date.now();
  await o.heal(stage);
  const resolved: Record<string, number | undefined> = {};
  await until(async () => {
    const now = await firing();
    for (const n of names) if (resolved[n] === undefined && !now.has(n)) resolved[n] = (Date.now() - healedAt) / 1_000;
    return names.every((n) => resolved[n] !== undefined);
  }, 75_000);
  // A few seconds more of the healed run, so the recorded series show it (and replay it) past the resolution.
  await sleep(5_000);
  client.abort();

  const endS = Date.now() / 1_000;
  const recorded: { series: string; values: string }[] = [];
  const [from, to] = [Math.ceil(startS), Math.floor(endS)];
  for (const name of RECORDED) {
    for (const r of await prometheus.range(name, from, to, 1)) {
      const { __name__, instance: _i, job: _j, ...labels } = r.metric;
      const sel = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
      // A series at zero all along (an outcome, a status that never came) tells the rules nothing.
      if (r.values.every(([, v]) => Number(v) === 0)) continue;
      // One sample a second from the run's start, missing (`_`) while the instance was not scraped (a restart).
      const at = new Map(r.values.map(([t, v]) => [Math.round(t), Number(v)]));
      const values = Array.from({ length: to - from + 1 }, (_, i) => at.get(from + i));
      recorded.push({ series: `${__name__}{${[`instance="${o.name}"`, ...sel].join(", ")}}`, values: compact(values) });
    }
  }
  await prometheus.stop();
  return { outage: o.name, fired, resolved, firedAtS: firedAtS - startS, endedAtS: endS - startS, firing: firingNow, recorded, errors };
};

/** Samples in promtool's notation, runs of a constant step written `a+bxN` (`a` then N more, each `b` apart). */
const compact = (values: readonly (number | undefined)[]): string => {
  const out: string[] = [];
  for (let i = 0; i < values.length; ) {
    if (values[i] === undefined) {
      let n = 0;
      while (values[i + n + 1] === undefined && i + n + 1 < values.length) n++;
      out.push(n === 0 ? "_" : `_x${n}`);
      i += n + 1;
      continue;
    }
    const step = values[i + 1] !== undefined ? values[i + 1]! - values[i]! : 0;
    let n = 0;
    while (i + n + 1 < values.length && values[i + n + 1] !== undefined && Math.abs(values[i + n + 1]! - values[i + n]! - step) < 1e-9) n++;
    const v = Number(values[i]!.toPrecision(6));
    out.push(n === 0 ? String(v) : `${v}${step < 0 ? "" : "+"}${Number(step.toPrecision(6))}x${n}`);
    i += n + 1;
  }
  return out.join(" ");
};

let results: Seen[] = [];

describe.skipIf(!prometheusTools)("every outage raises its alert on a real Prometheus, and the alert resolves once it heals", () => {
  it("each fault: fired within its time, resolved after", async () => {
    results = await Promise.all(OUTAGES.map(run));
    for (const r of results) {
      // The table of the operations docs (docs/deploy/observability.md) shows these figures.
      console.log(`${r.outage}: fired ${JSON.stringify(r.fired)} resolved ${JSON.stringify(r.resolved)} (test seconds, rules ×1/${SCALE})`);
    }
    await writeFile(path.join(tmpdir(), "voar-alert-outages.json"), JSON.stringify(results.map(({ recorded: _r, ...r }) => r), null, 1));
    const file = process.env["VOAR_RECORD_ALERT_SERIES"];
    if (file) await writeFile(file, recordedTests(results));
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    for (const o of OUTAGES) {
      const r = results.find((x) => x.outage === o.name)!;
      for (const [alert, within] of Object.entries(o.fires)) {
        expect([o.name, alert, r.fired[alert] !== undefined && r.fired[alert]! <= within]).toEqual([o.name, alert, true]);
        expect([o.name, alert, "resolved", r.resolved[alert] !== undefined]).toEqual([o.name, alert, "resolved", true]);
      }
    }
  }, 240_000);
});

/** A promtool test of the series recorded: each second replayed as 30 s, each alert firing once the outage ran its course. */
const recordedTests = (seen: readonly Seen[]): string =>
  "# Series recorded by test/telemetry/alert-outages.integration.ts (packages/hono-edge), one sample a second replayed\n" +
  "# as one every 30 s against the rules as shipped: each outage's alerts fire when the fault had run its course.\n" +
  "# Written by VOAR_RECORD_ALERT_SERIES=<this file> in that test; `promtool test rules` checks it.\n" +
  stringify({
    rule_files: ["alerts.yml"],
    evaluation_interval: "30s",
    tests: seen.map((r) => ({
      interval: "30s",
      input_series: r.recorded,
      alert_rule_test: Object.keys(r.fired).flatMap((alertname) => [
        { eval_time: `${(Math.ceil(r.firedAtS) + 2) * SCALE}s`, alertname, exp_alerts: r.firing.filter((a) => a.alertname === alertname).map(({ exp_labels, exp_annotations }) => ({ exp_labels, exp_annotations })) },
        { eval_time: `${(Math.floor(r.endedAtS) - 2) * SCALE}s`, alertname, exp_alerts: [] },
      ]),
    })),
  });
