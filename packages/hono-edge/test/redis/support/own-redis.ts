import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A redis-server of the test's own on `port`, without persistence (`--save "" --appendonly no`), so a
 * restart starts empty, as after `shutdown nosave` on a Redis without a volume. `redis-server` and
 * `redis-cli` must be on PATH.
 */
export const ownRedis = (port: number) => {
  let proc: ChildProcess | undefined;
  const cli = (...args: string[]) => spawnSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8", timeout: 5_000 });
  return {
    url: `redis://127.0.0.1:${port}`,
    /** Starts it and waits until it answers PING. */
    async start(): Promise<void> {
      const p = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
      proc = p;
      for (let i = 0; i < 100; i++) {
        if (cli("ping").stdout.trim() === "PONG") return;
        if (p.exitCode !== null) break;
        await sleep(50);
      }
      throw new Error(`redis-server did not start on port ${port}`);
    },
    /** `redis-cli shutdown nosave`, as an operator would, and waits for the process to end. */
    async shutdown(): Promise<void> {
      const p = proc;
      proc = undefined;
      if (!p || p.exitCode !== null) return;
      const exited = once(p, "exit");
      cli("shutdown", "nosave");
      await exited;
    },
    /** Freezes it (`SIGSTOP`): its connections stay open, it answers nothing, until {@link resume}. */
    pause(): void {
      proc?.kill("SIGSTOP");
    },
    /** Lets a frozen Redis go on (`SIGCONT`): it answers everything it was sent meanwhile. */
    resume(): void {
      proc?.kill("SIGCONT");
    },
    /** Stops it if it runs (cleanup). */
    async stop(): Promise<void> {
      const p = proc;
      proc = undefined;
      if (!p || p.exitCode !== null) return;
      const exited = once(p, "exit");
      p.kill("SIGCONT");
      p.kill("SIGKILL");
      await exited;
    },
  };
};
