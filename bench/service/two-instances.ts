import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import net, { type AddressInfo } from "node:net";
import { summarize, type Figure } from "../lib/measure.js";
import { distinctQueries, percentile, type SearchBody } from "./search-load.js";
import { BENCH_KEY, startServiceProcess, stopChild } from "./service-process.js";

// undici is a dependency of @voar/http-adapter, resolved from there (as `search-load.ts` does).
const undici = createRequire(new URL("../../packages/http-adapter/package.json", import.meta.url))("undici") as typeof import("undici");

const HEADERS = { Authorization: `Bearer ${BENCH_KEY}`, "Content-Type": "application/json" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What one round of searches across two instances gave, as clients that give up on a 503 see it. */
export interface TwoInstanceRound {
  readonly searches: number;
  /** Searches whose client reached `Completed` (it gives up on a 503 or any other error). */
  readonly completed: number;
  /** Answers 503 (`INDISPONIVEL`): what the client gave up on. */
  readonly unavailable: number;
  /** Answers 429 (`LIMITE_EXCEDIDO`: admission control shedding load), waited out by `Retry-After` and retried. */
  readonly shed: number;
  /** Other failures (statuses, dropped requests). */
  readonly otherErrors: number;
  /** Failures by what they were (status, or the request's failure), 503s and other errors alike. */
  readonly errorKinds: Readonly<Record<string, number>>;
  readonly pollLatencies: readonly number[];
  readonly wallMs: number;
}

/** Figures of the two-instance load. */
export interface TwoInstanceFigures {
  readonly searches: number;
  readonly rounds: number;
  readonly completed: Figure;
  readonly unavailable: Figure;
  readonly shed: Figure;
  readonly otherErrors: number;
  readonly pollP99: Figure;
  /** The instances' CPU time over the rounds' wall time, both together (2 = two cores busy all the time). */
  readonly busy: Figure;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** A redis-server of the bench's own on a free port (no persistence), when one is on PATH. */
export const startRedis = async (): Promise<{ readonly url: string; readonly child: ChildProcess } | undefined> => {
  if (spawnSync("redis-server", ["--version"]).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    if (spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout.trim() === "PONG") return { url: `redis://127.0.0.1:${port}`, child };
    await sleep(50);
  }
  child.kill("SIGKILL");
  throw new Error("redis-server did not start");
};

/** The error envelope's `Erro.Codigo`, when the answer is one. */
const codeOf = (text: string): string => {
  try {
    return (JSON.parse(text) as { Erro?: { Codigo?: string } | null }).Erro?.Codigo ?? "";
  } catch {
    return "";
  }
};

/**
 * Each search like a client behind a load balancer without stickiness: every request goes to the next
 * instance in turn; it polls by `Token` every `pollMs` until `Completed`, gives up on a 503, and waits out a
 * 429's `Retry-After` before asking again.
 */
export const balancedRound = async (origins: readonly string[], queries: readonly SearchBody[], pollMs: number, spreadMs: number): Promise<TwoInstanceRound> => {
  const pools = origins.map((o) => new undici.Pool(o, { connections: queries.length, pipelining: 1 }));
  let completed = 0;
  let unavailable = 0;
  let shed = 0;
  let otherErrors = 0;
  const errorKinds: Record<string, number> = {};
  const failed = (kind: string) => void (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);
  const pollLatencies: number[] = [];
  let turn = 0;
  const ask = async (body: SearchBody): Promise<Record<string, unknown> | "gave-up"> => {
    for (let attempt = 0; attempt < 30; attempt++) {
      const t0 = performance.now();
      try {
        const res = await pools[turn++ % pools.length]!.request({ path: "/api/ConsultaAereo/Consultar", method: "POST", headers: HEADERS, body: JSON.stringify(body) });
        const text = await res.body.text();
        if ("Token" in body) pollLatencies.push(performance.now() - t0);
        if (res.statusCode === 200) return JSON.parse(text) as Record<string, unknown>;
        if (res.statusCode === 503) return (unavailable++, failed(`HTTP 503 ${codeOf(text)}`.trim()), "gave-up");
        if (res.statusCode !== 429) return (otherErrors++, failed(`HTTP ${res.statusCode} ${codeOf(text)}`.trim()), "gave-up");
        shed++;
        await sleep(Number(res.headers["retry-after"] ?? 1) * 1_000);
      } catch (e) {
        otherErrors++;
        failed(e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e));
        return "gave-up";
      }
    }
    otherErrors++;
    failed("429 after 30 attempts");
    return "gave-up";
  };
  const one = async (query: SearchBody, i: number) => {
    await sleep((i * spreadMs) / queries.length);
    let answer = await ask(query);
    for (let polls = 0; answer !== "gave-up" && answer["Completed"] !== true && polls < 600; polls++) {
      await sleep(pollMs);
      answer = await ask({ Token: answer["Token"] });
    }
    if (answer !== "gave-up" && answer["Completed"] === true) completed++;
    else if (answer !== "gave-up") {
      otherErrors++;
      failed("not complete after 600 polls");
    }
  };
  const t0 = performance.now();
  await Promise.all(queries.map(one));
  await Promise.all(pools.map((p) => p.close()));
  return { searches: queries.length, completed, unavailable, shed, otherErrors, errorKinds, pollLatencies, wallMs: performance.now() - t0 };
};

/**
 * 200 concurrent searches, started at once, on two `voar-server` instances (separate processes, each on its
 * embedded simulator: the same deployment, so one fingerprint and shared searches) sharing one healthy Redis
 * (the bench's own redis-server): the instances' CPU is saturated while Redis answers in microseconds. How
 * many answers are 503, and how many searches complete for clients that give up on a 503. Undefined when no
 * `redis-server` is on PATH.
 */
export const measureTwoInstances = async (quick: boolean): Promise<TwoInstanceFigures | undefined> => {
  const redis = await startRedis();
  if (!redis) return undefined;
  const o = { searches: 200, rounds: quick ? 1 : 5, pollMs: 500, latencyMs: 400, ttlMs: 30_000 };
  const instances = await Promise.all([0, 1].map(() => startServiceProcess({ ttlMs: o.ttlMs, latencyMs: o.latencyMs, redisUrl: redis.url, simulator: true })));
  try {
    const origins = instances.map((i) => i.appUrl);
    if (!quick) await balancedRound(origins, distinctQueries(o.searches, 200), o.pollMs, 0); // warm-up
    const rounds: TwoInstanceRound[] = [];
    const busy: number[] = [];
    for (let r = 0; r < o.rounds; r++) {
      const cpu0 = (await Promise.all(instances.map((i) => i.memory(false)))).reduce((n, m) => n + m.cpuMs, 0);
      const result = await balancedRound(origins, distinctQueries(o.searches, 2 + r * 20), o.pollMs, 0);
      const cpu1 = (await Promise.all(instances.map((i) => i.memory(false)))).reduce((n, m) => n + m.cpuMs, 0);
      rounds.push(result);
      busy.push((cpu1 - cpu0) / result.wallMs);
    }
    return {
      searches: o.searches,
      rounds: o.rounds,
      completed: summarize(rounds.map((r) => r.completed)),
      unavailable: summarize(rounds.map((r) => r.unavailable)),
      shed: summarize(rounds.map((r) => r.shed)),
      otherErrors: rounds.reduce((n, r) => n + r.otherErrors, 0),
      pollP99: summarize(rounds.map((r) => percentile(r.pollLatencies, 99))),
      busy: summarize(busy),
    };
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await stopChild(redis.child);
  }
};
