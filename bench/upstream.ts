/**
 * Upstream benchmark. Against a fake upstream on a loopback socket whose airlines answer as a real deployment's
 * do (0.8 s to 45 s) and whose all-airlines search is progressive (each airline's flights as it answers,
 * `ActiveProviders` listing those still searching), prints from one run:
 *  - upstream requests (searches and logins) per search of the adapter's per-airline sources, following one
 *    all-airlines upstream search (the default) or one search per airline (the fan-out), each with a new adapter
 *    (cold: nothing learned) and a learned one, against the plain client an agency would otherwise run (log in,
 *    `Companhia: -1`, poll every 10 s);
 *  - the first result against the fastest airline's answer, and the time to complete;
 *  - throughput of the undici source against the same source on global fetch (requests/s, ratio).
 * Time is scaled (one simulated second is SCALE_MS real milliseconds), the engine's inactivity timeout (20 s)
 * and the adapter's waits with it, so that a wait longer than the timeout shows as a lost airline.
 */
import { hasResults, search, type SearchQuery, type SearchSnapshot, type SearchSource } from "../packages/core/src/index.js";
import { createFakeUpstream, createSimulator, driveSearch, liveBackend, serveOnNode } from "../packages/testing/src/index.js";
import { createFanOutSources, createFetchTransport, createUpstreamSource, type UpstreamSource } from "../packages/http-adapter/src/index.js";
import { fmt, isQuick, sideBySide, summarize, type Figure } from "./lib/measure.js";

/** Real milliseconds per simulated second. */
const SCALE_MS = 20;
/** Simulated seconds each airline takes to answer completely: a spread like a real service's. */
const LATENCY_S: Readonly<Record<string, number>> = { tap: 0.8, latam: 1.2, copa: 1.6, azul: 4, american: 12, gol: 25, iberia: 45 };
/** The seven airlines of those latencies. */
const AIRLINES = [11, 1, 13, 3, 22, 2, 26];
/** The first airline with offers on the route (CNF-SDU: LATAM; TAP flies nothing there), simulated seconds. */
const FASTEST_WITH_OFFERS_S = 1.2;
const account = { username: "bench", password: "bench-secret" };
/** Query number `n`: a date of its own, so the upstream has never seen it and the search starts cold. */
const query = (n: number): SearchQuery => ({
  origin: "CNF",
  destination: "SDU",
  departureDate: new Date(Date.now() + (30 + n) * 86_400_000).toISOString().slice(0, 10),
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
});
const sim = (ms: number) => ms / SCALE_MS;
/**
 * The adapter's polling in scaled time: 1 s first wait growing to 10 s, as configured for production, and its
 * sources telling the engine they are alive every 5 s while they wait by choice.
 */
const polling = { initialDelayMs: 1 * SCALE_MS, maxDelayMs: 10 * SCALE_MS, maxDurationMs: 200 * SCALE_MS, heartbeatMs: 5 * SCALE_MS };
/** The engine as in production, scaled: 20 s of silence fail a source, 60 s deadline. */
const ENGINE = { timeoutMs: 20 * SCALE_MS, deadlineMs: 60 * SCALE_MS };

/** One progressive search: simulated seconds to the first offer and to completion, upstream requests (searches and logins). */
interface Timing {
  readonly firstS: number;
  readonly completeS: number;
  readonly requests: number;
  /** Sources that failed (an airline lost). */
  readonly failed: number;
}

/** Runs a search to its end; `onSnapshot` sees every snapshot. */
const runToEnd = (q: SearchQuery, sources: readonly SearchSource[], onSnapshot: (s: SearchSnapshot) => void = () => undefined, options = ENGINE): Promise<void> =>
  new Promise((resolve, reject) => {
    search(q, sources, options).subscribe({ next: onSnapshot, error: reject, complete: resolve });
  });

const timeSearch = async (q: SearchQuery, sources: readonly SearchSource[], requests: () => number): Promise<Timing> => {
  const before = requests();
  const t0 = performance.now();
  let firstMs: number | undefined;
  let last: SearchSnapshot | undefined;
  await runToEnd(q, sources, (s) => {
    last = s;
    if (firstMs === undefined && (hasResults(s) || s.completed)) firstMs = performance.now() - t0;
  });
  const completeMs = performance.now() - t0;
  return { firstS: sim(firstMs ?? completeMs), completeS: sim(completeMs), requests: requests() - before, failed: last?.sources.filter((p) => p.state === "failed").length ?? 0 };
};

/** Figures of one approach over several runs. */
export interface ApproachFigures {
  readonly firstS: Figure;
  readonly completeS: Figure;
  readonly requests: Figure;
  /** Airlines lost (failed) over every run. */
  readonly failed: number;
}

/** What {@link runUpstreamBench} measures. */
export interface UpstreamFigures {
  readonly scaleMs: number;
  readonly runs: number;
  readonly fastestS: number;
  /** The plain client an agency runs without the service: log in, ask, poll every 10 s (the anchor). */
  readonly plain: { readonly completeS: Figure; readonly requests: Figure };
  /** One all-airlines upstream search followed by every airline (the default), its adapter new (nothing learned) and learned. */
  readonly oneSearchCold: ApproachFigures;
  readonly oneSearchLearned: ApproachFigures;
  /** One single-airline upstream search per airline (the option), new and learned. */
  readonly fanOutCold: ApproachFigures;
  readonly fanOutLearned: ApproachFigures;
  readonly throughput: { readonly requests: number; readonly undici: Figure; readonly fetch: Figure; readonly ratio: Figure };
}

const summarizeTimings = (ts: readonly Timing[]): ApproachFigures => ({
  firstS: summarize(ts.map((t) => t.firstS)),
  completeS: summarize(ts.map((t) => t.completeS)),
  requests: summarize(ts.map((t) => t.requests)),
  failed: ts.reduce((n, t) => n + t.failed, 0),
});

