import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { parseSse } from "../support/sse.js";

// `pnpm --filter @voar/hono-edge dev:worker`: wrangler (the package's own devDependency) runs the build
// command of wrangler.toml, then serves the Worker and its Durable Objects locally in workerd, offline, on the
// embedded simulator. Its local API key is the one the script passes.

const PACKAGE_DIR = fileURLToPath(new URL("../../", import.meta.url));
const KEY = "local-dev-key-0123456789";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

let child: ChildProcess;
let persistTo: string | undefined;
let baseUrl: string;
let output = "";

beforeAll(async () => {
  const port = await freePort();
  // The package script itself, through pnpm as a developer runs it; its own process group, so that stopping it stops workerd too.
  // Its Durable Objects' storage in a folder of its own: wrangler keeps `.wrangler/state` across runs, where an
  // earlier run's completed search of the same query would answer at once, in one event.
  persistTo = await mkdtemp(path.join(tmpdir(), "voar-wrangler-dev-"));
  child = spawn("pnpm", ["run", "dev:worker", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", persistTo], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, CI: "true", FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not get ready in 90 s:\n${output.slice(-3_000)}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (/Ready on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`wrangler dev exited (${code}):\n${output.slice(-3_000)}`)));
  });
  baseUrl = `http://127.0.0.1:${port}`;
  // wrangler 3 restarts its custom build once right after starting (it reports a change of the watched `src`
  // folder itself) and reloads the server after "Ready": a request sent at once may be cut by that reload. Wait
  // until its output has been quiet for 2 s, as a developer would wait for the console to settle.
  const settledBy = Date.now() + 30_000;
  for (let seen = output.length; Date.now() < settledBy; ) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (output.length === seen) break;
    seen = output.length;
  }
}, 120_000);

/** Signals the whole process group (pnpm, wrangler, workerd); a group already gone is what stopping wanted. */
const signalGroup = (signal: NodeJS.Signals) => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
  }
};

/** Stops wrangler dev and its workerd (their process group). */
const stopChild = async (): Promise<void> => {
  if (child?.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  signalGroup("SIGTERM");
  const force = setTimeout(() => signalGroup("SIGKILL"), 5_000);
  await exited;
  clearTimeout(force);
};

afterAll(async () => {
  await stopChild();
  if (persistTo) await rm(persistTo, { recursive: true, force: true });
});

describe("wrangler dev (pnpm --filter @voar/hono-edge dev:worker), offline", () => {
  it("builds with the package's own bundle script and serves a search to completion over SSE from its Durable Object", async () => {
    expect(output).toContain(`[custom build] Running: node --import tsx ${path.join("scripts", "bundle-workerd.ts")}`);
    const res = await fetch(`${baseUrl}/api/ConsultaAereo/Stream`, {
      method: "POST",
      headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ Origem: "CNF", Destino: "SDU", Ida: daysAhead(30) }),
    });
    expect(res.status).toBe(200);
    const bodies = parseSse(await res.text())
      .filter((e) => e.data !== undefined)
      .map((e) => JSON.parse(e.data!) as Envelope);
    expect(bodies.length).toBeGreaterThan(1);
    expect(bodies.at(-1)).toMatchObject({ Success: true, Completed: true, HasResult: true });
  }, 60_000);

  it("answers a request without the key with the service's 401 envelope", async () => {
    const res = await fetch(`${baseUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ Success: false, Erro: { Codigo: "NAO_AUTORIZADO" } });
  });
});
