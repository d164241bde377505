/**
 * The service's metrics ({@link ServiceMetrics}) on `prom-client`, for the Node entry: one registry per
 * instance, Node's own metrics (event-loop delay, heap, CPU, open handles) beside the service's, all under
 * the `voar_` prefix, and the Prometheus text to serve at `GET /metrics`. Every metric is listed in the
 * package README ("Metrics").
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { Counter, Gauge, Histogram, Registry, type Metric } from "prom-client";
import { LABEL_VALUES, type BreakerState, type KnownLabels, type ServiceMetrics, type UpstreamLoginState } from "../telemetry/service-metrics.js";

/** A registry filled by the service, and its text. */
export interface PromMetrics extends ServiceMetrics {
  readonly registry: Registry;
  /** The Prometheus text exposition of every metric. */
  scrape(): Promise<string>;
  /** Its content type (`text/plain; version=0.0.4; charset=utf-8`). */
  readonly contentType: string;
}

/** Options of {@link createPromMetrics}. */
export interface PromMetricsOptions {
  /** Also collect Node's own metrics (`voar_nodejs_eventloop_lag_seconds`, heap, CPU...; no GC durations). Default true. */
  readonly nodeMetrics?: boolean | undefined;
}

/** Request latencies: from a cached poll (a fraction of a millisecond) to a long SSE stream. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** A source's answer within a search: from a cached answer to the 60 s deadline. */
const SOURCE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 45, 60, 90];
/** One upstream exchange. */
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** One Redis call. */
const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

const BREAKER: Readonly<Record<BreakerState, number>> = { closed: 0, open: 1, "half-open": 2 };
const LOGIN: Readonly<Record<UpstreamLoginState, number>> = { ok: 0, failing: 1, refused: 2 };
/** The `source` of an upstream request whose id was not declared (`prepareUpstream`): the label stays bounded. */
const OTHER_SOURCE = "other";

/**
 * `prom-client`'s default metrics but its GC one: `collectDefaultMetrics` also observes every garbage
 * collection (a `PerformanceObserver` of `gc` entries), which on Node 20 made allocation- and promise-heavy
 * work about 40% dearer in a micro-benchmark (2026-11-26). Each of the others is the collector
 * `collectDefaultMetrics` itself calls (`prom-client/lib/metrics/<name>`), with the same names and options.
 */
const NODE_METRICS = [
  "processCpuTotal",
  "processStartTime",
  "osMemoryHeap",
  "processOpenFileDescriptors",
  "processMaxFileDescriptors",
  "eventLoopLag",
  "processResources",
  "processHandles",
  "processRequests",
  "heapSizeAndUsed",
  "heapSpacesSizeAndUsed",
  "version",
] as const;

const collectNodeMetrics = (registry: Registry, prefix: string): void => {
  const load = createRequire(import.meta.url);
  for (const name of NODE_METRICS) {
    if (name === "processResources" && typeof process.getActiveResourcesInfo !== "function") continue;
    const collector = load(`prom-client/lib/metrics/${name}`) as (register: Registry, config: object) => void;
    collector(registry, { prefix, eventLoopMonitoringPrecision: 10 });
  }
};

/** One route and method's requests: counts by status, and the latency histogram's buckets (not cumulative; the last is +Inf). */
interface RequestSeries {
  readonly route: string;
  readonly method: string;
  readonly statuses: Map<number, number>;
  readonly buckets: number[];
  sum: number;
  count: number;
}

/**
 * `voar_http_requests_total` and `voar_http_request_duration_seconds`, the two metrics every request writes,
 * kept in plain numbers and written out by the registry as `prom-client`'s own would be. Through `prom-client`'s
 * Counter and Histogram each request paid a check and a hash of its labels per metric and a bucket looked up
 * by a number turned into a string: about 3% of a poll's CPU in a profile (2026-11-26).
 */
