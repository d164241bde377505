import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The API key the server process accepts. */
export const BENCH_KEY = "bench-api-key-0123456789";

/** What the bench sends the server process. */
export type ParentMessage =
  | { readonly type: "memory"; readonly id: number; readonly gc: boolean }
  | { readonly type: "bare"; readonly id: number; readonly body: string; readonly headers: Record<string, string> };

/** What the server process answers. */
export type ChildMessage =
  | { readonly type: "ready"; readonly appPort: number; readonly barePort: number }
  | { readonly type: "memory"; readonly id: number; readonly rss: number; readonly heapUsed: number; readonly collected: boolean }
  | { readonly type: "ok"; readonly id: number };

/** Resident and heap memory of the server process, in bytes. */
export interface MemoryReading {
  readonly rss: number;
  readonly heapUsed: number;
  /** Whether a full garbage collection ran first (`--expose-gc`). */
  readonly collected: boolean;
}

/** The server process, seen from the bench. */
export interface ServiceProcess {
  /** The app's origin, e.g. `http://127.0.0.1:40123`. */
  readonly appUrl: string;
  /** The bare node:http server's origin. */
  readonly bareUrl: string;
  /** Its memory now; after a full garbage collection when `gc`. */
  memory(gc: boolean): Promise<MemoryReading>;
  /** What the bare server answers from now on. */
  setBare(body: string, headers: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startServiceProcess}. */
export interface ServiceProcessOptions {
  /** How long a search is kept after completion. */
  readonly ttlMs: number;
  /** Latency of every simulated source. */
  readonly latencyMs: number;
}

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "server-process.ts");

/**
 * Forks the server process with this process's loader flags (tsx) and `--expose-gc`, and waits until both
 * of its servers listen on 127.0.0.1.
 */
export const startServiceProcess = async (o: ServiceProcessOptions): Promise<ServiceProcess> => {
  const child: ChildProcess = fork(SERVER, [], {
    execArgv: [...process.execArgv, "--expose-gc"],
    env: { ...process.env, VOAR_BENCH_TTL_MS: String(o.ttlMs), VOAR_BENCH_LATENCY_MS: String(o.latencyMs) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (m: ChildMessage) => void>();
  let nextId = 1;
  const ready = new Promise<{ appPort: number; barePort: number }>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bench server exited (${code}) before it was ready`)));
    child.on("message", (m: ChildMessage) => {
      if (m.type === "ready") resolve(m);
      else pending.get(m.id)?.(m);
    });
  });
  const { appPort, barePort } = await ready;
  const ask = <T extends ChildMessage>(m: ParentMessage) =>
    new Promise<T>((resolve) => {
      pending.set(m.id, (answer) => {
        pending.delete(m.id);
        resolve(answer as T);
      });
      child.send(m);
    });
  return {
    appUrl: `http://127.0.0.1:${appPort}`,
    bareUrl: `http://127.0.0.1:${barePort}`,
    memory: async (gc) => {
      const { rss, heapUsed, collected } = await ask<Extract<ChildMessage, { type: "memory" }>>({ type: "memory", id: nextId++, gc });
      return { rss, heapUsed, collected };
    },
    setBare: async (body, headers) => void (await ask({ type: "bare", id: nextId++, body, headers })),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
};
