import { spawn, type ChildProcess } from "node:child_process";
import { PACKAGE_DIR } from "../../runtimes/support/runtime-binaries.js";
import type { LogRecord } from "../../../src/logging/logger.js";

/** `voar-server` (the Node entry, `src/node.ts`) in its own process, its JSON log lines kept. */
export interface VoarServer {
  readonly baseUrl: string;
  /** Every JSON line it wrote on stdout so far. */
  logs(): readonly LogRecord[];
  /** What it wrote on stderr (its last 4,000 characters). */
  stderr(): string;
  /** Lines of stdout that were not JSON. */
  rawLines(): readonly string[];
  /** SIGTERM (graceful), SIGKILL after 3 s. */
  stop(): Promise<void>;
  /** SIGKILL at once: the instance dies mid-work, as a crashed node does. */
  kill(): Promise<void>;
}

/**
 * Starts `voar-server` from the sources (`node --import tsx src/node.ts`) on 127.0.0.1 and a free port,
 * configured by `VOAR_*` variables as an operator would, and waits for its `listening` line. `nodeArgs` go to
 * Node before the entry (`--expose-gc`, `--cpu-prof`...).
 */
export const startVoarServer = async (env: Readonly<Record<string, string>>, timeoutMs = 60_000, nodeArgs: readonly string[] = []): Promise<VoarServer> => {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "src/node.ts"], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, VOAR_CONFIG_FILE: "", VOAR_PORT: "0", VOAR_HOSTNAME: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const records: LogRecord[] = [];
  const raw: string[] = [];
  let pending = "";
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => void (errors = (errors + chunk.toString("utf8")).slice(-4_000)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`voar-server did not listen within ${timeoutMs} ms: ${errors}`)), timeoutMs);
    child.stdout!.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith("{")) {
          if (line.trim() !== "") raw.push(line);
          continue;
        }
        const record = JSON.parse(line) as LogRecord;
        records.push(record);
        if (record.msg === "listening") {
          clearTimeout(timer);
          resolve(record["port"] as number);
        }
      }
    });
    child.once("exit", (code, signal) => reject(new Error(`voar-server exited (${code ?? signal}) before listening: ${errors}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    logs: () => records,
    stderr: () => errors,
    rawLines: () => raw,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
};
