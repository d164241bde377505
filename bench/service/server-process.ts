/**
 * The service under load, in its own process (so that its resident memory is its own, and the load
 * generator has the other core): `voar-server` itself, the production entry (`packages/hono-edge/src/node.ts`:
 * configuration from `VOAR_*` variables, @hono/node-server with the configured limits, the request log on, as
 * JSON lines on stdout), or with `VOAR_BENCH_ENTRY=demo` the demo as `voar-demo` starts it; beside it, a bare
 * `node:http` server that answers any request with the bytes it was given, and Hono on @hono/node-server
 * answering the same bytes (the framework alone). Forked by `service-process.ts`, which sets the service's variables (its upstream: the fake
 * upstream in a third process); driven over IPC (memory readings, the bare server's answer).
 */
import http from "node:http";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Session } from "node:inspector/promises";
import type { ChildMessage, ParentMessage } from "./service-process.js";
import { cpuByPart, type CpuProfile } from "./cpu-parts.js";

/** A free port on 127.0.0.1 (asked of the system, then released for the service to take). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Resolves once something accepts connections on the port. */
const listening = async (port: number) => {
  for (let i = 0; i < 2_400; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.end(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`voar-server did not listen on ${port}`);
};

const appPort = await freePort();
if (process.env["VOAR_BENCH_ENTRY"] === "demo") {
  // `voar-demo` as a user starts it (`apps/demo/src/server/main.ts`: the page, its settings and the service in
  // one process, the simulator in it), configured by its variables.
  process.env["PORT"] = String(appPort);
  process.env["HOST"] = "127.0.0.1";
  await import("../../apps/demo/src/server/main.js");
} else {
  process.env["VOAR_PORT"] = String(appPort);
  process.env["VOAR_HOSTNAME"] = "127.0.0.1";
  await import("../../packages/hono-edge/src/node.js");
}
await listening(appPort);

let bare: { body: Buffer; headers: Record<string, string> } = { body: Buffer.from("{}"), headers: { "content-type": "application/json" } };
const bareServer = http.createServer((req, res) => {
  // Read the request body as the app does, then send the stored answer.
  req.on("data", () => undefined);
  req.on("end", () => {
    res.writeHead(200, { ...bare.headers, "content-length": String(bare.body.length) });
    res.end(bare.body);
  });
});
const barePort = await new Promise<number>((resolve) => bareServer.listen(0, "127.0.0.1", () => resolve((bareServer.address() as AddressInfo).port)));

// The same bytes through Hono on @hono/node-server and nothing else (the body read, the answer sent): what
// the framework itself costs, the ceiling of any app on it. Resolved from @voar/hono-edge, which depends on both,
// and imported as the app imports them (their ES module builds): @hono/node-server replaces the global
// `Response` with its own class, and a second copy (its CommonJS build) would put a class in there whose answers
// the app's copy does not recognize, sending every answer of the app through a Web stream.
const fromEdge = createRequire(new URL("../../packages/hono-edge/package.json", import.meta.url));
const esmEntry = (name: string): string => {
  let dir = path.dirname(fromEdge.resolve(name));
  const manifest = () => path.join(dir, "package.json");
  while (!existsSync(manifest()) || (JSON.parse(readFileSync(manifest(), "utf8")) as { name?: string }).name !== name) dir = path.dirname(dir);
  const entry = (JSON.parse(readFileSync(manifest(), "utf8")) as { exports: { ".": { import: string | { default: string } } } }).exports["."].import;
  return pathToFileURL(path.join(dir, typeof entry === "string" ? entry : entry.default)).href;
};
const { Hono } = (await import(esmEntry("hono"))) as typeof import("hono");
const { serve } = (await import(esmEntry("@hono/node-server"))) as typeof import("@hono/node-server");
const framework = new Hono().post("*", async (c) => {
  await c.req.arrayBuffer();
  return c.body(new Uint8Array(bare.body.buffer, bare.body.byteOffset, bare.body.byteLength), 200, bare.headers);
});
const frameworkPort = await new Promise<number>((resolve) => serve({ fetch: framework.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port)));
// The same, but each answer its own, as every answer of the service must be (each carries its request's id, in
// its body and its `X-Request-Id`): the bytes copied into a new array per request, a new id, the headers a plain
// record as the app's Consultar answers them. The least any answer with its own RequestId costs on the framework.
const frameworkOwn = new Hono().post("*", async (c) => {
  await c.req.arrayBuffer();
  const bytes = new Uint8Array(bare.body.byteLength);
  bytes.set(bare.body);
  return new Response(bytes, { status: 200, headers: { ...bare.headers, "X-Request-Id": crypto.randomUUID() } });
});
const frameworkOwnPort = await new Promise<number>((resolve) => serve({ fetch: frameworkOwn.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port)));

// The poll path's question, on bare node:http: an answer with a fresh request id in its middle (as every answer of the
// service carries its RequestId), written as three parts (the shared bytes before it, the id, the shared bytes after
// it: one writeHead, then corked writes, one writev) against one new buffer per request with the id copied in.
const writeWith = (parts: boolean) =>
  http.createServer((req, res) => {
    req.on("data", () => undefined);
    req.on("end", () => {
      const at = bare.body.length >> 1;
      const [before, after] = [bare.body.subarray(0, at), bare.body.subarray(at)];
      const id = Buffer.from(crypto.randomUUID());
      const length = before.length + id.length + after.length;
      res.writeHead(200, { ...bare.headers, "content-length": String(length) });
      if (parts) {
        res.write(before);
        res.write(id);
        res.end(after);
      } else {
        const joined = Buffer.allocUnsafe(length);
        before.copy(joined, 0);
        id.copy(joined, before.length);
        after.copy(joined, before.length + id.length);
        res.end(joined);
      }
    });
  });
const listen = (server: http.Server) => new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
const partsPort = await listen(writeWith(true));
const joinedPort = await listen(writeWith(false));

const send = (m: ChildMessage) => process.send!(m);
const collect = () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice: the first pass queues finalizers whose memory the second frees.
  gc?.();
  gc?.();
  return gc !== undefined;
};
/**
 * A full collection, then a second after V8's background threads returned the freed pages (it unmaps them
 * after the collection, not during it): a reading taken at once still counts in the resident set what the
 * collection freed.
 */