const throughput = async (runs: number, quick: boolean) => {
  const upstream = createFakeUpstream({ backend: liveBackend({ sources: createSimulator({ latencyMs: 0 }).sources }), auth: { accounts: [account] } });
  const served = await serveOnNode(upstream.app.fetch);
  const baseUrl = `${served.origin}/api`;
  const q: SearchQuery = { ...query(0), mode: { kind: "single-airline", airlineId: 3 } };
  const undici = createUpstreamSource({ baseUrl, credentials: account, connections: 16 });
  const onFetch = createUpstreamSource({ baseUrl, credentials: account, transport: createFetchTransport() });
  // Warm the upstream search until complete: every later search of it is then one request.
  await runToEnd(q, [undici]);
  const total = quick ? 300 : 1_000;
  const concurrency = 16;
  const hammer = async (source: UpstreamSource) => {
    let left = total;
    const worker = async () => {
      while (left-- > 0) for await (const _batch of source.search(q, new AbortController().signal)) void _batch;
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  const result = await sideBySide(runs, () => undefined, () => hammer(onFetch), () => hammer(undici));
  await undici.close();
  await onFetch.close();
  await served.close();
  upstream.close();
  const rate = (f: Figure): Figure => ({ median: total / (f.median / 1000), min: total / (f.max / 1000), max: total / (f.min / 1000), runs: f.runs });
  const ratio: Figure = { median: 1 / result.ratio.median, min: 1 / result.ratio.max, max: 1 / result.ratio.min, runs: result.ratio.runs };
  return { requests: total, undici: rate(result.subject), fetch: rate(result.anchor), ratio };
};

/** Runs the bench and returns its figures (simulated seconds, requests, requests/s). */
export const runUpstreamBench = async (quick = isQuick()): Promise<UpstreamFigures> => {
  const runs = quick ? 3 : 7;
  const latencyMs = Object.fromEntries(Object.entries(LATENCY_S).map(([id, s]) => [id, s * SCALE_MS]));
  const simulator = createSimulator({ latencyMs, batches: 1 });
  // The simulator computes a route's flights once per query: done before timing, so that only the
  // simulated latencies, the HTTP exchanges and the polling are measured.
  for (let n = 0; n < 6 * runs + 6; n++) simulator.offers(query(n));
  // The upstream's all-airlines search is progressive, as the real one's is; its own searches take the airlines' time.
  const upstream = createFakeUpstream({
    backend: liveBackend({ sources: simulator.sources, deadlineMs: 300 * SCALE_MS, policy: { timeoutMs: 300 * SCALE_MS } }),
    auth: { accounts: [account] },
  });
  const served = await serveOnNode(upstream.app.fetch);
  const baseUrl = `${served.origin}/api`;
  const requests = () => upstream.stats.searches + upstream.stats.logins;
  const adapter = (strategy: "one-search" | "fan-out") => createFanOutSources({ baseUrl, credentials: account, polling, airlines: AIRLINES, strategy });
  const learned = { "one-search": adapter("one-search"), "fan-out": adapter("fan-out") };
  const cold = async (q: SearchQuery, strategy: "one-search" | "fan-out") => {
    const fresh = adapter(strategy);
    try {
      return await timeSearch(q, fresh, requests);
    } finally {
      await fresh[0]?.close();
    }
  };
  const plainClient = async (q: SearchQuery): Promise<Timing> => {
    const before = requests();
    const t0 = performance.now();
    const body = { Origem: q.origin, Destino: q.destination, Ida: q.departureDate, Adultos: q.passengers.adults, Criancas: 0, Bebes: 0, Companhia: -1 };
    await driveSearch({ fetch: globalThis.fetch, baseUrl, ...account, request: body, pollMs: 10 * SCALE_MS, maxFailures: 3, maxRequests: 100 });
    return { firstS: Number.NaN, completeS: sim(performance.now() - t0), requests: requests() - before, failed: 0 };
  };
  const results: Record<"plain" | "oneCold" | "oneLearned" | "fanCold" | "fanLearned", Timing[]> = { plain: [], oneCold: [], oneLearned: [], fanCold: [], fanLearned: [] };
  // One untimed round first (JIT, connections; the learned adapters learn the airlines' times); then each run
  // searches queries the upstream has not seen, so every search starts cold at the upstream.
  for (let i = -1; i < runs; i++) {
    const n = 5 * (i + 1);
    const round = {
      plain: await plainClient(query(n)),
      oneCold: await cold(query(n + 1), "one-search"),
      oneLearned: await timeSearch(query(n + 2), learned["one-search"], requests),
      fanCold: await cold(query(n + 3), "fan-out"),
      fanLearned: await timeSearch(query(n + 4), learned["fan-out"], requests),
    };
    if (i < 0) continue;
    for (const [k, t] of Object.entries(round)) results[k as keyof typeof results].push(t);
  }
  await learned["one-search"][0]?.close();
  await learned["fan-out"][0]?.close();
  await served.close();
  upstream.close();
  const plain = summarizeTimings(results.plain);
  return {
    scaleMs: SCALE_MS,
    runs,
    fastestS: FASTEST_WITH_OFFERS_S,
    plain: { completeS: plain.completeS, requests: plain.requests },
    oneSearchCold: summarizeTimings(results.oneCold),
    oneSearchLearned: summarizeTimings(results.oneLearned),
    fanOutCold: summarizeTimings(results.fanCold),
    fanOutLearned: summarizeTimings(results.fanLearned),
    throughput: await throughput(runs, quick),
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await runUpstreamBench();
  console.log(JSON.stringify(f, null, 2));
}
