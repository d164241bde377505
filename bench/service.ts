/**
 * Service benchmark. Loopback only, bounded in time; prints, from one run:
 *  - load: 200 concurrent searches, each polled every 500 ms until complete, in 5 rounds: requests/s,
 *    p50/p99 latency, errors (must be 0), and the server's resident memory before, during and after the
 *    sessions expire;
 *  - one cached page of 10 flights (a completed search polled by Token) against a bare node:http server
 *    sending the same bytes, side by side, and Hono alone answering each request its own copy of those bytes
 *    against the same bare server: target, the app's ratio at least 0.85 of Hono alone's; and the same for a
 *    poll that repeats the query, the demo, and CORS on;
 *  - the bytes of a conditional poll of an unchanged search (304) against the full answer;
 *  - resident and heap memory per active search, and per 1,000 offers (the target reads the heap);
 *  - how the cost grows: 200 and 1,000 concurrent searches on two instances on Redis, the fake upstream apart.
 * The service is `voar-server` itself (the production entry, request log on) in its own process, searching a
 * fake upstream in a third process (the simulator's work is off its request path and out of its memory).
 */
import { measureMetricsInstructions, type MetricsInstructions } from "./service/instructions.js";
import { fmt, isQuick, slopeOf, summarize, type Figure } from "./lib/measure.js";
import { compareServers, LOAD_TOOL, type Comparison, type Shot } from "./service/http-compare.js";
import { wireBytes } from "./service/wire-bytes.js";
import { distinctQueries, LARGE_ROUTES, percentile, searchRound, type SearchBody } from "./service/search-load.js";
import { BENCH_KEY, startServiceProcess, type MemoryReading, type ServiceProcess } from "./service/service-process.js";
import { measureTwoInstances, type TwoInstanceFigures } from "./service/two-instances.js";
import { measureScale, type ScaleFigures } from "./service/scale-load.js";

/** Figures of the concurrent-search load. */
export interface LoadFigures {
  readonly searches: number;
  readonly rounds: number;
  readonly pollMs: number;
  readonly latencyMs: number;
  readonly ttlMs: number;
  readonly rps: Figure;
  /** CPU time of the service per search of a round (following its sources, answering its polls). */
  readonly cpuPerSearchMs: Figure;
  /** The service's CPU time over the round's wall time (1 = one core busy all the time). */
  readonly busy: Figure;
  /** Latency of the polls by Token (every request but each search's first). */
  readonly p50: Figure;
  readonly p99: Figure;
  /**
   * The same load with every search started at the same instant: each client polls 500 ms after its answer,
   * so the polls stay in step and arrive in bursts of all the searches at once (a worst case, informational).
   */
  readonly inStep: { readonly rounds: number; readonly p50: Figure; readonly p99: Figure };
  /** Latency of each search's first request (the query: it starts the search; 200 arrive at once). */
  readonly startP50: Figure;
  readonly startP99: Figure;
  readonly requests: number;
  readonly errors: number;
  /** 429s of admission control waited out (not errors), over every round. */
  readonly shed: number;
  /** Errors by kind (status and code, or the request's failure), over every round. */
  readonly errorKinds: Readonly<Record<string, number>>;
  /** RSS after warm-up (collected), peak while searches ran, and after they expired (collected). */
  readonly memory: { readonly before: MemoryReading; readonly peakRss: number; readonly after: MemoryReading };
}

/** Figures of a cached answer served by the app against a bare server sending the same bytes. */
export interface ServedAnswer extends Comparison {
  readonly bytes: number;
}

