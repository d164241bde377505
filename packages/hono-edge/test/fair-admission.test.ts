import type { Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../src/app/create-app.js";
import { serveNode } from "../src/entries/node-server.js";
import { fastSources, memoryLogger, testConfig } from "./support/app.js";

/** A real Node server with tiny caps, over loopback addresses of their own (127.0.0.x): who gets in when it is full. */

const open = new Set<Socket>();
let server: Server | undefined;
afterEach(async () => {
  for (const s of open) s.destroy();
  open.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const start = async () => {
  const logs = memoryLogger();
  const config = testConfig({ http: { maxConnections: 4, maxConnectionsPerAddress: 3 } });
  const app = createApp({ config, sources: fastSources(), logger: logs.logger });
  let seen = 0;
  const port = await new Promise<number>((resolve) => {
    server = serveNode({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", http: config.http, logger: logs.logger }, (info: AddressInfo) => resolve(info.port)) as Server;
  });
  server!.on("connection", () => void seen++);
  /** Resolves once the server has taken `n` connections in all (each counted after the admission's own listener). */
  const taken = async (n: number) => {
    while (seen < n) await new Promise((resolve) => setImmediate(resolve));
  };
  return { port, logs, taken };
};

/** A socket that sends half a request line and waits (slow-loris); resolves when it closes, with what it got. */
const idle = (port: number, localAddress: string) => {
  const s = connect({ port, host: "127.0.0.1", localAddress });
  open.add(s);
  s.on("error", () => undefined);
  s.write("GET /api/ConsultaAereo/Consultar HTTP/1.1\r\nHost: x\r\nX-Slow: ");
  let got = "";
  s.on("data", (c: Buffer) => (got += c.toString("utf8")));
  return { socket: s, closed: new Promise<string>((resolve) => s.once("close", () => resolve(got))) };
};

/** One request on a fresh connection; the status it got. */
const ask = (port: number, localAddress: string, path: string) =>
  new Promise<number>((resolve, reject) => {
    const s = connect({ port, host: "127.0.0.1", localAddress });
    open.add(s);
    let got = "";
    s.on("data", (c: Buffer) => {
      got += c.toString("utf8");
      const m = /^HTTP\/1\.1 (\d{3})[^]*\r\n\r\n/.exec(got);
      if (m) resolve(Number(m[1]));
    });
    s.on("error", reject);
    s.on("close", () => reject(new Error(`closed with ${JSON.stringify(got.slice(0, 60))}`)));
    s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });

describe("a full server (Node entry)", () => {
  it("a new address takes the place of an idle connection of the address holding the most; a full, fair server still answers /health and /ready, and nothing else", async () => {
    const { port, taken } = await start();
    const hog = [1, 2, 3].map(() => idle(port, "127.0.0.2"));
    const other = idle(port, "127.0.0.3");
    await taken(4); // full: 3 + 1
    expect(await ask(port, "127.0.0.4", "/health")).toBe(200); // the hog's oldest idle socket made room
    expect(await hog[0]!.closed).toBe(""); // closed without a word: it had sent no whole request
    // 2 + 1 + 1 (the answered connection stays open, idle): the hog still holds two more than a new address.
    expect(await ask(port, "127.0.0.5", "/ready")).toBe(200);
    expect(await hog[1]!.closed).toBe("");
    // 1 + 1 + 1 + 1: nobody holds two more than a newcomer; the room beyond the cap answers the probes only.
    expect(await ask(port, "127.0.0.6", "/ready")).toBe(200);
    expect(await ask(port, "127.0.0.6", "/health")).toBe(200);
    expect(await ask(port, "127.0.0.6", "/api/openapi.json")).toBe(429);
    expect([hog[2]!.socket.destroyed, other.socket.destroyed]).toEqual([false, false]);
  });

  it("one address holds maxConnectionsPerAddress at most: one more is answered 429 and closed", async () => {
    const { port, taken } = await start();
    for (let i = 0; i < 3; i++) idle(port, "127.0.0.6");
    await taken(3);
    const refused = await idle(port, "127.0.0.6").closed;
    expect(refused).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused).toMatch(/LIMITE_EXCEDIDO/);
  });
});
