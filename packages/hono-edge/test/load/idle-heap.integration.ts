import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { daysAhead } from "../contract/contract-target.js";
import { PACKAGE_DIR } from "../runtimes/support/runtime-binaries.js";

/**
 * An idle instance lets its expired searches go: `voar-server` (memory store, the simulator) runs 200 large
 * searches to completion, then gets no request at all; once their TTL passed, its heap (read over IPC after a full
 * collection, by a test-only preload: no request reaches the app) is back within 10% of what it was before them.
 */

const KEY = "idle-heap-api-key-0123456789";
const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../support/heap-probe.ts");
const TTL_MS = 4_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let child: ChildProcess | undefined;
afterEach(() => void child?.kill("SIGKILL"));

const start = async () => {
  const c = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "--import", PROBE, "src/node.ts"], {
    cwd: PACKAGE_DIR,
    env: {
      ...process.env,
      VOAR_CONFIG_FILE: "",
      VOAR_PORT: "0",
      VOAR_HOSTNAME: "127.0.0.1",
      VOAR_API_KEYS: `idle:${KEY}`,
      VOAR_SIMULATOR_LATENCY_MS: "100",
      VOAR_SEARCH_TTL_MS: String(TTL_MS),
      VOAR_RATE_LIMIT_CAPACITY: "1000000",
      VOAR_RATE_LIMIT_REFILL_PER_SECOND: "1000000",
      VOAR_MAX_SESSIONS: "10000",
      VOAR_MAX_SESSIONS_PER_TENANT: "10000",
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  child = c;
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    c.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n").find((l) => l.includes('"msg":"listening"'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    c.once("exit", (code) => reject(new Error(`voar-server exited (${code})`)));
  });
  const heap = () =>
    new Promise<number>((resolve) => {
      c.once("message", (m: { heapUsed: number; collected: boolean }) => {
        expect(m.collected).toBe(true);
        resolve(m.heapUsed);
      });
      c.send({ type: "heap" });
    });
  return { origin: `http://127.0.0.1:${port}`, heap };
};

/** Runs searches to completion (Mode B round trips of the OTA comparison: the largest answers of the simulator). */
const searches = async (origin: string, n: number, firstDay: number) => {
  const routes = [["REC", "BSB"], ["BSB", "REC"], ["CNF", "REC"], ["GIG", "REC"], ["REC", "CNF"], ["GIG", "BSB"], ["BSB", "GIG"], ["BSB", "CNF"], ["CNF", "BSB"], ["REC", "GIG"]];
  const ask = async (body: unknown): Promise<{ Completed: boolean; Token: string }> => {
    const res = await fetch(`${origin}/api/ConsultaAereo/Consultar`, { method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (res.status === 429 || res.status === 408) {
      // Admission control sheds a burst (429), or a machine busy with other work was too slow to read the request
      // (408, retryable): wait as told and ask again.
      await sleep(Number(res.headers.get("retry-after") ?? 1) * 1_000);
      return ask(body);
    }
    expect(res.status).toBe(200);
    return (await res.json()) as { Completed: boolean; Token: string };
  };
  let offers = 0;
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const [o, d] = routes[i % routes.length]!;
      const day = firstDay + Math.floor(i / routes.length);
      let answer = await ask({ Origem: o, Destino: d, Ida: daysAhead(day), Volta: daysAhead(day + 7), Companhia: 1300 });
      while (!answer.Completed) {
        await sleep(200);
        answer = await ask({ Token: answer.Token, QuantidadePorPagina: 50 });
      }
      offers += (answer as unknown as { TotalItens: number }).TotalItens;
    }),
  );
  return offers;
};

describe("an idle instance's memory", () => {
  it("after 200 searches and their TTL, with no request at all, the heap is back within 10% of where it started", async () => {
    const t0 = performance.now();
    const server = await start();
    // Warm-up: the code paths compiled, pools grown; its searches expire too before the start is read.
    await searches(server.origin, 20, 100);
    await sleep(TTL_MS + 2_500);
    const before = await server.heap();
    const found = await searches(server.origin, 200, 20);
    const loaded = await server.heap();
    // Idle: their TTL, then one sweep period (a quarter of it, at least 1 s), and no request meanwhile.
    await sleep(TTL_MS + 2_500);
    const after = await server.heap();
    const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
    console.log(`heap before ${mib(before)}, with 200 searches (${found} items) ${mib(loaded)}, idle after their TTL ${mib(after)}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    expect(loaded - before).toBeGreaterThan(0.5 * before); // the searches weighed: the check below can fail
    expect(after).toBeLessThanOrEqual(before * 1.1);
  }, 120_000);
});
