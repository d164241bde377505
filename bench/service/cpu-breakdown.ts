/**
 * Where one search's CPU goes: `voar-server` (the production entry, request log on, the memory store) searching
 * the fake upstream in a process of its own, one round of concurrent searches polled every 500 ms, with V8's
 * CPU profiler on in the server for that round alone: every sample given to a part of the search (`cpu-parts.ts`),
 * divided by the searches. Beside it, the floor: the same upstream bytes (recorded by the fake upstream during the
 * round) read over node:http and parsed, and the same pages (recorded by the clients) written by node:http to the
 * same number of requests at the same pace, with no framework (`floor-process.ts`), its CPU per search.
 */
import { fork } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CPU_PARTS, type CpuPart } from "./cpu-parts.js";
import { distinctQueries, searchRound } from "./search-load.js";
import { startServiceProcess, startUpstream, stopChild } from "./service-process.js";

const undici = createRequire(new URL("../../packages/http-adapter/package.json", import.meta.url))("undici") as typeof import("undici");
const here = path.dirname(fileURLToPath(import.meta.url));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What one profiled round measured. */
export interface CpuRound {
  readonly searches: number;
  readonly requests: number;
  readonly errors: number;
  /** Errors by kind (status and code, or the request's failure). */
  readonly errorKinds: Readonly<Record<string, number>>;
  /** Offers per search at completion, mean. */
  readonly offersPerSearch: number;
  /** Upstream answers read per search, and their bytes per search. */
  readonly upstreamAnswers: number;
  readonly upstreamBytes: number;
  /** The service's CPU per search over the profiled round (process CPU time, profiler on), ms. */
  readonly cpuPerSearchMs: number;
  /** The profile's samples per part, per search, ms (they add up to about `cpuPerSearchMs`). */
  readonly parts: Readonly<Record<CpuPart, number>>;
  /** The floor's CPU per search (the same round replayed), ms. */
  readonly floorPerSearchMs: number;
}

/** What the breakdown measured: its rounds, each with its own floor. */
export interface CpuBreakdown {
  readonly rounds: readonly CpuRound[];
}