/** Everything the service bench measured. */
export interface ServiceFigures {
  readonly load: LoadFigures;
  readonly cachedPage: ServedAnswer;
  /** The cached page's bytes through Hono on @hono/node-server alone, against the bare server: the framework's ceiling. */
  readonly framework: Comparison;
  /** The same bytes through Hono alone, copied per request with a new `X-Request-Id` (each answer its own), against the bare server. */
  readonly frameworkOwn: Comparison;
  /** Bare node:http writing an answer with a fresh id in it as three parts, against one buffer copied per request (anchor). */
  readonly writing: Comparison;
  readonly repeatedQuery: ServedAnswer;
  /** The cached page by Token, served by the demo (`voar-demo`, the server a user tries first). */
  readonly demoCachedPage: ServedAnswer;
  /** The cached page by Token with CORS on, polled with an allowed `Origin` (a page of another origin). */
  readonly corsCachedPage: ServedAnswer;
  /** The cached page by Token with metrics and tracing on (the OTLP endpoint unreachable) against both off (the anchor), and each part. */
  readonly telemetry: TelemetryCost;
  /** The load generator of the serving comparisons. */
  readonly loadTool: "wrk" | "autocannon";
  /** Bytes on the wire (status line, headers, body) of the full answer and of a conditional poll's 304. */
  readonly conditional: { readonly full: number; readonly notModified: number; readonly status: number };
  readonly perSearch: PerSearchFigures;
  /** 200 concurrent searches on two instances sharing a healthy Redis; undefined without `redis-server` on PATH. */
  readonly twoInstances: TwoInstanceFigures | undefined;
  /**
   * The load at 200 and at 1,000 concurrent searches (quick: 100 and 300) on two instances on Redis and the fake
   * upstream in its own process: how the cost grows with the work. Undefined without `redis-server` on PATH.
   */
  readonly scale: ScaleFigures | undefined;
}

/** Memory of active searches, per 1,000 offers held (bytes). */
export interface PerSearchFigures {
  /** Searches held at the end, added in `steps` equal steps. */
  readonly searches: number;
  readonly steps: number;
  /** Offers per search. */
  readonly offers: Figure;
  /** Offers held at the end. */
  readonly offersHeld: number;
  /**
   * The least-squares slope of each reading over the offers held, one point per step (read after a full GC):
   * what 1,000 more offers of active searches cost, without what the first ones paid once (in the intercept).
   */
  readonly rssPer1000Offers: number;
  readonly heapPer1000Offers: number;
  /**
   * The resident slope's parts: the V8 heap's committed pages (used and the free ones V8 keeps), ArrayBuffers
   * and other memory bound to JavaScript objects, and the rest (the allocator's pages, code, stacks).
   */
  readonly rssParts: { readonly heapCommitted: number; readonly external: number; readonly rest: number };
  /** The resident growth of each step alone, per 1,000 offers: how far one step's reading strays (min, max). */
  readonly rssStep: { readonly min: number; readonly max: number };
  /** The growth from before the first search to the last step, per 1,000 offers (fixed costs included). */
  readonly whole: { readonly heapPer1000Offers: number; readonly rssPer1000Offers: number };
  /** Heap after their TTL passed (and a new search let the store evict them), minus the heap before them. */
  readonly heapLeftAfterTtl: number;
  readonly rssLeftAfterTtl: number;
}

