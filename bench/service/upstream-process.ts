/**
 * The fake upstream (@voar/testing: the ConsultaAereo API over the simulator) in a process of its own, so
 * that the simulator's work is not on the service's request path nor in its memory: the service searches it
 * as it would a real upstream. Forked by `service-process.ts`; answers `{ type: "ready", origin }` over IPC.
 * Settings from the environment: VOAR_BENCH_LATENCY_MS (every simulated source), VOAR_BENCH_UPSTREAM_TOKEN.
 */
import { createFakeUpstream, createSimulator, liveBackend, serveOnNode } from "../../packages/testing/src/index.js";

const latencyMs = Number(process.env["VOAR_BENCH_LATENCY_MS"] ?? 400);
const upstream = createFakeUpstream({
  backend: liveBackend({ sources: createSimulator({ latencyMs, batches: 3 }).sources, ttlMs: 3_600_000 }),
  auth: { tokens: [process.env["VOAR_BENCH_UPSTREAM_TOKEN"] ?? "bench-upstream-token"] },
});
/**
 * The answers' bodies while recording (`{ type: "record", on: true }` over IPC, until `on: false`, which answers
 * them as `{ type: "recorded", bodies }`): the CPU breakdown's floor parses the same upstream bytes.
 */
let recorded: string[] | undefined;
const fetch = async (request: Request): Promise<Response> => {
  const response = await upstream.app.fetch(request);
  if (!recorded) return response;
  const body = await response.text();
  recorded.push(body);
  return new Response(body, { status: response.status, headers: response.headers });
};
process.on("message", (m: { type: "record"; on: boolean }) => {
  if (m.type !== "record") return;
  if (m.on) recorded = [];
  else {
    process.send!({ type: "recorded", bodies: recorded ?? [] });
    recorded = undefined;
  }
});
const served = await serveOnNode(fetch);
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
process.send!({ type: "ready", origin: served.origin });