/** The recorded upstream answers, served at `/b/<index>` from this process (not measured). */
const serveRecorded = async (bodies: readonly string[]) => {
  const buffers = bodies.map((b) => Buffer.from(b));
  const server = http.createServer((req, res) => {
    const body = buffers[Number(req.url!.slice(3))] ?? Buffer.from("{}");
    res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
    res.end(body);
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

/** The floor process: replays each search's requests at the round's pace; answers its CPU over the replay. */
const measureFloor = async (bodies: readonly string[], pages: readonly (readonly string[])[], pollMs: number, spreadMs: number): Promise<number> => {
  const upstream = await serveRecorded(bodies);
  // Each answer read by one search, in turn (the searches read about as many answers each).
  const reads = pages.map(() => [] as number[]);
  bodies.forEach((_, i) => reads[i % pages.length]!.push(i));
  const child = fork(path.join(here, "floor-process.ts"), [], { execArgv: process.execArgv, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const next = <T>(type: string) => new Promise<T>((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== type) return;
      child.off("message", on);
      resolve(m as T);
    };
    child.on("message", on);
  });
  try {
    const { port } = await next<{ port: number }>("listening");
    child.send({ type: "setup", upstream: upstream.origin, reads, pages });
    await next("ready");
    const cpu = async () => {
      const answer = next<{ cpuMs: number }>("cpu");
      child.send({ type: "cpu" });
      return (await answer).cpuMs;
    };
    const replay = async () => {
      const pool = new undici.Pool(`http://127.0.0.1:${port}`, { connections: pages.length, pipelining: 1 });
      await Promise.all(
        pages.map(async (answers, s) => {
          await sleep((s * spreadMs) / pages.length);
          for (let i = 0; i < answers.length; i++) {
            if (i > 0) await sleep(pollMs);
            const res = await pool.request({ path: "/", method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ s, i }) });
            await res.body.text();
          }
        }),
      );
      await pool.close();
    };
    await replay(); // warm-up: compiled, sockets open
    const before = await cpu();
    await replay();
    return ((await cpu()) - before) / pages.length;
  } finally {
    await stopChild(child);
    await upstream.close();
  }
};

export const measureCpuBreakdown = async (quick: boolean): Promise<CpuBreakdown> => {
  const o = { searches: quick ? 60 : 200, rounds: quick ? 1 : 3, pollMs: 500, latencyMs: 400, ttlMs: 5_000 };
  const upstream = await startUpstream(o.latencyMs);
  const server = await startServiceProcess({ ttlMs: o.ttlMs, latencyMs: o.latencyMs, upstream });
  const recorded = (on: boolean) =>
    new Promise<string[]>((resolve) => {
      if (on) {
        upstream.child.send({ type: "record", on });
        return resolve([]);
      }
      const answer = (m: { type: string; bodies?: string[] }) => {
        if (m.type !== "recorded") return;
        upstream.child.off("message", answer);
        resolve(m.bodies ?? []);
      };
      upstream.child.on("message", answer);
      upstream.child.send({ type: "record", on });
    });
  const profiled: { round: Awaited<ReturnType<typeof searchRound>>; cpu: Awaited<ReturnType<typeof server.profile>>; bodies: string[]; answers: string[][] }[] = [];
  try {
    // Warm-up, a whole round: code compiled, the heap, sockets and pools at the size of the load.
    await searchRound(server.appUrl, distinctQueries(o.searches, 200), o.pollMs, { startSpreadMs: o.pollMs });
    for (let r = 0; r < o.rounds; r++) {
      await sleep(o.ttlMs + 500); // the searches before have expired: each round starts from the same state
      const answers: string[][] = [];
      await recorded(true);
      await server.profile("start");
      const round = await searchRound(server.appUrl, distinctQueries(o.searches, 2 + r * 20), o.pollMs, { startSpreadMs: o.pollMs, answers });
      const cpu = await server.profile("stop");
      profiled.push({ round, cpu, bodies: await recorded(false), answers });
    }
  } finally {
    await server.stop();
    await stopChild(upstream.child);
  }
  const rounds: CpuRound[] = [];
  for (const { round, cpu, bodies, answers } of profiled) {
    const floorPerSearchMs = await measureFloor(bodies, answers, o.pollMs, o.pollMs);
    rounds.push({
      searches: o.searches,
      requests: round.requests,
      errors: round.errors,
      errorKinds: round.errorKinds,
      offersPerSearch: round.offers.reduce((a, b) => a + b, 0) / Math.max(1, round.offers.length),
      upstreamAnswers: bodies.length / o.searches,
      upstreamBytes: bodies.reduce((n, b) => n + Buffer.byteLength(b), 0) / o.searches,
      cpuPerSearchMs: cpu.cpuMs / o.searches,
      parts: Object.fromEntries(CPU_PARTS.map((p) => [p, (cpu.parts[p] ?? 0) / o.searches])) as Record<CpuPart, number>,
      floorPerSearchMs,
    });
  }
  return { rounds };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rounds } = await measureCpuBreakdown(process.argv.includes("--quick"));
  for (const f of rounds) {
    console.log(`${f.searches} searches, ${f.requests} requests, ${f.errors} errors, ${f.offersPerSearch.toFixed(0)} offers and ${f.upstreamAnswers.toFixed(1)} upstream answers (${(f.upstreamBytes / 1024).toFixed(0)} KB) per search`);
    console.log(`CPU per search: ${f.cpuPerSearchMs.toFixed(2)} ms; floor ${f.floorPerSearchMs.toFixed(2)} ms (${(f.cpuPerSearchMs / f.floorPerSearchMs).toFixed(2)}x)`);
    for (const p of CPU_PARTS) console.log(`  ${p.padEnd(40)} ${f.parts[p].toFixed(2)} ms`);
  }
}
