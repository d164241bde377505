/**
 * Upstream benchmark (issue: http-adapter). Prints, from one run, against a fake upstream on a loopback
 * socket whose airlines answer with spread latencies (some in about a second, the slowest after 45 s), where
 * the all-airlines search shows its flights only once its slowest airline has answered:
 *  - time to first result and to complete, in simulated seconds: the fan-out (one single-airline search per
 *    airline, merged) against one all-airlines upstream search;
 *  - upstream requests per completed search: both, and a client polling at a fixed 10 s as public clients do;
 *  - throughput of the undici source against the same source on global fetch (requests/s, ratio).
 * The fan-out is measured with its default pacing (polls aimed at each airline's learned completion time)
 * and on the backoff alone, as it was. Time is scaled: one simulated second is SCALE_MS real milliseconds, so the bench takes seconds.
 */
import { hasResults, search, type SearchQuery, type SearchSnapshot, type SearchSource } from "../packages/core/src/index.js";
import { createFakeUpstream, createSimulator, driveSearch, liveBackend, serveOnNode } from "../packages/testing/src/index.js";
import { createFanOutSources, createFetchTransport, createUpstreamSource, type UpstreamSource } from "../packages/http-adapter/src/index.js";
import { fmt, isQuick, sideBySide, summarize, type Figure } from "./lib/measure.js";

/** Real milliseconds per simulated second. */
const SCALE_MS = 20;
/** Simulated seconds each airline takes to answer completely: a spread like a real service's. */
const LATENCY_S: Readonly<Record<string, number>> = { tap: 0.8, latam: 1.2, copa: 1.6, azul: 4, american: 12, gol: 25, iberia: 45 };
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
/** The adapter's polling in scaled time: 1 s first wait growing to 10 s, as configured for production. */
const polling = { initialDelayMs: 1 * SCALE_MS, maxDelayMs: 10 * SCALE_MS, maxDurationMs: 200 * SCALE_MS };

/** One progressive search: simulated seconds to the first offer and to completion, upstream requests. */
interface Timing {
  readonly firstS: number;
  readonly completeS: number;
  readonly requests: number;
}

/** Runs a search to its end; `onSnapshot` sees every snapshot. */
const runToEnd = (q: SearchQuery, sources: readonly SearchSource[], onSnapshot: (s: SearchSnapshot) => void = () => undefined): Promise<void> =>
  new Promise((resolve, reject) => {
    search(q, sources, { deadlineMs: 300 * SCALE_MS }).subscribe({ next: onSnapshot, error: reject, complete: resolve });
  });

const timeSearch = async (q: SearchQuery, sources: readonly SearchSource[], requests: () => number): Promise<Timing> => {
  const before = requests();
  const t0 = performance.now();
  let firstMs: number | undefined;
  await runToEnd(q, sources, (s) => {
    if (firstMs === undefined && (hasResults(s) || s.completed)) firstMs = performance.now() - t0;
  });
  const completeMs = performance.now() - t0;
  return { firstS: sim(firstMs ?? completeMs), completeS: sim(completeMs), requests: requests() - before };
};

/** Figures of one approach over several runs. */
export interface ApproachFigures {
  readonly firstS: Figure;
  readonly completeS: Figure;
  readonly requests: Figure;
}

/** What {@link runUpstreamBench} measures. */
export interface UpstreamFigures {
  readonly scaleMs: number;
  readonly runs: number;
  /** The fan-out, its polls aimed at each airline's learned completion time (the default). */
  readonly fanOut: ApproachFigures;
  /** The fan-out on the backoff alone, as it was. */
  readonly fanOutBackoff: ApproachFigures;
  readonly allAirlines: ApproachFigures;
  readonly fixedPoll: { readonly completeS: Figure; readonly requests: Figure };
  readonly throughput: { readonly requests: number; readonly undici: Figure; readonly fetch: Figure; readonly ratio: Figure };
}

