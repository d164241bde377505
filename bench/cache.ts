/**
 * Fewer upstream calls, against the @voar/testing fake upstream on a loopback socket whose airlines answer as a
 * real deployment's do (as in bench/upstream.ts), its all-airlines search progressive:
 *  - upstream requests (searches and logins) per 1,000 searches of a Zipf mix (s = 1.1 over 200 routes, and over
 *    14 dates, the nearest most asked; 20 tenants alike; one search starting every simulated second): the plain
 *    clients the service replaces (each logs in, asks, polls every 10 s) against the service as configured by
 *    default (answer cache, one all-airlines upstream search per query, learned pacing), same searches, at once;
 *    and the windowed floor of the mix, computed from it;
 *  - the first result at an SSE client of a route another tenant searched within the freshness window,
 *    against the first result of a route nobody searched (the fastest airline's latency, no cache).
 * Time is scaled: one simulated second is SCALE_MS real milliseconds (`BENCH_ZIPF_SCALE_MS`, default 50; the
 * cache's windows and the engine's timeout too).
 */
import { serve, type ServerType } from "@hono/node-server";
import { createParser } from "eventsource-parser";
import type { AddressInfo } from "node:net";
import { createAnswerCache, createApp, type CacheLookup, createMemoryAnswerStore, defineConfig, silentLogger, systemClock } from "../packages/hono-edge/src/index.js";
import { createFakeUpstream, createSimulator, driveSearch, liveBackend, serveOnNode } from "../packages/testing/src/index.js";
import { createFanOutSources } from "../packages/http-adapter/src/index.js";
import { isQuick, summarize, type Figure } from "./lib/measure.js";

/** Real milliseconds per simulated second in the Zipf run. */
const SCALE_MS = Number(process.env["BENCH_ZIPF_SCALE_MS"] ?? 50);
/** Simulated seconds each airline takes to answer completely. */
const LATENCY_S: Readonly<Record<string, number>> = { tap: 0.8, latam: 1.2, copa: 1.6, azul: 4, american: 12, gol: 25, iberia: 45 };
const account = { username: "bench", password: "bench-secret" };
const AIRPORTS = ["GRU", "CGH", "GIG", "SDU", "BSB", "CNF", "SSA", "REC", "FOR", "POA", "CWB", "BEL", "MAO", "FLN", "VCP", "GYN", "NAT", "MCZ", "VIX", "CGB"];
const TENANTS = 20;
const AIRLINES = [1, 2, 3, 11, 13, 22, 26];
/** The simulator's source id of each airline (its latency's key). */
const SLUGS: Readonly<Record<number, string>> = { 1: "latam", 2: "gol", 3: "azul", 11: "tap", 13: "copa", 22: "american", 26: "iberia" };
const DATES = 14;
const ROUTES = 200;
/** Freshness window and stale window of the cache, simulated seconds. */
const FRESH_S = 300;
const STALE_S = 300;
/** How long the fake upstream keeps a completed search of an account (simulated seconds), as real upstreams do (`ByCache`). */
const UPSTREAM_TTL_S = 600;
/** The engine's inactivity timeout of a source, simulated seconds (20 s, as in production: scaled like the rest). */
const SOURCE_TIMEOUT_S = 20;

/** Mulberry32: the same searches for both variants. */
const rng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** 200 ordered airport pairs in a fixed shuffled order: rank 1 is the most asked. */
const routes = (() => {
  const pairs = AIRPORTS.flatMap((o) => AIRPORTS.filter((d) => d !== o).map((d) => [o, d] as const));
  const next = rng(7);
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
  }
  return pairs.slice(0, ROUTES);
})();

/** Rank sampler of a Zipf law with exponent `s` over `n` ranks. */
const zipf = (n: number, s: number) => {
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 1; k <= n; k++) cumulative.push((sum += 1 / k ** s));
  return (u: number) => {
    const x = u * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
};

const dateIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const keyOf = (tenant: number) => `bench-tenant-${String(tenant).padStart(2, "0")}-key-0123456789`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Pick {
  readonly tenant: number;
  readonly body: Record<string, unknown>;
}

const picks = (n: number): Pick[] => {
  const next = rng(42);
  const route = zipf(ROUTES, 1.1);
  const date = zipf(DATES, 1.1);
  return Array.from({ length: n }, () => {
    const [origin, destination] = routes[route(next())]!;
    const tenant = Math.floor(next() * TENANTS);
    const day = 30 + date(next());
    return { tenant, body: { Origem: origin, Destino: destination, Ida: dateIn(day), Adultos: 1, Companhia: -1 } };
  });
};

