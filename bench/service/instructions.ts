/**
 * What the metrics cost a poll, counted in instructions rather than time: `voar-server` processes run under
 * valgrind's callgrind, which counts the instructions the process executes (every thread's, JIT-compiled code
 * included) whatever else the machine is doing. Throughput on a shared two-core machine moves by about a tenth
 * between two processes of the same build; instructions counted moved by under 1% between processes of the same
 * variant (2026-11-27), with V8 working on one thread (`--single-threaded`: its compiler and garbage collector do the
 * same work on the main thread instead of helper threads whose timing varies).
 *
 * Per process: started with instrumentation off (valgrind's core only), a completed search, the poll of its page 1
 * of 10 by Token sent `warm` times (code compiled); then instrumentation on and `requests` polls one after another,
 * counted. One at a time, so that each poll is served alone: the counts would otherwise depend on how many requests
 * one turn of the event loop happens to read. Work done by time (timers, Node's event-loop delay histogram) during the
 * window is in the count; valgrind makes the window some fifty times longer than the polls would take, so such work
 * weighs more per request here than at full speed, in both variants. Idle windows were tried and left out: after a
 * few idle seconds V8's memory reducer collects and may drop compiled code, and both the idle count and the polls after
 * it moved by half.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { distinctQueries, searchRound, type SearchBody } from "./search-load.js";
import { BENCH_KEY, startServiceProcess, startUpstream, stopChild, type BenchUpstream } from "./service-process.js";

const undici = createRequire(new URL("../../packages/http-adapter/package.json", import.meta.url))("undici") as typeof import("undici");
const run = promisify(execFile);
const HEADERS = { Authorization: `Bearer ${BENCH_KEY}`, "Content-Type": "application/json" };

/** Whether valgrind (with callgrind_control) is installed. */
export const CALLGRIND = !spawnSync("valgrind", ["--version"]).error && !spawnSync("callgrind_control", ["-h"]).error;

/** One process's counts. */
export interface InstructionCount {
  /** Instructions per poll (the window's, over its polls: work done by time, timers, is in it). */
  readonly perRequest: number;
  /** How long the counted polls took under callgrind. */
  readonly seconds: number;
}

/** Instructions of the `n`th dump of a callgrind run (its `summary:`/`totals:` line). */
const dumped = (dir: string, n: number): number => {
  const file = readdirSync(dir).find((f) => f.endsWith(`.${n}`));
  if (!file) throw new Error(`callgrind wrote no dump ${n}`);
  const m = /^(?:summary|totals): (\d+)/m.exec(readFileSync(path.join(dir, file), "utf8"));
  if (!m) throw new Error(`callgrind's dump ${n} has no total`);
  return Number(m[1]);
};

/** Counts one `voar-server` process with the given variables (see the module's comment). */
const countProcess = async (upstream: BenchUpstream, query: SearchBody, env: Readonly<Record<string, string>>, o: { warm: number; requests: number }): Promise<InstructionCount> => {
  const dir = mkdtempSync(path.join(tmpdir(), "voar-callgrind-"));
  const server = await startServiceProcess({
    ttlMs: 3_600_000,
    latencyMs: 200,
    upstream,
    env,
    nodeFlags: ["--single-threaded"],
    // valgrind writes its own lines (a banner, a note on the heap's break segment) to a file of its own, not to the bench's output.
    wrap: ["valgrind", "--tool=callgrind", "--instr-atstart=no", `--callgrind-out-file=${dir}/callgrind.%p`, `--log-file=${dir}/valgrind.log`],
  });
  const control = (...args: string[]) => run("callgrind_control", [...args, String(server.pid)]);
  try {
    const round = await searchRound(server.appUrl, [query], 50);
    if (round.errors > 0) throw new Error(`the search to serve failed: ${round.firstError}`);
    const first = await fetch(`${server.appUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers: HEADERS, body: JSON.stringify(query) });
    const body = JSON.stringify({ Token: ((await first.json()) as { Token: string }).Token, NumeroPagina: 1, QuantidadePorPagina: 10 });
    const pool = new undici.Pool(server.appUrl, { connections: 1 });
    const polls = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const r = await pool.request({ path: "/api/ConsultaAereo/Consultar", method: "POST", headers: HEADERS, body });
        await r.body.arrayBuffer();
        if (r.statusCode !== 200) throw new Error(`a poll answered ${r.statusCode}`);
      }
    };
    try {
      await polls(o.warm);
      await control("--instr=on");
      const t0 = performance.now();
      await polls(o.requests);
      await control("--dump");
      const busyMs = performance.now() - t0;
      return { perRequest: dumped(dir, 1) / o.requests, seconds: busyMs / 1_000 };
    } finally {
      await pool.close();
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The metrics against both off, by instructions: per variant, the counts of each of its processes. */
export interface MetricsInstructions {
  readonly off: readonly InstructionCount[];
  readonly metrics: readonly InstructionCount[];
  readonly requests: number;
}

/**
 * Off (`VOAR_METRICS_ENABLED=false`) and the metrics alone (`prom-client`, Node's own metrics), `processes` of each
 * alternated, on one fake upstream; undefined without valgrind.
 */
export const measureMetricsInstructions = async (quick: boolean): Promise<MetricsInstructions | undefined> => {
  if (!CALLGRIND) return undefined;
  const o = quick ? { warm: 6_000, requests: 1_000, processes: 1 } : { warm: 6_000, requests: 2_000, processes: 3 };
  const noTraces = { OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "" };
  const [query] = distinctQueries(1, 31);
  const upstream = await startUpstream(200);
  try {
    const off: InstructionCount[] = [];
    const metrics: InstructionCount[] = [];
    for (let i = 0; i < o.processes; i++) {
      off.push(await countProcess(upstream, query!, { VOAR_METRICS_ENABLED: "false", ...noTraces }, o));
      metrics.push(await countProcess(upstream, query!, { VOAR_METRICS_ENABLED: "true", ...noTraces }, o));
    }
    return { off, metrics, requests: o.requests };
  } finally {
    await stopChild(upstream.child);
  }
};
