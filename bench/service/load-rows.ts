/**
 * The load rows: two `voar-server` instances (processes of their own, the embedded simulator, one deployment) on the
 * bench's own Redis, loaded by clients in processes of their own, each from a loopback address of its own
 * (127.0.0.2 and up, the same client as the integration test `load-not-outage`): 25, 50, 100, 200, 400 and 1,000 concurrent
 * searches polled at the hint (each client waits out a 429's Retry-After and counts everything else), then 1,000 SSE
 * streams of one query. Admission control as shipped (the defaults). Per load: searches completed, errors, 503s,
 * 429s waited out, poll p50/p99 over every poll, both instances' CPU time per search; and the largest load with no
 * error and a poll p99 under 1 s, per core of the machine.
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { percentile } from "./search-load.js";
import { BENCH_KEY, startServiceProcess, stopChild, type ServiceProcess } from "./service-process.js";
import { startRedis } from "./two-instances.js";

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../packages/hono-edge/test/load/support/load-client.ts");

/** One load client's result line (see the client). */
interface ClientLine {
  readonly complete: number;
  readonly statuses: Record<string, number>;
  readonly refused: number;
  readonly failures: Record<string, number>;
  readonly unavailableEvents: number;
  readonly pollMs?: readonly number[];
}

/** What one load gave. */
export interface LoadRun {
  readonly kind: "searches" | "streams";
  readonly size: number;
  readonly complete: number;
  /** Requests that failed, and answers other than 200 and 429 (503s included), and streams that ended without results. */
  readonly errors: number;
  readonly unavailable: number;
  readonly shed: number;
  readonly pollP50: number;
  readonly pollP99: number;
  readonly cpuPerItemMs: number;
  readonly wallMs: number;
  readonly errorKinds: Readonly<Record<string, number>>;
}

/** The load rows' figures. */
export interface LoadRowFigures {
  readonly runs: readonly LoadRun[];
  readonly cores: number;
  /** The largest search load with no error and poll p99 under 1 s (0: none). */
  readonly largestClean: number;
}

const dayOf = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

const client = (env: Record<string, string>) =>
  new Promise<ClientLine>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CLIENT], { env: { ...process.env, KEY: BENCH_KEY, RAW: "1", ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line) as ClientLine);
      else reject(new Error(`load client exited ${code}`));
    });
  });

const cpuOf = async (instances: readonly ServiceProcess[]) => (await Promise.all(instances.map((i) => i.memory(false)))).reduce((n, m) => n + m.cpuMs, 0);

/** The days one client's searches take: it searches 10 routes a day, one day after another. */
const daysOf = (searches: number) => Math.ceil(searches / 10);

/**
 * One load: `size` searches (or streams) from four client processes. Searches: each client's on days of its own
 * from `day` on (no two searches of a load share a query, so none joins another or finds it in the answer cache).
 */
const runLoad = async (instances: readonly ServiceProcess[], kind: LoadRun["kind"], size: number, day: number): Promise<LoadRun> => {
  const origins = instances.map((i) => i.appUrl).join(",");
  const each = Math.ceil(size / 4);
  const startAt = String(Date.now() + 500);
  const cpu0 = await cpuOf(instances);
  const t0 = performance.now();
  const lines = await Promise.all(
    [0, 1, 2, 3].map((i) =>
      client(
        kind === "streams"
          ? { ROLE: "stream", LOCAL: `127.0.0.${2 + i}`, ORIGINS: origins, COUNT: String(each), START_AT: startAt, QUERY: JSON.stringify({ Origem: "GRU", Destino: "REC", Ida: dayOf(day) }) }
          : { ROLE: "poll", LOCAL: `127.0.0.${6 + i}`, ORIGINS: origins, COUNT: String(each), START_AT: startAt, FIRST_DAY: String(day + daysOf(each) * i) },
      ),
    ),
  );
  const wallMs = performance.now() - t0;
  const cpuMs = (await cpuOf(instances)) - cpu0;
  const polls = lines.flatMap((l) => l.pollMs ?? []);
  const errorKinds: Record<string, number> = {};
  for (const l of lines) {
    for (const [k, n] of Object.entries(l.failures)) errorKinds[k] = (errorKinds[k] ?? 0) + n;
    for (const [status, n] of Object.entries(l.statuses)) if (status !== "200" && status !== "429") errorKinds[`HTTP ${status}`] = (errorKinds[`HTTP ${status}`] ?? 0) + n;
  }
  const unavailable = lines.reduce((n, l) => n + (l.statuses["503"] ?? 0) + l.unavailableEvents, 0);
  return {
    kind,
    size: each * 4,
    complete: lines.reduce((n, l) => n + l.complete, 0),
    errors: Object.values(errorKinds).reduce((a, b) => a + b, 0),
    unavailable,
    shed: lines.reduce((n, l) => n + l.refused, 0),
    pollP50: percentile(polls, 50),
    pollP99: percentile(polls, 99),
    cpuPerItemMs: cpuMs / (each * 4),
    wallMs,
    errorKinds,
  };
};

/** The load rows (quick: 50, 100 and 200 searches, 200 streams); undefined without `redis-server` on PATH. */
export const measureLoadRows = async (quick: boolean): Promise<LoadRowFigures | undefined> => {
  const redis = await startRedis();
  if (!redis) return undefined;
  const env = { VOAR_SEARCH_TTL_MS: "120000", VOAR_KEEP_ALIVE_TIMEOUT_MS: "60000" };
  const instances = await Promise.all([0, 1].map(() => startServiceProcess({ ttlMs: 120_000, latencyMs: 400, redisUrl: redis.url, simulator: true, maxConnections: 4_096, env })));
  try {
    await runLoad(instances, "searches", 40, 300); // warm-up (days 300 to 303): code compiled, pools grown
    const runs: LoadRun[] = [];
    // The loads the table reports (200, 400, 1,000), and smaller ones below them to find the largest load carried
    // with no error and a poll p99 under 1 s. Each load's queries on days of their own, so that no load finds
    // another's searches in the answer cache (see `runLoad`).
    const sizes = quick ? [48, 100, 200] : [24, 48, 72, 100, 148, 200, 400, 1_000];
    let day = 20;
    for (const size of sizes) {
      runs.push(await runLoad(instances, "searches", size, day));
      day += 4 * daysOf(size / 4) + 1;
    }
    runs.push(await runLoad(instances, "streams", quick ? 200 : 1_000, 12));
    const clean = runs.filter((r) => r.kind === "searches" && r.errors === 0 && r.complete === r.size && r.pollP99 < 1_000);
    return { runs, cores: availableParallelism(), largestClean: Math.max(0, ...clean.map((r) => r.size)) };
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await stopChild(redis.child);
  }
};