/** A query's key in the mix: route and date. */
const queryKeyOf = (body: Readonly<Record<string, unknown>>) => `${String(body["Origem"])}|${String(body["Destino"])}|${String(body["Ida"])}`;

/**
 * A fake upstream over the simulator at `scaleMs` per simulated second, its all-airlines search progressive (as
 * the real one's is), and which airlines have offers for each query of the mix.
 */
const upstreamAt = async (scaleMs: number, mix: readonly Pick[] = []) => {
  const latencyMs = Object.fromEntries(Object.entries(LATENCY_S).map(([id, s]) => [id, s * scaleMs]));
  const simulator = createSimulator({ latencyMs, batches: 1 });
  // The simulator computes a route's flights once per query: done before, so that only the latencies, the
  // HTTP exchanges, the polling and the service are measured, not the simulated airlines' work.
  const offering = new Map<string, number[]>();
  for (const key of new Set(mix.map((p) => queryKeyOf(p.body)))) {
    const [origin, destination, departureDate] = key.split("|") as [string, string, string];
    const query = { origin, destination, departureDate, passengers: { adults: 1, children: 0, infants: 0 } };
    offering.set(key, AIRLINES.filter((airlineId) => simulator.offers({ ...query, mode: { kind: "single-airline", airlineId } }).length > 0));
    simulator.offers({ ...query, mode: { kind: "all-airlines" } });
  }
  const upstream = createFakeUpstream({
    backend: liveBackend({ sources: simulator.sources, deadlineMs: 1_000 * scaleMs, ttlMs: UPSTREAM_TTL_S * scaleMs, policy: { timeoutMs: 1_000 * scaleMs } }),
    auth: { accounts: [account] },
  });
  const served = await serveOnNode(upstream.app.fetch);
  return { upstream, offering, baseUrl: `${served.origin}/api`, close: async () => (await served.close(), upstream.close()) };
};

/** The service over that upstream, as configured by default: the answer cache, one all-airlines upstream search per query, learned pacing. */
const serviceOver = (baseUrl: string, scaleMs: number, lookups: Record<CacheLookup, number> = { hit: 0, stale: 0, miss: 0 }) => {
  // Caps far above the airlines' latencies: on a busy machine the fake upstream lags, and a search that
  // gives up counts fewer requests than one that completes. The engine's timeout and the rests' beats scaled too.
  const polling = { initialDelayMs: 1 * scaleMs, maxDelayMs: 10 * scaleMs, maxDurationMs: 1_000 * scaleMs, maxPolls: 200, heartbeatMs: 5 * scaleMs };
  const sources = createFanOutSources({ baseUrl, credentials: account, polling, airlines: AIRLINES });
  const cache = createAnswerCache({ store: createMemoryAnswerStore({ maxEntries: 10_000, clock: systemClock }), clock: systemClock, freshMs: FRESH_S * scaleMs, staleMs: STALE_S * scaleMs, account: "bench", onCacheLookup: (o) => void lookups[o]++ });
  const config = defineConfig({
    apiKeys: Array.from({ length: TENANTS }, (_, i) => ({ name: `agency-${i}`, key: keyOf(i) })),
    limits: { rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 }, maxSessions: 100_000, maxSessionsPerTenant: 100_000 },
    search: { deadlineMs: Math.min(600_000, 1_000 * scaleMs), ttlMs: 600 * scaleMs, pollHintMs: 2 * scaleMs, sourceTimeoutMs: SOURCE_TIMEOUT_S * scaleMs },
  });
  const app = createApp({ config, sources: cache.wrap(sources), logger: silentLogger });
  return { app, close: async () => (cache.close(), await sources[0]?.close()) };
};

type App = ReturnType<typeof createApp>;

