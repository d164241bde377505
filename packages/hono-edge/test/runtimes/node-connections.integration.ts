import { connect, type AddressInfo, type Socket } from "node:net";
import type { ServerType } from "@hono/node-server";
import { ErrorEnvelopeSchema } from "@voar/core";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import type { ServiceConfigInput } from "../../src/config/config-schema.js";
import { serveNode } from "../../src/entries/node-server.js";
import { fastSources, memoryLogger, testConfig } from "../support/app.js";

/**
 * The connection cap per client address on a real server on a loopback port: one client (127.0.0.1)
 * holding many idle sockets, another (127.0.0.2, the same machine by another loopback address) still
 * served. Every wait is on a socket event; the test's timeout bounds them.
 */

const servers: ServerType[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const start = async (http: NonNullable<ServiceConfigInput["http"]> = {}) => {
  const logs = memoryLogger();
  const config = testConfig({ http });
  const app = createApp({ config, sources: fastSources(), logger: logs.logger });
  const port = await new Promise<number>((resolve) => {
    servers.push(serveNode({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", http: config.http, logger: logs.logger }, (info: AddressInfo) => resolve(info.port)));
  });
  return { port, logs };
};

interface Client {
  readonly socket: Socket;
  readonly received: () => string;
  readonly closed: Promise<void>;
  isClosed(): boolean;
}

/** A socket from a given loopback address that records what it receives and whether it was closed. */
const open = (port: number, from: string) =>
  new Promise<Client>((resolve, reject) => {
    let data = "";
    let closed = false;
    const socket = connect({ port, host: "127.0.0.1", localAddress: from });
    sockets.push(socket);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", () => undefined);
    const done = new Promise<void>((ok) => socket.once("close", () => ((closed = true), ok())));
    socket.once("connect", () => resolve({ socket, received: () => data, closed: done, isClosed: () => closed }));
    socket.once("error", reject);
  });

/** Sends one GET on a socket and waits for the server to close it (`Connection: close`). */
const get = async (client: Client, path: string) => {
  client.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  await client.closed;
  return client.received();
};

/** The JSON body of a raw HTTP answer. */
const bodyOf = (raw: string): unknown => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as unknown;

describe("connections per client address (Node entry)", () => {
  it("one client holding 1,100 idle sockets keeps 256 (the default, a quarter of the server's 1,024), the rest are refused, and another client is still served", async () => {
    const { port, logs } = await start();
    const hog = await Promise.all(Array.from({ length: 1_100 }, () => open(port, "127.0.0.1")));
    // Each refused socket is answered and closed at once (whichever the server accepted last); the 256 the cap
    // allows stay open, idle.
    await new Promise<void>((resolve) => {
      let closed = 0;
      for (const c of hog) void c.closed.then(() => ++closed >= 1_100 - 256 && resolve());
    });
    const refused = hog.filter((c) => c.isClosed());
    expect(refused).toHaveLength(1_100 - 256);
    const answered = refused.filter((c) => c.received() !== "");
    expect(answered.length).toBeGreaterThan(0);
    for (const c of answered) expect(c.received()).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n[^]*Retry-After: 1\r\n[^]*Connection: close\r\n\r\n/);
    const body = bodyOf(answered[0]!.received());
    expect(ErrorEnvelopeSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ Success: false, Erro: { Codigo: "LIMITE_EXCEDIDO", Retentavel: true }, MensagemErro: expect.stringContaining("256") });
    // Another client is served, several connections at once, while the hog still holds its 256.
    const others = await Promise.all(Array.from({ length: 10 }, () => open(port, "127.0.0.2")));
    const answers = await Promise.all(others.map((c) => get(c, "/health")));
    for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 200 /);
    expect(hog.filter((c) => !c.isClosed())).toHaveLength(256);
    // A summary line, not one per refused connection.
    const capped = logs.records.filter((r) => r.msg === "http.connections_capped");
    expect(capped).toEqual([{ level: "warn", msg: "http.connections_capped", client: "127.0.0.1", max: 256 }]);
  });

  it("a socket the client closes gives its place back; the cap is configurable (http.maxConnectionsPerAddress)", async () => {
    const { port } = await start({ maxConnectionsPerAddress: 3 });
    const held = await Promise.all(Array.from({ length: 3 }, () => open(port, "127.0.0.1")));
    const refused = await open(port, "127.0.0.1");
    await refused.closed;
    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The server sees the close a moment later: the next socket is served once it has.
    let answer = "";
    for (let attempt = 0; attempt < 50 && !answer.startsWith("HTTP/1.1 200"); attempt++) answer = await get(await open(port, "127.0.0.1"), "/health");
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(held.slice(1).some((c) => c.isClosed())).toBe(false);
  });

  it("behind a trusted proxy (every connection from the proxy's address) there is no cap per address unless one is set", async () => {
    const { port } = await start({ trustedProxyHeader: "x-forwarded-for", maxConnections: 300 });
    const proxy = await Promise.all(Array.from({ length: 200 }, () => open(port, "127.0.0.1")));
    const last = proxy.at(-1)!;
    expect(await get(last, "/health")).toMatch(/^HTTP\/1\.1 200 /);
    expect(proxy.slice(0, -1).some((c) => c.isClosed())).toBe(false);
  });
});
