/**
 * The service under load, in its own process (so that its resident memory is its own, and the load
 * generator has the other core): the app on @hono/node-server and, beside it, a bare `node:http` server
 * that answers any request with the bytes it was given. Forked by `service-process.ts`; driven over IPC.
 * Settings come from the environment: VOAR_BENCH_TTL_MS, VOAR_BENCH_LATENCY_MS.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp, defineConfig, silentLogger } from "../../packages/hono-edge/src/index.js";
import { createSimulator } from "../../packages/testing/src/simulator/index.js";
import { BENCH_KEY, type ChildMessage, type ParentMessage } from "./service-process.js";

const env = process.env;
const config = defineConfig({
  apiKeys: [{ name: "bench", key: BENCH_KEY }],
  // One tenant drives every search: its rate limit and search caps are the load, not a limit under test.
  limits: { rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 }, maxSessions: 10_000, maxSessionsPerTenant: 10_000 },
  search: { ttlMs: Number(env["VOAR_BENCH_TTL_MS"] ?? 600_000) },
});
const sources = createSimulator({ latencyMs: Number(env["VOAR_BENCH_LATENCY_MS"] ?? 400), batches: 3 }).sources;
const app = createApp({ config, sources, logger: silentLogger });

let bare: { body: Buffer; headers: Record<string, string> } = { body: Buffer.from("{}"), headers: { "content-type": "application/json" } };
const bareServer = http.createServer((req, res) => {
  // Read the request body as the app does, then send the stored answer.
  req.on("data", () => undefined);
  req.on("end", () => {
    res.writeHead(200, { ...bare.headers, "content-length": String(bare.body.length) });
    res.end(bare.body);
  });
});

const listen = (start: (done: (port: number) => void) => void) => new Promise<number>((resolve) => start(resolve));
const appPort = await listen((done) => serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => done(info.port)));
const barePort = await listen((done) => bareServer.listen(0, "127.0.0.1", () => done((bareServer.address() as AddressInfo).port)));

const send = (m: ChildMessage) => process.send!(m);
const collect = () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice: the first pass queues finalizers whose memory the second frees.
  gc?.();
  gc?.();
  return gc !== undefined;
};

process.on("message", (m: ParentMessage) => {
  if (m.type === "memory") {
    const collected = m.gc ? collect() : false;
    const { rss, heapUsed } = process.memoryUsage();
    send({ type: "memory", id: m.id, rss, heapUsed, collected });
  } else if (m.type === "bare") {
    bare = { body: Buffer.from(m.body), headers: m.headers };
    send({ type: "ok", id: m.id });
  }
});
process.on("disconnect", () => process.exit(0));
send({ type: "ready", appPort, barePort });