const summarizeTimings = (ts: readonly Timing[]): ApproachFigures => ({
  firstS: summarize(ts.map((t) => t.firstS)),
  completeS: summarize(ts.map((t) => t.completeS)),
  requests: summarize(ts.map((t) => t.requests)),
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
  for (let n = 0; n < 4 * runs + 4; n++) simulator.offers(query(n));
  const upstream = createFakeUpstream({
    backend: liveBackend({ sources: simulator.sources, progressiveModeA: false, deadlineMs: 300 * SCALE_MS }),
    auth: { accounts: [account] },
  });
  const served = await serveOnNode(upstream.app.fetch);
  const baseUrl = `${served.origin}/api`;
  const requests = () => upstream.stats.searches;
  const fan = createFanOutSources({ baseUrl, credentials: account, polling });
  // The fan-out as it was: every airline polled on the backoff alone.
  const fanBackoff = createFanOutSources({ baseUrl, credentials: account, polling, pacing: "backoff" });
  const one = createUpstreamSource({ baseUrl, credentials: account, polling });
  const fixedPoll = async (q: SearchQuery): Promise<Timing> => {
    const before = requests();
    const t0 = performance.now();
    const body = { Origem: q.origin, Destino: q.destination, Ida: q.departureDate, Adultos: q.passengers.adults, Criancas: 0, Bebes: 0, Companhia: -1 };
    await driveSearch({ fetch: globalThis.fetch, baseUrl, ...account, request: body, pollMs: 10 * SCALE_MS, maxFailures: 3, maxRequests: 100 });
    return { firstS: Number.NaN, completeS: sim(performance.now() - t0), requests: requests() - before };
  };
  const fanRuns: Timing[] = [];
  const oneRuns: Timing[] = [];
  const fixed: Timing[] = [];
  const backoffRuns: Timing[] = [];
  // One untimed round first (JIT, connections, logins); then each run searches queries the upstream has
  // not seen, so every search starts cold.
  for (let i = -1; i < runs; i++) {
    const n = 4 * (i + 1);
    const timings = [
      await timeSearch(query(n), fan, requests),
      await timeSearch(query(n + 1), [one], requests),
      await fixedPoll(query(n + 2)),
      await timeSearch(query(n + 3), fanBackoff, requests),
    ] as const;
    if (i < 0) continue;
    fanRuns.push(timings[0]);
    oneRuns.push(timings[1]);
    fixed.push(timings[2]);
    backoffRuns.push(timings[3]);
  }
  await fan[0]?.close();
  await fanBackoff[0]?.close();
  await one.close();
  await served.close();
  upstream.close();
  const fixedFigures = summarizeTimings(fixed);
  return {
    scaleMs: SCALE_MS,
    runs,
    fanOut: summarizeTimings(fanRuns),
    fanOutBackoff: summarizeTimings(backoffRuns),
    allAirlines: summarizeTimings(oneRuns),
    fixedPoll: { completeS: fixedFigures.completeS, requests: fixedFigures.requests },
    throughput: await throughput(runs, quick),
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await runUpstreamBench();
  const s = (x: Figure) => fmt(x, "s", 1);
  console.log(`upstream bench: 1 simulated s = ${f.scaleMs} ms; airlines answer in ${Object.values(LATENCY_S).join(", ")} s; ${f.runs} runs each`);
  console.log(`time to first result  fan-out:      ${s(f.fanOut.firstS)}`);
  console.log(`                      all-airlines: ${s(f.allAirlines.firstS)}`);
  console.log(`time to complete      fan-out:      ${s(f.fanOut.completeS)}`);
  console.log(`                      all-airlines: ${s(f.allAirlines.completeS)}`);
  console.log(`                      fixed 10 s poll (all-airlines): ${s(f.fixedPoll.completeS)}`);
  console.log(`upstream requests per completed search`);
  console.log(`                      fan-out (${Object.keys(LATENCY_S).length} airlines): ${fmt(f.fanOut.requests, "req", 0)}`);
  console.log(`                      all-airlines, adapter backoff: ${fmt(f.allAirlines.requests, "req", 0)}`);
  console.log(`                      all-airlines, fixed 10 s poll: ${fmt(f.fixedPoll.requests, "req", 0)}`);
  console.log(`throughput (${f.throughput.requests} one-request searches, 16 at a time, loopback)`);
  console.log(`                      undici source: ${fmt(f.throughput.undici, "req/s", 0)}`);
  console.log(`                      fetch source:  ${fmt(f.throughput.fetch, "req/s", 0)}`);
  console.log(`                      ratio undici/fetch: ${fmt(f.throughput.ratio, "x")}`);
}
