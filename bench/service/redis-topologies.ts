/**
 * One Redis against a Redis Cluster, side by side in one run: the same load on two `voar-server` instances
 * (separate processes, the fake upstream in a third), first on a single redis-server (the anchor), then on a
 * cluster of 3 primaries with a replica each. Each search is polled by Token every 500 ms until `Completed`, every
 * request sent to the next instance in turn, its start spread over one poll interval (as the scale rows).
 */
import { summarize, type Figure } from "../lib/measure.js";
import { BUSY_ROUTES, distinctQueries, LARGE_ROUTES, percentile } from "./search-load.js";
import { startRedisCluster } from "./redis-cluster.js";
import { startServiceProcess, startUpstream, stopChild, type ServiceProcess } from "./service-process.js";
import { balancedRound, startRedis, type TwoInstanceRound } from "./two-instances.js";

/** What two instances did on one topology, over its rounds. */
export interface TopologyRun {
  readonly searches: number;
  readonly rounds: number;
  readonly pollP50: Figure;
  readonly pollP99: Figure;
  /** Both instances' CPU time over a round, per search. */
  readonly cpuPerSearchMs: Figure;
  readonly completed: Figure;
  /** Requests that failed or answered other than 200 or 429, over every round, and by kind. */
  readonly errors: number;
  readonly errorKinds: Readonly<Record<string, number>>;
}

/** The load on one Redis and on a cluster; undefined without `redis-server` on PATH. */
export interface TopologyFigures {
  readonly single: TopologyRun;
  readonly cluster: TopologyRun;
  readonly pollMs: number;
  readonly latencyMs: number;
}

const ROUTES = [...BUSY_ROUTES, ...LARGE_ROUTES];
const cpuOf = async (instances: readonly ServiceProcess[]) => (await Promise.all(instances.map((i) => i.memory(false)))).reduce((n, m) => n + m.cpuMs, 0);

export const measureTopologies = async (o: { readonly searches: number; readonly rounds: number }): Promise<TopologyFigures | undefined> => {
  const s = { pollMs: 500, latencyMs: 400, ttlMs: 15_000 };
  const upstream = await startUpstream(s.latencyMs);
  let day = 2;
  const next = (n: number) => {
    const queries = distinctQueries(n, day, { routes: ROUTES });
    day += Math.ceil(n / ROUTES.length);
    return queries;
  };
  /** Two instances on a store, a warm-up round, then the rounds measured. */
  const on = async (store: Record<string, string>): Promise<TopologyRun> => {
    const instances = await Promise.all([0, 1].map(() => startServiceProcess({ ttlMs: s.ttlMs, latencyMs: s.latencyMs, upstream, maxConnections: 4 * o.searches, env: store })));
    try {
      const origins = instances.map((i) => i.appUrl);
      await balancedRound(origins, next(Math.min(200, o.searches)), s.pollMs, s.pollMs);
      const rounds: TwoInstanceRound[] = [];
      const cpu: number[] = [];
      for (let r = 0; r < o.rounds; r++) {
        const before = await cpuOf(instances);
        rounds.push(await balancedRound(origins, next(o.searches), s.pollMs, s.pollMs));
        cpu.push((await cpuOf(instances)) - before);
      }
      return {
        searches: o.searches,
        rounds: o.rounds,
        pollP50: summarize(rounds.map((r) => percentile(r.pollLatencies, 50))),
        pollP99: summarize(rounds.map((r) => percentile(r.pollLatencies, 99))),
        cpuPerSearchMs: summarize(cpu.map((ms) => ms / o.searches)),
        completed: summarize(rounds.map((r) => r.completed)),
        errors: rounds.reduce((n, r) => n + r.unavailable + r.otherErrors, 0),
        errorKinds: rounds.reduce<Record<string, number>>((all, r) => {
          for (const [kind, n] of Object.entries(r.errorKinds)) all[kind] = (all[kind] ?? 0) + n;
          return all;
        }, {}),
      };
    } finally {
      await Promise.all(instances.map((i) => i.stop()));
    }
  };
  try {
    const redis = await startRedis();
    if (!redis) return undefined;
    let single: TopologyRun;
    try {
      single = await on({ VOAR_STORE_REDIS_URL: redis.url });
    } finally {
      await stopChild(redis.child);
    }
    const cluster = await startRedisCluster();
    if (!cluster) return undefined;
    try {
      return { single, cluster: await on({ VOAR_STORE_REDIS_CLUSTER: cluster.nodes }), ...s };
    } finally {
      await cluster.stop();
    }
  } finally {
    await stopChild(upstream.child);
  }
};
