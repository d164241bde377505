import { createRequire } from "node:module";
import { summarize, type Figure } from "../lib/measure.js";

/** The part of autocannon's result the bench reads. */
interface CannonResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;

// autocannon is a dev dependency of @voar/hono-edge (the package this bench measures), resolved from there.
const autocannon = createRequire(new URL("../../packages/hono-edge/package.json", import.meta.url))("autocannon") as Cannon;

/** One HTTP request, as autocannon sends it. */
export interface Shot {
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
}

/** Throughput and latency of one server over several runs. */
export interface Served {
  readonly rps: Figure;
  readonly p50: Figure;
  readonly p99: Figure;
  /** Errors, timeouts and non-2xx answers over every run: must be 0. */
  readonly errors: number;
}

/** Two servers measured side by side, and the subject's throughput as a fraction of the anchor's. */
export interface Comparison {
  readonly anchor: Served;
  readonly subject: Served;
  /** Subject req/s over anchor req/s, per pair of runs. */
  readonly ratio: Figure;
}

/** Options of {@link compareServers}. */
export interface CompareOptions {
  readonly runs: number;
  /** Seconds per run. */
  readonly durationS: number;
  /** Connections kept open by the load generator. */
  readonly connections: number;
}

const shoot = (shot: Shot, o: CompareOptions) =>
  autocannon({ url: shot.url, method: shot.method, headers: shot.headers, body: shot.body, connections: o.connections, duration: o.durationS, pipelining: 1 });

const served = (results: readonly CannonResult[]): Served => ({
  rps: summarize(results.map((r) => r.requests.average)),
  p50: summarize(results.map((r) => r.latency.p50)),
  p99: summarize(results.map((r) => r.latency.p99)),
  errors: results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
});

/**
 * Loads the anchor and the subject alternately with autocannon, `runs` times each after one short warm-up
 * of each, so that the drift of a shared machine hits both alike (see `sideBySide` in measure.ts).
 */
export const compareServers = async (anchor: Shot, subject: Shot, o: CompareOptions): Promise<Comparison> => {
  const warm = { ...o, durationS: 1 };
  await shoot(anchor, warm);
  await shoot(subject, warm);
  const a: CannonResult[] = [];
  const b: CannonResult[] = [];
  for (let i = 0; i < o.runs; i++) {
    a.push(await shoot(anchor, o));
    b.push(await shoot(subject, o));
  }
  return { anchor: served(a), subject: served(b), ratio: summarize(b.map((r, i) => r.requests.average / a[i]!.requests.average)) };
};
