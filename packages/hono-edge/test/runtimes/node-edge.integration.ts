import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import type { ServerType } from "@hono/node-server";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import type { ServiceConfigInput } from "../../src/config/config-schema.js";
import { serveNode } from "../../src/entries/node-server.js";
import { API_KEY, fastSources, memoryLogger, testConfig } from "../support/app.js";

/**
 * The Node entry's HTTP edge over real loopback sockets, with short configured timeouts: slow-loris
 * connections are closed by the server, the connection cap holds, a client abort mid-body is logged as an
 * abort, and a rejected body ends the connection. Every wait is on a socket event; the test's own timeout
 * bounds them.
 */

const servers: ServerType[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const start = async (http: NonNullable<ServiceConfigInput["http"]>) => {
  const logs = memoryLogger();
  const config = testConfig({ http });
  const app = createApp({ config, sources: fastSources(), logger: logs.logger });
  const port = await new Promise<number>((resolve) => {
    servers.push(serveNode({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", http: config.http }, (info: AddressInfo) => resolve(info.port)));
  });
  return { port, logs };
};

/** A connected socket that records what it receives and whether the server closed it. */
const open = (port: number) =>
  new Promise<{ socket: Socket; received: () => string; closed: Promise<void> }>((resolve) => {
    let data = "";
    const socket = connect(port, "127.0.0.1");
    sockets.push(socket);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", () => undefined);
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.once("connect", () => resolve({ socket, received: () => data, closed }));
  });

describe("the Node entry's HTTP edge", () => {
  it("closes slow-loris connections (headers never finished, or a body that trickles) by the configured timeouts", async () => {
    // Every socket of these tests comes from one address: the cap per address is set as high as the server's.
    const { port } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 200, maxConnections: 100, maxConnectionsPerAddress: 100 });
    const loris = await Promise.all(Array.from({ length: 30 }, () => open(port)));
    const timers = loris.map(({ socket }, i) => {
      socket.write(i % 2 === 0 ? "POST /api/Token HTTP/1.1\r\nHost: x\r\n" : `POST /api/ConsultaAereo/Consultar HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Length: 10000\r\n\r\n{`);
      // One more byte now and then: each write alone would keep an idle-timeout-only server waiting forever.
      return setInterval(() => socket.writable && socket.write(i % 2 === 0 ? "X-a: b\r\n" : " "), 50);
    });
    try {
      await Promise.all(loris.map((l) => l.closed));
    } finally {
      timers.forEach(clearInterval);
    }
    for (const l of loris) expect(l.received()).toMatch(/^(HTTP\/1\.1 408|$)/);
    // The server still serves.
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });

  it("holds at most maxConnections: one more is closed at once, while those already open are served", async () => {
    const { port } = await start({ headersTimeoutMs: 30_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, maxConnections: 5, maxConnectionsPerAddress: 5 });
    const held = await Promise.all(Array.from({ length: 5 }, () => open(port)));
    const extra = await open(port);
    await extra.closed;
    // Answered 429 LIMITE_EXCEDIDO and closed (Node's own cap closed it without a word).
    expect(extra.received()).toMatch(/^HTTP\/1\.1 429 [^]*LIMITE_EXCEDIDO/);
    held[0]!.socket.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    await held[0]!.closed;
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200/);
  });

  it("a client that disconnects mid-body is logged as an abort, not as an unhandled error", async () => {
    const { port, logs } = await start({});
    const seen = new Promise<void>((resolve) => {
      const original = logs.logger.log;
      logs.logger.log = (r) => {
        original(r);
        if (r.msg === "request") resolve();
      };
    });
    const client = await open(port);
    client.socket.write("POST /api/Token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\ngrant_type=pass");
    await new Promise<void>((resolve) => setImmediate(resolve));
    client.socket.destroy();
    await seen;
    expect(logs.records.some((r) => r.msg === "unhandled")).toBe(false);
    expect(logs.records.find((r) => r.msg === "request.aborted")).toMatchObject({ level: "info", path: "/api/Token" });
    expect(logs.records.find((r) => r.msg === "request")).toMatchObject({ level: "info", status: 499 });
  });

  it("after a 401 to a large body the server answers Connection: close and ends the connection, without reading the rest", async () => {
    const { port } = await start({});
    const client = await open(port);
    client.socket.write(
      `POST /api/ConsultaAereo/Consultar HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong-${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 130000000\r\n\r\n{"a":`,
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 401/);
    expect(client.received().toLowerCase()).toContain("connection: close");
  });
});
