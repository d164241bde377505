import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CpuPart } from "./cpu-parts.js";

/** The API key the server process accepts. */
export const BENCH_KEY = "bench-api-key-0123456789";

/** What the bench sends the server process. */
export type ParentMessage =
  | { readonly type: "memory"; readonly id: number; readonly gc: boolean }
  | { readonly type: "bare"; readonly id: number; readonly body: string; readonly headers: Record<string, string> }
  | { readonly type: "profile"; readonly id: number; readonly action: "start" | "stop" };

/** What the server process answers. */
export type ChildMessage =
  | { readonly type: "ready"; readonly appPort: number; readonly barePort: number; readonly frameworkPort: number; readonly frameworkOwnPort: number; readonly partsPort: number; readonly joinedPort: number }
  | { readonly type: "memory"; readonly id: number; readonly rss: number; readonly heapUsed: number; readonly heapTotal: number; readonly external: number; readonly arrayBuffers: number; readonly collected: boolean; readonly cpuMs: number }
  | { readonly type: "ok"; readonly id: number }
  | { readonly type: "profiled"; readonly id: number; readonly parts: Record<CpuPart, number>; readonly cpuMs: number };

/** Resident and heap memory of the server process, in bytes. */
export interface MemoryReading {
  readonly rss: number;
  readonly heapUsed: number;
  /** The V8 heap's committed size (used and free pages it keeps). */
  readonly heapTotal: number;
  /** Memory of C++ objects bound to JavaScript ones, ArrayBuffers included. */
  readonly external: number;
  /** ArrayBuffers' and Buffers' bytes (part of `external`). */
  readonly arrayBuffers: number;
  /** Whether a full garbage collection ran first (`--expose-gc`). */
  readonly collected: boolean;
  /** CPU time (user and system) the process used since it started, in ms. */
  readonly cpuMs: number;
}