const consultar = async (app: App, tenant: number, body: unknown) => {
  const res = await app.request("/api/ConsultaAereo/Consultar", { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${keyOf(tenant)}` }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { Token?: string; Completed?: boolean } };
};

/** One client: the query, then polls by Token every 2 simulated seconds until complete. */
const client = async (app: App, p: Pick): Promise<boolean> => {
  let answer = await consultar(app, p.tenant, p.body);
  for (let i = 0; i < 1_000 && answer.status === 200 && !answer.body.Completed; i++) {
    await sleep(2 * SCALE_MS);
    answer = await consultar(app, p.tenant, { Token: answer.body.Token });
  }
  return answer.status === 200 && answer.body.Completed === true;
};

type Upstream = Awaited<ReturnType<typeof upstreamAt>>;

/** Upstream requests (searches and logins) per 1,000 searches of the mix through the service, one search starting every simulated second. */
const voarRun = async (mix: readonly Pick[], up: Upstream) => {
  const lookups: Record<CacheLookup, number> = { hit: 0, stale: 0, miss: 0 };
  const service = serviceOver(up.baseUrl, SCALE_MS, lookups);
  const done = await Promise.all(mix.map(async (p, i) => (await sleep(i * SCALE_MS), client(service.app, p))));
  const requests = up.upstream.stats.searches + up.upstream.stats.logins;
  // Let runs nobody follows any more (refreshes) end before closing.
  await sleep(50 * SCALE_MS);
  await service.close();
  await up.close();
  return { perThousand: (requests * 1000) / mix.length, failed: done.filter((ok) => !ok).length, lookups };
};

/** The same searches by the plain clients the service replaces: each logs in, sends its query, polls its `LeaseId` every 10 s. */
const plainRun = async (mix: readonly Pick[], up: Upstream) => {
  const done = await Promise.all(
    mix.map(async (p, i) => {
      await sleep(i * SCALE_MS);
      const request = { ...p.body, Criancas: 0, Bebes: 0 };
      // A login the loopback dropped (a machine too busy) is a search that did not complete, not a crash.
      const result = await driveSearch({ fetch: globalThis.fetch, baseUrl: up.baseUrl, ...account, request, pollMs: 10 * SCALE_MS, maxFailures: 3, maxRequests: 200 }).catch(() => "gave-up");
      return result === "completed";
    }),
  );
  const requests = up.upstream.stats.searches + up.upstream.stats.logins;
  await up.close();
  return { perThousand: (requests * 1000) / mix.length, failed: done.filter((ok) => !ok).length };
};

/** Airlines answering within this of each other are fetched by one poll (the adapter's grouping, `GROUP_STEPS` of its first polling step, 1 simulated second here). */
const GROUP_S = 0.75;

/**
 * The least one all-airlines upstream search of a query can cost while it shows each airline's offers when that
 * airline has answered and completes: its start, one poll per group of airlines with offers answering within
 * {@link GROUP_S} of the first of the group, and one poll when the slowest airline has answered (unless a group's was it).
 */
const coldSearchFloor = (withOffers: readonly number[]): number => {
  const latencyOf = (airlineId: number) => LATENCY_S[SLUGS[airlineId]!]!;
  const times = withOffers.map(latencyOf).sort((a, b) => a - b);
  let polls = 0;
  let last = -Infinity;
  for (const t of times) if (t > last + 1e-9) (polls++, (last = t + GROUP_S));
  const slowest = Math.max(...AIRLINES.map(latencyOf));
  const fetchedLast = times.length > 0 && times.at(-1)! === slowest;
  return 1 + polls + (fetchedLast ? 0 : 1);
};

/**
 * The least any service with this answer cache's windows could spend on the mix, searching each query as it comes
 * (one search starting every simulated second): a query within `FRESH_S` of the cache's last upstream search of it
 * costs nothing; after that (a stale refresh, or a miss) one upstream search: one request while the upstream still
 * keeps its completed search (`UPSTREAM_TTL_S` from completion, the slowest airline's time after its start), else a
 * cold search at {@link coldSearchFloor}. Plus one login. Per 1,000 searches.
 */
const windowedFloor = (mix: readonly Pick[], offering: ReadonlyMap<string, readonly number[]>): number => {
  const slowest = Math.max(...Object.values(LATENCY_S));
  const cache = new Map<string, { readonly searchedAt: number; readonly upstreamDoneAt: number }>();
  let requests = 1;
  mix.forEach((p, t) => {
    const key = queryKeyOf(p.body);
    const known = cache.get(key);
    if (known && t - known.searchedAt < FRESH_S) return;
    if (known && t < known.upstreamDoneAt + UPSTREAM_TTL_S) {
      requests += 1;
      cache.set(key, { searchedAt: t, upstreamDoneAt: known.upstreamDoneAt });
    } else {
      requests += coldSearchFloor(offering.get(key) ?? []);
      cache.set(key, { searchedAt: t, upstreamDoneAt: t + slowest });
    }
  });
  return (requests * 1000) / mix.length;
};

/** Milliseconds per simulated second in the SSE run: slow enough that a socket's cost is small beside it. */
const SSE_SCALE_MS = 250;

/** Reads an SSE search until `stop` says so; the time of its first envelope with results. */
const stream = async (url: string, tenant: number, body: unknown, stop: (env: { TotalItens: number; Progresso?: { FontesConcluidas?: number } }) => boolean) => {
  const controller = new AbortController();
  const t0 = performance.now();
  let first = Number.NaN;
  let done = false;
  const res = await fetch(`${url}/api/ConsultaAereo/Stream`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${keyOf(tenant)}` },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const parser = createParser({
    onEvent: (e) => {
      const env = JSON.parse(e.data) as { TotalItens: number; Completed: boolean; Progresso?: { FontesConcluidas?: number } };
      if (Number.isNaN(first) && env.TotalItens > 0) first = performance.now() - t0;
      if (env.Completed || stop(env)) done = true;
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body!) {
      parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      if (done) break;
    }
  } finally {
    controller.abort();
  }
  return first;
};

/**
 * Per run: tenant 0 streams a route nobody asked (its first result comes from the fastest airline: the
 * anchor) until three airlines have answered; then tenant 1 streams the same route, answered from the cache.
 */
const sseRun = async (runs: number) => {
  const up = await upstreamAt(SSE_SCALE_MS);
  const service = serviceOver(up.baseUrl, SSE_SCALE_MS);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: service.app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cold: number[] = [];
  const cached: number[] = [];
  for (let i = -1; i < runs; i++) {
    const body = { Origem: "CNF", Destino: "SDU", Ida: dateIn(100 + i + 1), Adultos: 1, Companhia: -1 };
    const a = await stream(url, 0, body, (env) => (env.Progresso?.FontesConcluidas ?? 0) >= 3);
    const b = await stream(url, 1, body, (env) => env.TotalItens > 0);
    if (i < 0) continue; // warm-up: code compiled, connections open, the airlines' pace learned
    cold.push(a);
    cached.push(b);
  }
  await new Promise<void>((r) => server.close(() => r()));
  await service.close();
  await up.close();
  return { cold: summarize(cold), cached: summarize(cached) };
};

/** What {@link runCacheBench} measures. */
export interface CacheFigures {
  readonly searches: number;
  /** Distinct queries (route and date) of the mix, whoever asks them. */
  readonly distinctQueries: number;
  /** Airlines each search asks. */
  readonly airlines: number;
  /** Upstream requests (searches and logins) per 1,000 searches: the plain clients, the service, the windowed floor. */
  readonly plain: { readonly perThousand: number; readonly failed: number };
  readonly voar: { readonly perThousand: number; readonly failed: number; readonly lookups: Readonly<Record<CacheLookup, number>> };
  readonly floor: number;
  readonly sse: { readonly cold: Figure; readonly cached: Figure; readonly scaleMs: number; readonly fastestS: number };
}

/** Runs the bench (quick: 150 searches and 3 SSE runs; full: 1,000 and 7). */
export const runCacheBench = async (quick = isQuick()): Promise<CacheFigures> => {
  const mix = picks(quick ? 150 : 1_000);
  // Both at once, each with its own upstream, so that both meet the same load of the machine; the upstreams are
  // made first (the simulator computes the mix's flights then, which would hold up a run that had started).
  const plainUp = await upstreamAt(SCALE_MS, mix);
  const voarUp = await upstreamAt(SCALE_MS, mix);
  const [plain, voar] = await Promise.all([plainRun(mix, plainUp), voarRun(mix, voarUp)]);
  const sse = await sseRun(quick ? 3 : 7);
  const distinctQueries = new Set(mix.map((p) => queryKeyOf(p.body))).size;
  return {
    searches: mix.length,
    distinctQueries,
    airlines: AIRLINES.length,
    plain,
    voar: { perThousand: voar.perThousand, failed: voar.failed, lookups: voar.lookups },
    floor: windowedFloor(mix, voarUp.offering),
    sse: { ...sse, scaleMs: SSE_SCALE_MS, fastestS: Math.min(...Object.values(LATENCY_S)) },
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await runCacheBench();
  console.log(JSON.stringify(f, null, 2));
}
