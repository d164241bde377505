import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { summarize, type Figure } from "../lib/measure.js";

/** The part of a load generator's result the bench reads (autocannon's shape; wrk's output is read into it). */
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

/**
 * The load generator: wrk when it is installed (C, one thread: it leaves the server a core of its own and
 * does not limit it), else autocannon. Autocannon runs in Node and, on 2 cores, tops out at about 25k
 * req/s with answers of 18 KB: a bare node:http server answers wrk about 57k req/s with the same bytes, so
 * under autocannon the anchor measures the client and the ratios read too close to 1.
 */
export const LOAD_TOOL: "wrk" | "autocannon" = spawnSync("wrk", ["--version"]).error ? "autocannon" : "wrk";

/** One HTTP request, as the load generator sends it. */
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
  /**
   * When the servers' CPU time could be read: the CPU time each spent per request (µs), and the anchor's over the
   * subject's per pair of runs (the throughput each would give on a core of its own: below 1, the subject costs more).
   */
  readonly cpu?: { readonly anchorUs: Figure; readonly subjectUs: Figure; readonly ratio: Figure } | undefined;
}

/** Reads a server process's CPU time (user and system) since it started, in ms. */
export type CpuReader = () => Promise<number>;

/** Options of {@link compareServers}. */
export interface CompareOptions {
  readonly runs: number;
  /** Seconds per run. */
  readonly durationS: number;
  /** Connections kept open by the load generator. */
  readonly connections: number;
}

const run = promisify(execFile);

/** A wrk duration as ms (`417.00us`, `1.23ms`, `2.00s`). */
const ms = (text: string): number => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) throw new Error(`wrk printed a latency it cannot read: ${text}`);
  // Rounded to the µs wrk prints (0.569, not 0.5690000000000001).
  return Math.round(Number(m[1]) * { us: 1, ms: 1_000, s: 1_000_000, m: 60_000_000 }[m[2] as "us" | "ms" | "s" | "m"]) / 1_000;
};

/** wrk's summary (`--latency`) in the shape of autocannon's result. */
const readWrk = (out: string): CannonResult => {
  const number = (re: RegExp) => Number(re.exec(out)?.[1] ?? Number.NaN);
  const rps = number(/Requests\/sec:\s+([\d.]+)/);
  const total = number(/(\d+) requests in/);
  const p50 = /\n\s+50%\s+(\S+)/.exec(out)?.[1];
  const p99 = /\n\s+99%\s+(\S+)/.exec(out)?.[1];
  if (!Number.isFinite(rps) || !Number.isFinite(total) || !p50 || !p99) throw new Error(`wrk's output could not be read:\n${out}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const [connect, read, write, timeout] = socket ? socket.slice(1).map(Number) : [0, 0, 0, 0];
  return {
    requests: { average: rps, total },
    latency: { p50: ms(p50), p99: ms(p99) },
    errors: connect! + read! + write!,
    timeouts: timeout!,
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/) || 0,
  };
};

/** The request as a wrk script (method, headers, body). */
const wrkScript = (shot: Shot): string =>
  [
    `wrk.method = ${JSON.stringify(shot.method)}`,
    ...(shot.body === undefined ? [] : [`wrk.body = ${JSON.stringify(shot.body)}`]),
    ...Object.entries(shot.headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
  ].join("\n");

const shootWrk = async (shot: Shot, o: CompareOptions): Promise<CannonResult> => {
  const dir = mkdtempSync(path.join(tmpdir(), "voar-wrk-"));
  try {
    const script = path.join(dir, "request.lua");
    writeFileSync(script, wrkScript(shot));
    const args = ["-t1", `-c${o.connections}`, `-d${o.durationS}s`, "--latency", "-s", script, shot.url];
    const { stdout } = await run("wrk", args, { timeout: (o.durationS + 30) * 1_000 });
    return readWrk(stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const shoot = (shot: Shot, o: CompareOptions): Promise<CannonResult> =>
  LOAD_TOOL === "wrk"
    ? shootWrk(shot, o)
    : autocannon({ url: shot.url, method: shot.method, headers: shot.headers, body: shot.body, connections: o.connections, duration: o.durationS, pipelining: 1 });

const served = (results: readonly CannonResult[]): Served => ({
  rps: summarize(results.map((r) => r.requests.average)),
  p50: summarize(results.map((r) => r.latency.p50)),
  p99: summarize(results.map((r) => r.latency.p99)),
  errors: results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
});

/**
 * Loads the anchor and the subject alternately with the load generator ({@link LOAD_TOOL}), `runs` times each after one short warm-up
 * of each, so that the drift of a shared machine hits both alike (see `sideBySide` in measure.ts).
 */
export const compareServers = async (anchor: Shot, subject: Shot, o: CompareOptions, cpu?: { readonly anchor: CpuReader; readonly subject: CpuReader }): Promise<Comparison> => {
  const warm = { ...o, durationS: 1 };
  await shoot(anchor, warm);
  await shoot(subject, warm);
  const a: CannonResult[] = [];
  const b: CannonResult[] = [];
  const aUs: number[] = [];
  const bUs: number[] = [];
  /** A run, and the CPU time the server spent on it per request (µs), when it can be read. */
  const timed = async (shot: Shot, read: CpuReader | undefined, into: number[]) => {
    const before = read ? await read() : 0;
    const result = await shoot(shot, o);
    if (read) into.push((((await read()) - before) * 1_000) / Math.max(1, result.requests.total));
    return result;
  };
  for (let i = 0; i < o.runs; i++) {
    a.push(await timed(anchor, cpu?.anchor, aUs));
    b.push(await timed(subject, cpu?.subject, bUs));
  }
  return {
    anchor: served(a),
    subject: served(b),
    ratio: summarize(b.map((r, i) => r.requests.average / a[i]!.requests.average)),
    cpu: cpu ? { anchorUs: summarize(aUs), subjectUs: summarize(bUs), ratio: summarize(aUs.map((us, i) => us / bUs[i]!)) } : undefined,
  };
};