const HEADERS = { Authorization: `Bearer ${BENCH_KEY}`, "Content-Type": "application/json" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const MiB = 1024 * 1024;

/**
 * 200 concurrent searches per round, polled until complete; memory before, at its peak and after expiry.
 * The searches of a round start spread over one poll interval (as independent clients do: arrivals are not
 * synchronized), then each polls every 500 ms after its answer; then rounds whose searches all start at once.
 */
export const measureLoad = async (): Promise<LoadFigures> => {
  const o = { searches: 200, rounds: 5, inStepRounds: 3, pollMs: 500, latencyMs: 400, ttlMs: 5_000 };
  const server = await startServiceProcess({ ttlMs: o.ttlMs, latencyMs: o.latencyMs });
  try {
    // Warm-up, a whole round: code paths compiled, the heap, sockets and pools at the size of the load.
    await searchRound(server.appUrl, distinctQueries(o.searches, 200), o.pollMs, { startSpreadMs: o.pollMs });
    await sleep(o.ttlMs + 500);
    await searchRound(server.appUrl, distinctQueries(1, 300), o.pollMs); // a new search evicts the expired ones
    const before = await server.memory(true);
    let peakRss = before.rss;
    const sampler = setInterval(() => void server.memory(false).then((m) => (peakRss = Math.max(peakRss, m.rss))), 100);
    const rounds = [];
    const cpuMs: number[] = [];
    for (let r = 0; r < o.rounds; r++) {
      const cpu0 = (await server.memory(false)).cpuMs;
      rounds.push(await searchRound(server.appUrl, distinctQueries(o.searches, 2 + r * 20), o.pollMs, { startSpreadMs: o.pollMs }));
      cpuMs.push((await server.memory(false)).cpuMs - cpu0);
    }
    const inStep = [];
    for (let r = 0; r < o.inStepRounds; r++) inStep.push(await searchRound(server.appUrl, distinctQueries(o.searches, 120 + r * 20), o.pollMs));
    clearInterval(sampler);
    await sleep(o.ttlMs + 500);
    await searchRound(server.appUrl, distinctQueries(1, 301), o.pollMs);
    const after = await server.memory(true);
    return {
      ...o,
      rps: summarize(rounds.map((r) => r.requests / (r.wallMs / 1000))),
      cpuPerSearchMs: summarize(cpuMs.map((ms) => ms / o.searches)),
      busy: summarize(cpuMs.map((ms, i) => ms / rounds[i]!.wallMs)),
      p50: summarize(rounds.map((r) => percentile(r.pollLatencies, 50))),
      p99: summarize(rounds.map((r) => percentile(r.pollLatencies, 99))),
      inStep: {
        rounds: o.inStepRounds,
        p50: summarize(inStep.map((r) => percentile(r.pollLatencies, 50))),
        p99: summarize(inStep.map((r) => percentile(r.pollLatencies, 99))),
      },
      startP50: summarize(rounds.map((r) => percentile(r.startLatencies, 50))),
      startP99: summarize(rounds.map((r) => percentile(r.startLatencies, 99))),
      requests: [...rounds, ...inStep].reduce((n, r) => n + r.requests, 0),
      errors: [...rounds, ...inStep].reduce((n, r) => n + r.errors, 0),
      shed: [...rounds, ...inStep].reduce((n, r) => n + r.shed, 0),
      errorKinds: [...rounds, ...inStep].reduce<Record<string, number>>((all, r) => {
        for (const [kind, n] of Object.entries(r.errorKinds)) all[kind] = (all[kind] ?? 0) + n;
        return all;
      }, {}),
      memory: { before, peakRss, after },
    };
  } finally {
    await server.stop();
  }
};

/** Serves `body` from the app and the same answer's bytes from the bare server, side by side (`extra`: headers the requests add). */
const compareAnswer = async (server: ServiceProcess, body: SearchBody, quick: boolean, extra: Record<string, string> = {}): Promise<ServedAnswer> => {
  const res = await fetch(`${server.appUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers: { ...HEADERS, ...extra }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`the answer to serve is HTTP ${res.status}: ${text.slice(0, 200)}`);
  await server.setBare(text, { "content-type": res.headers.get("content-type") ?? "application/json" });
  const comparison = await compareServers(shotOf(server.bareUrl, body, extra), shotOf(server.appUrl, body, extra), compareOptions(quick));
  return { ...comparison, bytes: Buffer.byteLength(text) };
};

const shotOf = (origin: string, body: SearchBody, extra: Record<string, string> = {}): Shot => ({
  url: `${origin}/api/ConsultaAereo/Consultar`,
  method: "POST",
  headers: { ...HEADERS, ...extra },
  body: JSON.stringify(body),
});
const compareOptions = (quick: boolean) => ({ runs: 5, durationS: quick ? 1 : 3, connections: 32 });

/** A completed search of the query on the server, and the poll of its page 1 of 10 by Token. */
const completedPoll = async (server: ServiceProcess, query: SearchBody) => {
  const round = await searchRound(server.appUrl, [query], 50);
  if (round.errors > 0) throw new Error(`the search to serve failed: ${round.firstError}`);
  const first = await fetch(`${server.appUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers: HEADERS, body: JSON.stringify(query) });
  const token = ((await first.json()) as { Token: string }).Token;
  return { Token: token, NumeroPagina: 1, QuantidadePorPagina: 10 };
};

/**
 * A completed Mode A search (CNF-GRU), then its page 1 of 10 by Token (and the same bytes through Hono alone),
 * and the repeated query; the bytes of a 304.
 */
const measureServing = async (quick: boolean) => {
  const server = await startServiceProcess({ ttlMs: 600_000, latencyMs: 200 });
  try {
    const [query] = distinctQueries(1, 30);
    const poll = await completedPoll(server, query!);
    const full = await wireBytes(server.appUrl, "/api/ConsultaAereo/Consultar", HEADERS, JSON.stringify(poll));
    const notModified = await wireBytes(server.appUrl, "/api/ConsultaAereo/Consultar", { ...HEADERS, "If-None-Match": full.etag ?? "" }, JSON.stringify(poll));
    const cachedPage = await compareAnswer(server, poll, quick);
    // The same bytes through Hono on @hono/node-server alone (the bare server answers the page, set just above).
    const framework = await compareServers(shotOf(server.bareUrl, poll), shotOf(server.frameworkUrl, poll), compareOptions(quick));
    const frameworkOwn = await compareServers(shotOf(server.bareUrl, poll), shotOf(server.frameworkOwnUrl, poll), compareOptions(quick));
    // The poll path's writing, on bare node:http: parts against one buffer copied per request (the anchor).
    const writing = await compareServers(shotOf(server.joinedUrl, poll), shotOf(server.partsUrl, poll), compareOptions(quick));
    const repeatedQuery = await compareAnswer(server, query!, quick);
    return { cachedPage, framework, frameworkOwn, writing, repeatedQuery, conditional: { full: full.bytes, notModified: notModified.bytes, status: notModified.status } };
  } finally {
    await server.stop();
  }
};

/** The demo's answer to the same page by Token, against the bare server (the demo runs its own simulator). */
const measureDemoServing = async (quick: boolean): Promise<ServedAnswer> => {
  const [query] = distinctQueries(1, 30);
  const demo = await startServiceProcess({ ttlMs: 600_000, latencyMs: 200, entry: "demo" });
  try {
    return await compareAnswer(demo, await completedPoll(demo, query!), quick);
  } finally {
    await demo.stop();
  }
};

/** The origin of the page that polls cross-origin in {@link measureCorsServing}. */
const PAGE_ORIGIN = "https://app.example";

/**
 * The same page by Token on `voar-server` with CORS on (`VOAR_CORS_ORIGINS`), polled as a page of another
 * origin polls it (`Origin` sent): the answer carries the CORS headers. Against the bare server.
 */
const measureCorsServing = async (quick: boolean): Promise<ServedAnswer> => {
  const [query] = distinctQueries(1, 30);
  const server = await startServiceProcess({ ttlMs: 600_000, latencyMs: 200, corsOrigins: PAGE_ORIGIN });
  try {
    return await compareAnswer(server, await completedPoll(server, query!), quick, { Origin: PAGE_ORIGIN });
  } finally {
    await server.stop();
  }
};

/** Where the tracing row's exporter sends: a port nothing listens on (the discard port, closed on loopback). */
const UNREACHABLE_OTLP = "http://127.0.0.1:9";

/**
 * What metrics and traces cost a poll: the same page by Token on two `voar-server` processes side by side, one
 * with metrics off and no tracing (`VOAR_METRICS_ENABLED=false`, the anchor), one with the metrics (`prom-client`,
 * Node's default metrics collected) and the OpenTelemetry SDK registered, its OTLP endpoint unreachable (every
 * request a span; the batches the exporter cannot deliver are dropped).
 */
export const measureTelemetryCost = async (quick: boolean): Promise<TelemetryCost> => {
  const [query] = distinctQueries(1, 30);
  const noTraces = { OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "" };
  const off = await startServiceProcess({ ttlMs: 600_000, latencyMs: 200, env: { VOAR_METRICS_ENABLED: "false", ...noTraces } });
  const metricsOnly = await startServiceProcess({ ttlMs: 600_000, latencyMs: 200, env: { VOAR_METRICS_ENABLED: "true", ...noTraces } });
  const on = await startServiceProcess({ ttlMs: 600_000, latencyMs: 200, env: { VOAR_METRICS_ENABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: UNREACHABLE_OTLP } });
  let telemetry: Omit<TelemetryCost, "instructions">;
  try {
    const [offPoll, metricsPoll, onPoll] = [await completedPoll(off, query!), await completedPoll(metricsOnly, query!), await completedPoll(on, query!)];
    const bytes = (await wireBytes(on.appUrl, "/api/ConsultaAereo/Consultar", HEADERS, JSON.stringify(onPoll))).bytes;
    const cpuOf = (server: ServiceProcess) => async () => (await server.memory(false)).cpuMs;
    const both = { ...(await compareServers(shotOf(off.appUrl, offPoll), shotOf(on.appUrl, onPoll), compareOptions(quick), { anchor: cpuOf(off), subject: cpuOf(on) })), bytes };
    // Each part against what it is added to: the metrics against both off, the tracing against the metrics alone.
    const metrics = await compareServers(shotOf(off.appUrl, offPoll), shotOf(metricsOnly.appUrl, metricsPoll), compareOptions(quick), { anchor: cpuOf(off), subject: cpuOf(metricsOnly) });
    const tracing = await compareServers(shotOf(metricsOnly.appUrl, metricsPoll), shotOf(on.appUrl, onPoll), compareOptions(quick), { anchor: cpuOf(metricsOnly), subject: cpuOf(on) });
    telemetry = { ...both, metrics, tracing };
  } finally {
    await Promise.all([off.stop(), metricsOnly.stop(), on.stop()]);
  }
  // Then the same poll's instructions, metrics off and on, once the processes above are gone.
  return { ...telemetry, instructions: await measureMetricsInstructions(quick) };
};

/** What metrics and tracing cost a poll: both against both off, and each part against what it is added to. */
export interface TelemetryCost extends ServedAnswer {
  /** Metrics on against both off. */
  readonly metrics: Comparison;
  /** Metrics and tracing against the metrics alone: the tracing's own cost. */
  readonly tracing: Comparison;
  /** The metrics against both off in instructions per poll (callgrind); undefined without valgrind. */
  readonly instructions: MetricsInstructions | undefined;
}

/**
 * Memory per active (completed, not expired) search: the largest Mode B round trips of the simulator, held in
 * equal steps, the process's memory read after each (after a full GC); the figure is the slope of each reading
 * over the offers held. Then what is left once their TTL passed.
 */
export const measurePerSearch = async (quick: boolean): Promise<PerSearchFigures> => {
  const steps = quick ? 5 : 8;
  const perStep = quick ? 10 : 25;
  const ttlMs = quick ? 20_000 : 60_000;
  const server = await startServiceProcess({ ttlMs, latencyMs: 200 });
  try {
    const shape = { routes: LARGE_ROUTES, extra: { Companhia: 1300 }, returnAfterDays: 7 };
    await searchRound(server.appUrl, distinctQueries(10, 250, shape), 100); // warm-up
    await sleep(ttlMs + 500);
    await searchRound(server.appUrl, distinctQueries(1, 300, shape), 100); // evicts the warm-up's searches
    const before = await server.memory(true);
    const readings: { readonly offers: number; readonly m: MemoryReading }[] = [];
    const offers: number[] = [];
    let held = 0;
    for (let step = 0; step < steps; step++) {
      // Distinct queries: each step's start skips the routes' dates the steps before took.
      const round = await searchRound(server.appUrl, distinctQueries(perStep, 20 + step * Math.ceil(perStep / LARGE_ROUTES.length), shape), 100);
      if (round.errors > 0) throw new Error(`searches failed: ${round.firstError}`);
      offers.push(...round.offers);
      held += round.offers.reduce((a, b) => a + b, 0);
      readings.push({ offers: held, m: await server.memory(true) });
    }
    const last = readings.at(-1)!;
    await sleep(ttlMs + 500);
    await searchRound(server.appUrl, distinctQueries(1, 301, shape), 100);
    const expired = await server.memory(true);
    const per1000 = (read: (m: MemoryReading) => number) => slopeOf(readings.map((r) => [r.offers, read(r.m)] as const)) * 1000;
    const rest = (m: MemoryReading) => m.rss - m.heapTotal - m.external;
    const stepRss = readings.slice(1).map((r, i) => ((r.m.rss - readings[i]!.m.rss) / (r.offers - readings[i]!.offers)) * 1000);
    return {
      searches: steps * perStep,
      steps,
      offers: summarize(offers),
      offersHeld: last.offers,
      rssPer1000Offers: per1000((m) => m.rss),
      heapPer1000Offers: per1000((m) => m.heapUsed),
      rssParts: { heapCommitted: per1000((m) => m.heapTotal), external: per1000((m) => m.external), rest: per1000(rest) },
      rssStep: { min: Math.min(...stepRss), max: Math.max(...stepRss) },
      whole: { heapPer1000Offers: ((last.m.heapUsed - before.heapUsed) / last.offers) * 1000, rssPer1000Offers: ((last.m.rss - before.rss) / last.offers) * 1000 },
      heapLeftAfterTtl: expired.heapUsed - before.heapUsed,
      rssLeftAfterTtl: expired.rss - before.rss,
    };
  } finally {
    await server.stop();
  }
};

/** The sizes of the scale rows: 200 against 1,000 searches, 3 rounds each; quick: 100 against 300, one round. */
export const scaleSizes = (quick: boolean) => (quick ? { anchor: 100, subject: 300, rounds: 1 } : { anchor: 200, subject: 1_000, rounds: 3 });

/** Runs every part of the service bench (`quick`: 1 s runs, and 50 searches in 5 steps for the memory figure). */
export const runServiceBench = async (quick = isQuick()): Promise<ServiceFigures> => {
  const load = await measureLoad();
  const { cachedPage, framework, frameworkOwn, writing, repeatedQuery, conditional } = await measureServing(quick);
  const demoCachedPage = await measureDemoServing(quick);
  const corsCachedPage = await measureCorsServing(quick);
  const telemetry = await measureTelemetryCost(quick);
  const perSearch = await measurePerSearch(quick);
  const twoInstances = await measureTwoInstances(quick);
  const scale = await measureScale(scaleSizes(quick));
  return { load, cachedPage, framework, frameworkOwn, writing, repeatedQuery, demoCachedPage, corsCachedPage, telemetry, conditional, perSearch, twoInstances, scale, loadTool: LOAD_TOOL };
};

/** Poll by Token (the app) over Hono alone answering each request its own bytes, both against the same bare server. */
export const overFramework = (f: Pick<ServiceFigures, "cachedPage" | "frameworkOwn">): number => f.cachedPage.ratio.median / f.frameworkOwn.ratio.median;

/** The serving comparisons alone (`tsx bench/service.ts --serving`): to measure a change of the serving path. */
export const runServingBench = async (quick = isQuick()) => measureServing(quick);

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/** Prints the figures as the other bench scripts do. */
export const printServiceFigures = (f: ServiceFigures): void => {
  const l = f.load;
  console.log(`load: ${l.searches} concurrent searches x ${l.rounds} rounds, started over ${l.pollMs} ms, polled every ${l.pollMs} ms until complete (sources ${l.latencyMs} ms, TTL ${l.ttlMs} ms)`);
  console.log(`  requests/s: ${fmt(l.rps, "req/s", 0)}   (${l.requests} requests)`);
  console.log(`  service CPU per search: ${fmt(l.cpuPerSearchMs)}   busy ${fmt(l.busy, "x")} of one core`);
  console.log(`  poll latency p50: ${fmt(l.p50)}   p99: ${fmt(l.p99)}   (target p99 <= 50 ms)`);
  console.log(`  started at once, polls in step (${l.inStep.rounds} rounds): p50: ${fmt(l.inStep.p50)}   p99: ${fmt(l.inStep.p99)}   (informational)`);
  console.log(`  first request (starts the search) p50: ${fmt(l.startP50)}   p99: ${fmt(l.startP99)}`);
  console.log(`  errors: ${l.errors}${l.errors > 0 ? ` ${JSON.stringify(l.errorKinds)}` : ""}   (must be 0)`);
  console.log(`  RSS before: ${mib(l.memory.before.rss)}   peak during: ${mib(l.memory.peakRss)}   after expiry: ${mib(l.memory.after.rss)}   (heap ${mib(l.memory.before.heapUsed)} -> ${mib(l.memory.after.heapUsed)}${l.memory.after.collected ? ", after full GC" : ", no --expose-gc"})`);
  for (const [name, s] of [["cached page of 10 flights by Token", f.cachedPage], ["poll repeating the query (page of 10)", f.repeatedQuery], ["the demo: cached page by Token", f.demoCachedPage], ["CORS on, polled with Origin: cached page by Token", f.corsCachedPage]] as const) {
    console.log(`${name} (${s.bytes} bytes):`);
    console.log(`  bare node:http: ${fmt(s.anchor.rps, "req/s", 0)}   p50 ${fmt(s.anchor.p50)}   p99 ${fmt(s.anchor.p99)}`);
    console.log(`  app:            ${fmt(s.subject.rps, "req/s", 0)}   p50 ${fmt(s.subject.p50)}   p99 ${fmt(s.subject.p99)}`);
    console.log(`  ratio app/bare: ${fmt(s.ratio, "x")}   errors: ${s.anchor.errors + s.subject.errors}`);
  }
  const o = f.telemetry;
  console.log(`metrics and tracing on (OTLP endpoint unreachable) against off, cached page by Token (${o.bytes} bytes):`);
  console.log(`  off: ${fmt(o.anchor.rps, "req/s", 0)}   on: ${fmt(o.subject.rps, "req/s", 0)}   ratio on/off: ${fmt(o.ratio, "x")}  (target >= 0.9)   errors: ${o.anchor.errors + o.subject.errors}`);
  printServing(f);
  const c = f.conditional;
  console.log(`conditional poll of an unchanged search: HTTP ${c.status}, ${c.notModified} bytes against ${c.full} for the full answer (${(c.notModified / c.full).toFixed(3)}x; target <= 0.1)`);
  const p = f.perSearch;
  const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;
  console.log(`memory per active search (${p.searches} searches held in ${p.steps} steps, ${p.offers.median.toFixed(0)} offers median, ${p.offersHeld} in all; slope over the steps):`);
  console.log(`  per 1,000 offers: RSS ${mb(p.rssPer1000Offers)}, heap ${mb(p.heapPer1000Offers)} (target <= 1 MB)`);
  console.log(`  RSS parts: heap committed ${mb(p.rssParts.heapCommitted)}, buffers ${mb(p.rssParts.external)}, the rest ${mb(p.rssParts.rest)}; one step alone: ${mb(p.rssStep.min)} to ${mb(p.rssStep.max)}`);
  console.log(`  from the start to the last step: RSS ${mb(p.whole.rssPer1000Offers)}, heap ${mb(p.whole.heapPer1000Offers)} per 1,000 offers`);
  console.log(`  left after their TTL: heap ${mib(p.heapLeftAfterTtl)}, RSS ${mib(p.rssLeftAfterTtl)}`);
  const t = f.twoInstances;
  if (!t) console.log("two instances on Redis: skipped (no redis-server on PATH)");
  else {
    console.log(`two instances on one healthy Redis, ${t.searches} searches at once x ${t.rounds} rounds (clients give up on a 503):`);
    console.log(`  503s: ${fmt(t.unavailable, "", 0)} (goal 0)   completed: ${fmt(t.completed, "", 0)} of ${t.searches} (goal ${t.searches})   429s waited out: ${fmt(t.shed, "", 0)}   other errors: ${t.otherErrors}`);
    console.log(`  poll p99: ${fmt(t.pollP99)}   instances' CPU over wall time: ${fmt(t.busy, "x")}`);
  }
  const sc = f.scale;
  if (!sc) console.log("scale (two instances on Redis, the fake upstream apart): skipped (no redis-server on PATH)");
  else {
    console.log(`scale: two instances on Redis, the fake upstream in its own process (no target yet):`);
    for (const r of [sc.anchor, sc.subject]) {
      console.log(`  ${r.searches} searches x ${r.rounds}: poll p50 ${fmt(r.pollP50)}   p99 ${fmt(r.pollP99)}   CPU per search ${fmt(r.cpuPerSearchMs)}   peak RSS ${mib(r.peakRss)}   completed ${fmt(r.completed, "", 0)}   errors ${r.errors}${r.errors > 0 ? ` ${JSON.stringify(r.errorKinds)}` : ""}   429s ${fmt(r.shed, "", 0)}`);
    }
  }
};

/** The serving rows that judge the polling target: the app and Hono alone answering each request its own. */
const printServing = (f: Pick<ServiceFigures, "cachedPage" | "framework" | "frameworkOwn"> & Partial<Pick<ServiceFigures, "writing">>): void => {
  if (f.writing) console.log(`bare node:http, an answer with a fresh id in it: three parts against one buffer copied per request: ${fmt(f.writing.ratio, "x")} (${fmt(f.writing.subject.rps, "req/s", 0)} against ${fmt(f.writing.anchor.rps, "req/s", 0)})`);
  console.log(`cached page by Token (${f.cachedPage.bytes} bytes), each against bare node:http with the same bytes:`);
  console.log(`  the app:                        ${fmt(f.cachedPage.subject.rps, "req/s", 0)}   ratio ${fmt(f.cachedPage.ratio, "x")}`);
  console.log(`  Hono alone, the same bytes:     ${fmt(f.framework.subject.rps, "req/s", 0)}   ratio ${fmt(f.framework.ratio, "x")}`);
  console.log(`  Hono alone, each answer its own: ${fmt(f.frameworkOwn.subject.rps, "req/s", 0)}   ratio ${fmt(f.frameworkOwn.ratio, "x")}`);
  const r = overFramework(f);
  console.log(`  the app over Hono alone, each answer its own: ${r.toFixed(2)}x (target >= 0.85: ${r >= 0.85 ? "met" : "missed"})`);
};

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--serving")) printServing(await runServingBench());
  else printServiceFigures(await runServiceBench());
}