const requestMetrics = (registry: Registry) => {
  const series = new Map<string, RequestSeries>();
  const metric = (name: string, help: string, type: "counter" | "histogram", values: () => readonly { metricName?: string; labels: Record<string, string | number>; value: number }[]) => {
    const get = async () => ({ name, help, type, aggregator: "sum" as const, values: values() });
    registry.registerMetric({ name, help, type, aggregator: "sum", get, reset: () => series.clear() } as unknown as Metric);
  };
  metric("voar_http_requests_total", "Requests answered, by route pattern, method and status.", "counter", () =>
    [...series.values()].flatMap((s) => [...s.statuses].map(([status, value]) => ({ labels: { route: s.route, method: s.method, status }, value }))),
  );
  const name = "voar_http_request_duration_seconds";
  metric(name, "Time to answer a request (an SSE stream: until its headers).", "histogram", () =>
    [...series.values()].flatMap((s) => {
      let cumulative = 0;
      const labels = { route: s.route, method: s.method };
      return [
        ...s.buckets.map((n, i) => ({ metricName: `${name}_bucket`, labels: { ...labels, le: i < REQUEST_BUCKETS.length ? REQUEST_BUCKETS[i]! : "+Inf" }, value: (cumulative += n) })),
        { metricName: `${name}_sum`, labels, value: s.sum },
        { metricName: `${name}_count`, labels, value: s.count },
      ];
    }),
  );
  const seriesOf = (route: string, method: string): RequestSeries => {
    const key = `${method} ${route}`;
    let s = series.get(key);
    if (s === undefined) series.set(key, (s = { route, method, statuses: new Map(), buckets: new Array<number>(REQUEST_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    return s;
  };
  return {
    observe(route: string, method: string, status: number, seconds: number) {
      const s = seriesOf(route, method);
      s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
      let i = 0;
      while (i < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[i]!) i++;
      s.buckets[i]! += 1;
      s.sum += seconds;
      s.count += 1;
    },
    /** Every route and method at zero, with the statuses an operator's queries read. */
    prepare(route: string, method: string) {
      const s = seriesOf(route, method);
      for (const status of LABEL_VALUES.status) if (!s.statuses.has(status)) s.statuses.set(status, 0);
    },
  };
};

/** The package's version, for `voar_build_info` (read from its package.json: `src/` and `dist/` sit at the same depth). */
const packageVersion = (): string => {
  try {
    return (createRequire(import.meta.url)("../../package.json") as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
};

/**
 * The metrics of one Node instance on a fresh `prom-client` registry (never the global one, so two apps in
 * one process, as in tests, keep theirs apart).
 *
 * @example
 * const metrics = createPromMetrics();
 * const app = createApp({ config, sources, metrics });
 * // GET /metrics answers `await metrics.scrape()`
 */
export const createPromMetrics = (options: PromMetricsOptions = {}): PromMetrics => {
  const registry = new Registry();
  const registers = [registry];
  if (options.nodeMetrics !== false) collectNodeMetrics(registry, "voar_");

  const request = requestMetrics(registry);
  const started = new Counter({ name: "voar_searches_started_total", help: "Searches started on this instance.", registers });
  const joined = new Counter({ name: "voar_searches_joined_total", help: "Requests that joined a live search of the same tenant and query.", registers });
  const refusedSearches = new Counter({ name: "voar_searches_refused_total", help: "New searches refused, by reason (capacity, overloaded).", labelNames: ["reason"], registers });
  const ended = new Counter({ name: "voar_searches_completed_total", help: "Searches run here that completed, by how (finished: every source answered or failed; deadline).", labelNames: ["completion"], registers });
  const failed = new Counter({ name: "voar_searches_failed_total", help: "Searches run here in which every source failed.", registers });
  let readRunning: () => number = () => 0;
  new Gauge({ name: "voar_searches_running", help: "Searches this instance runs now.", registers, collect() { this.set(readRunning()); } });
  const sourceSeconds = new Histogram({ name: "voar_source_answer_duration_seconds", help: "Time from a search's start to a source's whole answer, by source and origin (upstream: asked now; cache: a fresh cached answer).", labelNames: ["source", "origin"], buckets: SOURCE_BUCKETS, registers });
  const firstResult = new Histogram({ name: "voar_search_first_result_seconds", help: "Time from a search's start to its first offer (searches started here that found any).", buckets: SOURCE_BUCKETS, registers });
  const sourceOffers = new Counter({ name: "voar_source_offers_total", help: "Offers a source answered, by source.", labelNames: ["source"], registers });
  const sourceFailures = new Counter({ name: "voar_source_failures_total", help: "Failed attempts of a source, by source, error kind and whether it was final.", labelNames: ["source", "error", "final"], registers });
  // Each source's breaker as this instance last saw it; an open one reads half-open once its cool-down passed
  // (a probe may go: no request since told otherwise), so the gauge never stays at "open" on its own.
  const breakers = new Map<string, { state: BreakerState; at: number }>();
  let breakerCooldownMs: number | undefined;
  new Gauge({
    name: "voar_source_breaker_state",
    help: "A source's breaker: 0 closed, 1 open, 2 half-open (an open one past its cool-down).",
    labelNames: ["source"],
    registers,
    collect() {
      const now = Date.now();
      for (const [source, b] of breakers) this.set({ source }, BREAKER[b.state === "open" && breakerCooldownMs !== undefined && now - b.at >= breakerCooldownMs ? "half-open" : b.state]);
    },
  });
  const shedding = new Gauge({ name: "voar_load_shedding", help: "1 while admission control refuses new work for the instance's load, else 0.", registers });
  const traceExports = new Counter({ name: "voar_trace_export_spans_total", help: "Spans handed to the trace exporter, by outcome (success, failure: dropped).", labelNames: ["outcome"], registers });
  const spansDropped = new Counter({ name: "voar_trace_spans_dropped_total", help: "Spans dropped before any export: the tracer's queue was full (the collector slower than the spans came, or unreachable).", registers });
  new Gauge({ name: "voar_build_info", help: "1, labelled with the service's version and the Node version it runs on.", labelNames: ["version", "node"], registers }).set({ version: packageVersion(), node: process.versions.node }, 1);
  const upstream = new Counter({
    name: "voar_upstream_requests_total",
    help: "HTTP exchanges with the upstream, by route, outcome (ok, rate_limited, client_error, server_error, timeout, transport_error, aborted) and source (an airline's source, upstream:all, upstream:otas, upstream:login; other).",
    labelNames: ["route", "outcome", "source"],
    registers,
  });
  // The ids the upstream's requests are counted under (`prepareUpstream`); until declared, every id is kept as said.
  let upstreamSources: ReadonlySet<string> | undefined;
  let readLogin: () => UpstreamLoginState = () => "ok";
  new Gauge({ name: "voar_upstream_login_state", help: "The upstream's logins: 0 ok, 1 failing (/Token fails as an unavailable service does), 2 refused (the credentials: invalid_grant).", registers, collect() { this.set(LOGIN[readLogin()]); } });
  const upstreamSeconds = new Histogram({ name: "voar_upstream_request_duration_seconds", help: "Duration of an HTTP exchange with the upstream, by route.", labelNames: ["route"], buckets: UPSTREAM_BUCKETS, registers });
  let readPace: () => { readonly answerSeconds: number | undefined; readonly slow: boolean } = () => ({ answerSeconds: undefined, slow: false });
  new Gauge({
    name: "voar_upstream_answer_seconds",
    help: "Median time the upstream took to answer its latest search requests (absent before any).",
    registers,
    collect() {
      const seconds = readPace().answerSeconds;
      if (seconds === undefined) this.reset();
      else this.set(seconds);
    },
  });
  new Gauge({ name: "voar_upstream_slow", help: "1 while the upstream's answers take longer than the plain client's 10 s pace, else 0.", registers, collect() { this.set(readPace().slow ? 1 : 0); } });
  const searchRequests = new Histogram({ name: "voar_upstream_search_requests", help: "Upstream requests an upstream search took (polls and pages).", buckets: [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30], registers });
  const plainRequests = new Counter({ name: "voar_upstream_plain_equivalent_requests_total", help: "Requests a plain client (log in, ask, poll every 10 s until complete) would have spent on the same upstream searches.", registers });
  const storeSeconds = new Histogram({ name: "voar_store_command_duration_seconds", help: "Duration of a call to the session store (Redis), by outcome.", labelNames: ["outcome"], buckets: STORE_BUCKETS, registers });
  const storeBreaker = new Gauge({ name: "voar_store_breaker_state", help: "The store's breaker: 0 closed (Redis answers), 1 open.", registers });
  const fallbacks = new Counter({ name: "voar_store_fallbacks_total", help: "Work done on this instance alone because the store did not answer, by kind.", labelNames: ["kind"], registers });
  const refusals = new Counter({ name: "voar_refusals_total", help: "Requests refused by a budget, by scope (tenant rate limit, login limits).", labelNames: ["scope"], registers });
  const sse = new Gauge({ name: "voar_sse_streams_open", help: "SSE streams open now.", registers });
  const stalls = new Counter({ name: "voar_watch_stalls_total", help: "Searches followed by streams that advanced in the store without their announcement (pub/sub lost): read on a timer and subscribed again.", registers });
  const cache = new Counter({ name: "voar_upstream_cache_lookups_total", help: "Lookups of the upstream answers' cache, by result (hit, stale, miss).", labelNames: ["result"], registers });
  // The breaker of the store starts closed; the series exists before anything happens.
  storeBreaker.set(0);
  shedding.set(0);
  for (const reason of LABEL_VALUES.refusal) refusedSearches.inc({ reason }, 0);
  for (const completion of LABEL_VALUES.completion) ended.inc({ completion }, 0);
  for (const outcome of LABEL_VALUES.storeOutcome) storeSeconds.zero({ outcome });
  for (const kind of LABEL_VALUES.fallback) fallbacks.inc({ kind }, 0);
  for (const scope of LABEL_VALUES.refusalScope) refusals.inc({ scope }, 0);
  for (const result of LABEL_VALUES.cache) cache.inc({ result }, 0);
  for (const outcome of LABEL_VALUES.traceExport) traceExports.inc({ outcome }, 0);
  for (const route of LABEL_VALUES.upstreamRoute) upstreamSeconds.zero({ route });
  spansDropped.inc(0);

  return {
    registry,
    contentType: registry.contentType,
    scrape: () => registry.metrics(),
    request: request.observe,
    prepare(known: KnownLabels) {
      breakerCooldownMs = known.breakerCooldownMs;
      for (const { route, methods } of known.routes) for (const method of methods) request.prepare(route, method);
      for (const source of known.sources) {
        for (const origin of LABEL_VALUES.origin) sourceSeconds.zero({ source, origin });
        sourceOffers.inc({ source }, 0);
        if (!breakers.has(source)) breakers.set(source, { state: "closed", at: Date.now() });
        for (const error of LABEL_VALUES.sourceError) for (const final of ["true", "false"]) sourceFailures.inc({ source, error, final }, 0);
      }
    },
    firstResult: (seconds) => firstResult.observe(seconds),
    loadShedding: (on) => shedding.set(on ? 1 : 0),
    traceExport: (outcome, spans) => traceExports.inc({ outcome }, spans),
    searchStarted: () => started.inc(),
    searchJoined: () => joined.inc(),
    searchRefused: (reason) => refusedSearches.inc({ reason }),
    searchEnded: (end) => (end === "failed" ? failed.inc() : ended.inc({ completion: end })),
    runningSearches(read) {
      readRunning = read;
    },
    sourceAnswered(source, seconds, offers, origin = "upstream") {
      sourceSeconds.observe({ source, origin }, seconds);
      sourceOffers.inc({ source }, offers);
    },
    sourceFailed: (source, error, final) => sourceFailures.inc({ source, error, final: final ? "true" : "false" }),
    sourceBreakerState: (source, state) => void breakers.set(source, { state, at: Date.now() }),
    prepareUpstream(sources) {
      upstreamSources = new Set([...sources, OTHER_SOURCE]);
      for (const source of upstreamSources) {
        for (const route of LABEL_VALUES.upstreamRoute) for (const outcome of LABEL_VALUES.upstreamOutcome) upstream.inc({ route, outcome, source }, 0);
        if (source !== OTHER_SOURCE && !breakers.has(source)) breakers.set(source, { state: "closed", at: Date.now() });
      }
    },
    upstreamRequest(route, outcome, seconds, source = OTHER_SOURCE) {
      upstream.inc({ route, outcome, source: upstreamSources === undefined || upstreamSources.has(source) ? source : OTHER_SOURCE });
      upstreamSeconds.observe({ route }, seconds);
    },
    upstreamLogin(read) {
      readLogin = read;
    },
    spansDropped: (spans) => spansDropped.inc(spans),
    upstreamPace(read) {
      readPace = read;
    },
    upstreamSearchSettled(requests, plain) {
      searchRequests.observe(requests);
      plainRequests.inc(plain);
    },
    storeCommand: (outcome, seconds) => storeSeconds.observe({ outcome }, seconds),
    storeBreakerState: (state) => storeBreaker.set(BREAKER[state]),
    storeFallback: (kind) => fallbacks.inc({ kind }),
    refused: (scope) => refusals.inc({ scope }),
    sseStreams: (delta) => sse.inc(delta),
    watchStalled: () => stalls.inc(),
    cacheLookup: (result) => cache.inc({ result }),
  };
};

/** Where {@link serveMetrics} listens. */
export interface MetricsServerOptions {
  readonly port: number;
  readonly hostname: string;
  readonly metrics: PromMetrics;
}

/**
 * Serves `GET /metrics` alone, without a key, on a port of its own (`metrics.port`): for a scraper on a
 * private network, the service's public port keeping it behind the admin key. Anything else is a 404.
 */
export const serveMetrics = (o: MetricsServerOptions, onListening?: (info: AddressInfo) => void): Server => {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
      return;
    }
    o.metrics.scrape().then(
      (text) => res.writeHead(200, { "Content-Type": o.metrics.contentType, "Cache-Control": "no-store" }).end(text),
      () => res.writeHead(500, { "Content-Type": "text/plain" }).end("metrics unavailable\n"),
    );
  });
  server.listen(o.port, o.hostname, () => onListening?.(server.address() as AddressInfo));
  return server;
};
