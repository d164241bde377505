import { spawn, type ChildProcess } from "node:child_process";
import type { ContractTarget } from "../../contract/contract-target.js";

/** A server in another process, serving the app on 127.0.0.1. */
export interface RuntimeServer {
  readonly baseUrl: string;
  readonly target: ContractTarget;
  /** Stops the process (SIGTERM, then SIGKILL after a grace period). */
  stop(): Promise<void>;
  /** Kills the process at once (SIGKILL): no shutdown code runs, as when a machine dies. */
  kill(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A contract target over a socket: `fetch(baseUrl + path)` and real waits. */
export const socketTarget = (baseUrl: string): ContractTarget => ({ fetch: (p, init) => fetch(`${baseUrl}${p}`, init), wait: sleep });

const stopProcess = async (child: ChildProcess, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
};

/**
 * Starts `command args` with `env` added to this process's environment and waits (at most `timeoutMs`)
 * for the JSON log line `{"msg":"listening","port":N}` that every entry prints. Fails with the process's
 * output when it exits or stays silent.
 */
export const startRuntime = async (command: string, args: readonly string[], env: Readonly<Record<string, string>>, cwd: string, timeoutMs = 60_000): Promise<RuntimeServer> => {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not listen within ${timeoutMs} ms:\n${output.slice(-2_000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-20_000);
      const m = /"msg":"listening"[^\n]*"port":(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("error", (e) => reject(new Error(`${command} could not start: ${e.message}`)));
    child.once("exit", (code, signal) => reject(new Error(`${command} exited (${code ?? signal}) before listening:\n${output.slice(-2_000)}`)));
  }).catch(async (e: unknown) => {
    await stopProcess(child);
    throw e;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  return { baseUrl, target: socketTarget(baseUrl), stop: () => stopProcess(child), kill: () => stopProcess(child, "SIGKILL") };
};