const settle = async () => {
  if (!collect()) return false;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return collect();
};

/** The profiler of `profile` messages, while one runs. */
let profiler: Session | undefined;
let profiledFrom: NodeJS.CpuUsage | undefined;

process.on("message", async (m: ParentMessage) => {
  if (m.type === "memory") {
    const collected = m.gc ? await settle() : false;
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    const cpu = process.cpuUsage();
    send({ type: "memory", id: m.id, rss, heapUsed, heapTotal, external, arrayBuffers, collected, cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (m.type === "profile") {
    if (m.action === "start") {
      profiler = new Session();
      profiler.connect();
      await profiler.post("Profiler.enable");
      // 1 ms between samples (V8's default is 1 ms under the inspector too): enough samples over a round of searches.
      await profiler.post("Profiler.setSamplingInterval", { interval: 1_000 });
      await profiler.post("Profiler.start");
      profiledFrom = process.cpuUsage();
      send({ type: "ok", id: m.id });
    } else if (profiler) {
      const { profile } = (await profiler.post("Profiler.stop")) as { profile: CpuProfile };
      const cpu = process.cpuUsage(profiledFrom);
      profiler.disconnect();
      profiler = undefined;
      // `VOAR_BENCH_PROFILE_OUT=<file>`: the profile itself too, to read by function (Chrome's DevTools open it).
      const out = process.env["VOAR_BENCH_PROFILE_OUT"];
      if (out) writeFileSync(out, JSON.stringify(profile));
      send({ type: "profiled", id: m.id, parts: cpuByPart(profile), cpuMs: (cpu.user + cpu.system) / 1000 });
    }
  } else if (m.type === "bare") {
    bare = { body: Buffer.from(m.body), headers: m.headers };
    send({ type: "ok", id: m.id });
  }
});
process.on("disconnect", () => process.exit(0));
send({ type: "ready", appPort, barePort, frameworkPort, frameworkOwnPort, partsPort, joinedPort });
