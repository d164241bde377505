/**
 * `pnpm demo` stopped as a person stops it: Ctrl+C in the terminal (SIGINT to the whole process group:
 * pnpm, and the demo, which pnpm then sends a second SIGINT), or SIGTERM to pnpm alone (a process manager).
 * Either way the demo closes and pnpm exits 0, without "ELIFECYCLE Command failed".
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** Process groups started here, killed after each test whatever happened (a demo left orphaned holds its port). */
const groups: number[] = [];
afterEach(() => {
  for (const pid of groups.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone: the test stopped it.
    }
  }
});

/** How a process ended, or "still running" after 30 s. */
const endOf = (exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>) =>
  Promise.race([exited, new Promise<"still running">((r) => setTimeout(() => r("still running"), 30_000))]);

/** Starts `pnpm demo` in a process group of its own, on a free port, and resolves once it serves. */
const startDemo = async () => {
  // The pnpm that runs this test (npx's, in CI), else the one on the PATH.
  const pnpm = process.env["npm_execpath"]?.includes("pnpm") ? [process.execPath, process.env["npm_execpath"]] : ["pnpm"];
  const child = spawn(pnpm[0]!, [...pnpm.slice(1), "demo"], { cwd: ROOT, detached: true, env: { ...process.env, PORT: "0", NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  groups.push(child.pid!);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 90_000;
  while (!output.includes("Ctrl+C para parar.")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the demo did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { pid: child.pid!, exited, output: () => output };
};

describe("stopping pnpm demo", () => {
  it("Ctrl+C (SIGINT to the process group) stops it and pnpm exits 0, quietly", async () => {
    const demo = await startDemo();
    process.kill(-demo.pid, "SIGINT");
    const end = await endOf(demo.exited);
    expect(end, demo.output()).toEqual({ code: 0, signal: null });
    expect(demo.output()).toContain("Parando…");
    expect(demo.output()).not.toContain("ELIFECYCLE");
  });

  it("SIGTERM to pnpm alone stops it the same way", async () => {
    const demo = await startDemo();
    process.kill(demo.pid, "SIGTERM");
    const end = await endOf(demo.exited);
    expect(end, demo.output()).toEqual({ code: 0, signal: null });
    expect(demo.output()).not.toContain("ELIFECYCLE");
  });
});