/** The server process, seen from the bench. */
export interface ServiceProcess {
  /** The server's process id (under `wrap`, the wrapped Node's: valgrind runs it in its own process). */
  readonly pid: number;
  /** The app's origin, e.g. `http://127.0.0.1:40123`. */
  readonly appUrl: string;
  /** The bare node:http server's origin. */
  readonly bareUrl: string;
  /** Hono on @hono/node-server answering the bare server's bytes, and nothing else: the framework's own cost. */
  readonly frameworkUrl: string;
  /**
   * Hono on @hono/node-server answering the same bytes copied per request with a new `X-Request-Id`: each answer
   * its own, as the service's are (each carries its RequestId). The least such an answer costs on the framework.
   */
  readonly frameworkOwnUrl: string;
  /** Bare node:http answering the bare bytes with a fresh id in their middle, written as three parts (one corked writev). */
  readonly partsUrl: string;
  /** The same answer as one new buffer per request, the id copied in. */
  readonly joinedUrl: string;
  /** Its memory now; after a full garbage collection when `gc`. */
  memory(gc: boolean): Promise<MemoryReading>;
  /**
   * Starts the V8 CPU profiler in the server process (`start`), or stops it (`stop`) and answers the CPU of
   * the profiled span by part of a search ({@link CpuPart}) and the process's CPU time over it, in ms.
   */
  profile(action: "start" | "stop"): Promise<{ readonly parts: Record<CpuPart, number>; readonly cpuMs: number }>;
  /** What the bare server (and the framework alone) answer from now on. */
  setBare(body: string, headers: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startServiceProcess}. */
export interface ServiceProcessOptions {
  /** How long a search is kept after completion. */
  readonly ttlMs: number;
  /** Latency of every simulated source (of the fake upstream, or of the demo's own simulator). */
  readonly latencyMs: number;
  /**
   * The server a user starts: `voar-server` (the production entry) against the fake upstream, the default;
   * or the demo (`voar-demo`: page and service in one process, its simulator in it, no failing source).
   */
  readonly entry?: "voar-server" | "demo";
  /** Origins allowed cross-origin (`VOAR_CORS_ORIGINS`); none by default, as the service ships. */
  readonly corsOrigins?: string;
  /** A fake upstream already running (`startUpstream`), shared with other instances; default: one of its own. */
  readonly upstream?: BenchUpstream;
  /** The Redis store (`VOAR_STORE_REDIS_URL`); default: the in-memory store. */
  readonly redisUrl?: string;
  /** `voar-server` on its embedded simulator (`latencyMs` per source) instead of the fake upstream. */
  readonly simulator?: boolean;
  /**
   * Connections the server accepts at once, and from one address (`VOAR_MAX_CONNECTIONS`,
   * `VOAR_MAX_CONNECTIONS_PER_ADDRESS`): the bench's clients all come from 127.0.0.1, one connection per search,
   * as a load balancer's would from its own address. Default: the service's (1,024, a quarter of it per address).
   */
  readonly maxConnections?: number;
  /** More variables of the service (e.g. `VOAR_METRICS_ENABLED`, `OTEL_EXPORTER_OTLP_ENDPOINT`), set last. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * A program the server's Node runs under, with its arguments (e.g. `["valgrind", "--tool=callgrind", ...]`):
   * `wrap[0] ...wrap node <flags> server-process.ts`. Default: none.
   */
  readonly wrap?: readonly string[];
  /** More flags of the server's Node (e.g. V8's `--single-threaded`). */
  readonly nodeFlags?: readonly string[];
}

/** The fake upstream in its own process. */
export interface BenchUpstream {
  readonly origin: string;
  readonly child: ChildProcess;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER = path.join(here, "server-process.ts");
const UPSTREAM = path.join(here, "upstream-process.ts");
const UPSTREAM_TOKEN = "bench-upstream-token-0123456789";

/** `VOAR_BENCH_CPU_PROF=<dir>`: each process writes a CPU profile there (`node --cpu-prof`) when it exits. */
const profiling = (): string[] => {
  const dir = process.env["VOAR_BENCH_CPU_PROF"];
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
};

/** Forks the fake upstream and waits for its origin. */
export const startUpstream = async (latencyMs: number): Promise<BenchUpstream> => {
  const child = fork(UPSTREAM, [], {
    execArgv: [...process.execArgv, ...profiling()],
    env: { ...process.env, VOAR_BENCH_LATENCY_MS: String(latencyMs), VOAR_BENCH_UPSTREAM_TOKEN: UPSTREAM_TOKEN },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the fake upstream exited (${code}) before it was ready`)));
    child.once("message", (m: { origin: string }) => resolve(m.origin));
  });
  return { origin, child };
};

/** Stops a forked process (SIGTERM) and waits for it to exit. */
export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

/**
 * Starts the fake upstream in a process, then `voar-server` (with a bare node:http server beside it) in
 * another, forked with this process's loader flags (tsx) and `--expose-gc`, configured by `VOAR_*` variables
 * as an operator would: one API key, its rate limit and search caps raised (the load is one tenant), the
 * upstream. Its request log goes to stdout, which is discarded (written, not read). Waits until every server
 * listens on 127.0.0.1.
 */
export const startServiceProcess = async (o: ServiceProcessOptions): Promise<ServiceProcess> => {
  const demo = o.entry === "demo";
  const upstream = demo || o.simulator ? undefined : (o.upstream ?? (await startUpstream(o.latencyMs)));
  const ownUpstream = o.upstream === undefined;
  const [wrapper, ...wrapArgs] = o.wrap ?? [];
  const child: ChildProcess = fork(SERVER, [], {
    ...(wrapper ? { execPath: wrapper } : {}),
    execArgv: [...(wrapper ? [...wrapArgs, process.execPath] : []), ...process.execArgv, "--expose-gc", ...(o.nodeFlags ?? []), ...profiling()],
    env: {
      ...process.env,
      VOAR_CONFIG_FILE: "",
      VOAR_RATE_LIMIT_CAPACITY: "1000000",
      VOAR_RATE_LIMIT_REFILL_PER_SECOND: "1000000",
      VOAR_MAX_SESSIONS: "10000",
      VOAR_MAX_SESSIONS_PER_TENANT: "10000",
      VOAR_SEARCH_TTL_MS: String(o.ttlMs),
      ...(o.corsOrigins ? { VOAR_CORS_ORIGINS: o.corsOrigins } : {}),
      ...(o.redisUrl ? { VOAR_STORE_REDIS_URL: o.redisUrl } : {}),
      ...(o.maxConnections ? { VOAR_MAX_CONNECTIONS: String(o.maxConnections), VOAR_MAX_CONNECTIONS_PER_ADDRESS: String(o.maxConnections) } : {}),
      ...(o.simulator
        ? { VOAR_API_KEYS: `bench:${BENCH_KEY}`, VOAR_SIMULATOR_LATENCY_MS: String(o.latencyMs) }
        : upstream
        ? { VOAR_API_KEYS: `bench:${BENCH_KEY}`, VOAR_UPSTREAM_URL: `${upstream.origin}/api`, VOAR_UPSTREAM_TOKEN: UPSTREAM_TOKEN }
        : { VOAR_BENCH_ENTRY: "demo", VOAR_DEMO_API_KEY: BENCH_KEY, VOAR_DEMO_LATENCY_MS: `${o.latencyMs}-${o.latencyMs}`, VOAR_DEMO_FAILURES: "none" }),
      ...o.env,
    },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const pending = new Map<number, (m: ChildMessage) => void>();
  let nextId = 1;
  const ready = new Promise<{ appPort: number; barePort: number; frameworkPort: number; frameworkOwnPort: number; partsPort: number; joinedPort: number }>((resolve, reject) => {
    child.once("exit", (code) => {
      if (ownUpstream) upstream?.child.kill("SIGTERM");
      reject(new Error(`the bench server exited (${code}) before it was ready`));
    });
    child.on("message", (m: ChildMessage) => {
      if (m.type === "ready") resolve(m);
      else pending.get(m.id)?.(m);
    });
  });
  const { appPort, barePort, frameworkPort, frameworkOwnPort, partsPort, joinedPort } = await ready;
  const ask = <T extends ChildMessage>(m: ParentMessage) =>
    new Promise<T>((resolve) => {
      pending.set(m.id, (answer) => {
        pending.delete(m.id);
        resolve(answer as T);
      });
      child.send(m);
    });
  return {
    pid: child.pid!,
    appUrl: `http://127.0.0.1:${appPort}`,
    bareUrl: `http://127.0.0.1:${barePort}`,
    frameworkUrl: `http://127.0.0.1:${frameworkPort}`,
    frameworkOwnUrl: `http://127.0.0.1:${frameworkOwnPort}`,
    partsUrl: `http://127.0.0.1:${partsPort}`,
    joinedUrl: `http://127.0.0.1:${joinedPort}`,
    memory: async (gc) => {
      const { type: _type, id: _id, ...reading } = await ask<Extract<ChildMessage, { type: "memory" }>>({ type: "memory", id: nextId++, gc });
      return reading;
    },
    profile: async (action) => {
      const m = await ask<ChildMessage>({ type: "profile", id: nextId++, action });
      return m.type === "profiled" ? { parts: m.parts, cpuMs: m.cpuMs } : { parts: {} as Record<CpuPart, number>, cpuMs: 0 };
    },
    setBare: async (body, headers) => void (await ask({ type: "bare", id: nextId++, body, headers })),
    stop: async () => {
      await stopChild(child);
      if (upstream && ownUpstream) await stopChild(upstream.child);
    },
  };
};
