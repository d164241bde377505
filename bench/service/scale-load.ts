/**
 * How the cost grows with the work: the concurrent-search load at 200 searches (the anchor) and at 1,000, on
 * the same deployment, side by side: two `voar-server` instances (separate processes) sharing the bench's own
 * Redis (store and rate limits), both searching one fake upstream in a third process, every request sent to the
 * next instance in turn as a load balancer without stickiness would. Each search is polled by Token every 500 ms
 * until `Completed`, its start spread over one poll interval as in the 200-search load row.
 */
import { summarize, type Figure } from "../lib/measure.js";
import { BUSY_ROUTES, distinctQueries, LARGE_ROUTES, percentile } from "./search-load.js";
import { startServiceProcess, startUpstream, stopChild, type ServiceProcess } from "./service-process.js";
import { balancedRound, startRedis, type TwoInstanceRound } from "./two-instances.js";

/** What the two instances did at one size of the load, over its rounds. */
export interface ScaleRun {
  /** Concurrent searches per round. */
  readonly searches: number;
  readonly rounds: number;
  /** Latency of the polls by Token, every poll of a round together. */
  readonly pollP50: Figure;
  readonly pollP99: Figure;
  /** Both instances' CPU time over a round, per search of the round. */
  readonly cpuPerSearchMs: Figure;
  /** Both instances' CPU time over the round's wall time (2 = both cores busy all the time). */
  readonly busy: Figure;
  /** Searches whose client reached `Completed`, per round. */
  readonly completed: Figure;
  /** 429s of admission control (waited out by `Retry-After`), per round. */
  readonly shed: Figure;
  /** Requests that failed or answered other than 200 or 429, over every round, and by kind. */
  readonly errors: number;
  readonly errorKinds: Readonly<Record<string, number>>;
  readonly polls: number;
  /** The highest resident set of both instances together while the rounds ran (sampled every 250 ms). */
  readonly peakRss: number;
}

/** The load at both sizes on one deployment, and its memory before and after. */
export interface ScaleFigures {
  readonly anchor: ScaleRun;
  readonly subject: ScaleRun;
  readonly pollMs: number;
  readonly latencyMs: number;
  readonly ttlMs: number;
  /** Both instances together, after a full GC: after the warm-up, and after every session expired. */
  readonly memory: {
    readonly beforeRss: number;
    readonly afterRss: number;
    readonly beforeHeap: number;
    readonly afterHeap: number;
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Twenty routes, so that 1,000 distinct queries take 50 days (each round its own days: nothing is found twice). */
const ROUTES = [...BUSY_ROUTES, ...LARGE_ROUTES];

const both = async (instances: readonly ServiceProcess[], gc: boolean) => {
  const readings = await Promise.all(instances.map((i) => i.memory(gc)));
  return readings.reduce((a, m) => ({ rss: a.rss + m.rss, heap: a.heap + m.heapUsed, cpuMs: a.cpuMs + m.cpuMs }), { rss: 0, heap: 0, cpuMs: 0 });
};

/**
 * The load at `anchor` then at `subject` concurrent searches (`rounds` each, after a warm-up round of `anchor`),
 * on one deployment of two instances; undefined when no `redis-server` is on PATH.
 */
export const measureScale = async (o: { readonly anchor: number; readonly subject: number; readonly rounds: number }): Promise<ScaleFigures | undefined> => {
  const redis = await startRedis();
  if (!redis) return undefined;
  // A TTL longer than the 200-search row's 5 s: a saturated instance may answer a poll seconds late, and a search
  // that completed and expired meanwhile would read as a lost search (404).
  const s = { pollMs: 500, latencyMs: 400, ttlMs: 15_000 };
  const upstream = await startUpstream(s.latencyMs);
  const maxConnections = 4 * o.subject;
  const instances = await Promise.all(
    [0, 1].map(() => startServiceProcess({ ttlMs: s.ttlMs, latencyMs: s.latencyMs, redisUrl: redis.url, upstream, maxConnections })),
  );
  const origins = instances.map((i) => i.appUrl);
  let day = 2;
  /** The next `n` distinct queries, on days no round before asked. */
  const next = (n: number) => {
    const queries = distinctQueries(n, day, { routes: ROUTES });
    day += Math.ceil(n / ROUTES.length);
    return queries;
  };
  const measure = async (searches: number): Promise<ScaleRun> => {
    const rounds: TwoInstanceRound[] = [];
    const cpuMs: number[] = [];
    let peakRss = 0;
    const sampler = setInterval(() => void both(instances, false).then((m) => (peakRss = Math.max(peakRss, m.rss))), 250);
    try {
      for (let r = 0; r < o.rounds; r++) {
        const cpu0 = (await both(instances, false)).cpuMs;
        rounds.push(await balancedRound(origins, next(searches), s.pollMs, s.pollMs));
        cpuMs.push((await both(instances, false)).cpuMs - cpu0);
      }
    } finally {
      clearInterval(sampler);
    }
    return {
      searches,
      rounds: o.rounds,
      pollP50: summarize(rounds.map((r) => percentile(r.pollLatencies, 50))),
      pollP99: summarize(rounds.map((r) => percentile(r.pollLatencies, 99))),
      cpuPerSearchMs: summarize(cpuMs.map((ms) => ms / searches)),
      busy: summarize(cpuMs.map((ms, i) => ms / rounds[i]!.wallMs)),
      completed: summarize(rounds.map((r) => r.completed)),
      shed: summarize(rounds.map((r) => r.shed)),
      errors: rounds.reduce((n, r) => n + r.unavailable + r.otherErrors, 0),
      errorKinds: rounds.reduce<Record<string, number>>((all, r) => {
        for (const [kind, n] of Object.entries(r.errorKinds)) all[kind] = (all[kind] ?? 0) + n;
        return all;
      }, {}),
      polls: rounds.reduce((n, r) => n + r.pollLatencies.length, 0),
      peakRss,
    };
  };
  try {
    // Warm-up: code compiled, heaps, sockets and pools grown; then its searches expire.
    await balancedRound(origins, next(o.anchor), s.pollMs, s.pollMs);
    await sleep(s.ttlMs + 500);
    await balancedRound(origins, next(2), s.pollMs, 0); // a new search on each instance evicts the expired ones
    const before = await both(instances, true);
    const anchor = await measure(o.anchor);
    const subject = await measure(o.subject);
    await sleep(s.ttlMs + 500);
    await balancedRound(origins, next(2), s.pollMs, 0);
    const after = await both(instances, true);
    return { anchor, subject, ...s, memory: { beforeRss: before.rss, afterRss: after.rss, beforeHeap: before.heap, afterHeap: after.heap } };
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await stopChild(upstream.child);
    await stopChild(redis.child);
  }
};
