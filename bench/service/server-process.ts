/**
 * The service under load, in its own process (so that its resident memory is its own, and the load
 * generator has the other core): `voar-server` itself, the production entry (`packages/hono-edge/src/node.ts`:
 * configuration from `VOAR_*` variables, @hono/node-server with the configured limits, the request log on, as
 * JSON lines on stdout) and, beside it, a bare `node:http` server that answers any request with the bytes it
 * was given. Forked by `service-process.ts`, which sets the service's variables (its upstream: the fake
 * upstream in a third process); driven over IPC (memory readings, the bare server's answer).
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import type { ChildMessage, ParentMessage } from "./service-process.js";

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
  for (let i = 0; i < 600; i++) {
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
process.env["VOAR_PORT"] = String(appPort);
process.env["VOAR_HOSTNAME"] = "127.0.0.1";
await import("../../packages/hono-edge/src/node.js");
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
    const cpu = process.cpuUsage();
    send({ type: "memory", id: m.id, rss, heapUsed, collected, cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (m.type === "bare") {
    bare = { body: Buffer.from(m.body), headers: m.headers };
    send({ type: "ok", id: m.id });
  }
});
process.on("disconnect", () => process.exit(0));
send({ type: "ready", appPort, barePort });
