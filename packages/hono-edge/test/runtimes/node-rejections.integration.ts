import { connect, type AddressInfo } from "node:net";
import type { ServerType } from "@hono/node-server";
import { ErrorEnvelopeSchema } from "@voar/core";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import type { ServiceConfigInput } from "../../src/config/config-schema.js";
import { serveNode } from "../../src/entries/node-server.js";
import { fastSources, memoryLogger, testConfig } from "../support/app.js";

/**
 * What Node refuses before the app runs, over raw loopback sockets: each answer is a whole HTTP/1.1 answer
 * with the error envelope, `Content-Length` right, `Connection: close`, and the server closes the socket.
 */

const servers: ServerType[] = [];
afterEach(async () => {
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

/** Writes raw bytes and collects everything the server sends until it closes the socket. */
const exchange = (port: number, raw: string, options: { readonly closeAfterMs?: number } = {}) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1");
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.once("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.write(raw);
    if (options.closeAfterMs !== undefined) setTimeout(() => socket.end(), options.closeAfterMs);
  });

/** Splits one raw answer: status, headers (lower-case names), body; checks Content-Length against the bytes. */
const parse = (raw: string) => {
  const at = raw.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = raw.slice(0, at).split("\r\n");
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()] as const));
  const body = raw.slice(at + 4);
  expect(Number(headers.get("content-length"))).toBe(Buffer.byteLength(body));
  return { status: Number(statusLine!.split(" ")[1]), statusLine: statusLine!, headers, body: JSON.parse(body) as Record<string, unknown> };
};

/** Checks an answer is the failure envelope with this status and code, and returns it. */
const expectEnvelope = (raw: string, status: number, codigo: string, retentavel: boolean) => {
  const answer = parse(raw);
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(answer.headers.get("x-request-id")).toEqual(answer.body["RequestId"]);
  expect(ErrorEnvelopeSchema.safeParse(answer.body).success).toBe(true);
  expect(answer.body).toMatchObject({ Success: false, Completed: true, Data: [], Erro: { Codigo: codigo, Retentavel: retentavel } });
  return answer;
};

describe("Node-level refusals answer with the error envelope", () => {
  it("headers over Node's limit: 431 REQUISICAO_INVALIDA, not retryable, Connection: close", async () => {
    const { port, logs } = await start();
    const raw = await exchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    const answer = expectEnvelope(raw, 431, "REQUISICAO_INVALIDA", false);
    expect(answer.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(answer.headers.get("connection")).toBe("close");
    expect(answer.body["MensagemErro"]).toMatch(/cabeçalhos da requisição excedem o tamanho máximo permitido de 16384 bytes/);
    expect(logs.records.find((r) => r.msg === "http.rejected")).toMatchObject({ level: "info", reason: "HPE_HEADER_OVERFLOW", client: "127.0.0.1" });
  });

  it("malformed framing (Content-Length with Transfer-Encoding, a request line that is no request): 400 REQUISICAO_INVALIDA", async () => {
    const { port } = await start();
    for (const request of ["POST /api/Token HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "BLAH\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"]) {
      const answer = expectEnvelope(await exchange(port, request), 400, "REQUISICAO_INVALIDA", false);
      expect(answer.headers.get("connection")).toBe("close");
      expect(answer.body["MensagemErro"]).toMatch(/malformada/);
    }
  });

  it("a request target that is no path (`POST *`, `GET foo`) or a bad Host: 400 REQUISICAO_INVALIDA saying what to send", async () => {
    const { port } = await start();
    // The asterisk form gets its 400 and the connection closed, though the client did not ask for it.
    for (const method of ["POST", "OPTIONS"]) {
      const star = expectEnvelope(await exchange(port, `${method} * HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`), 400, "REQUISICAO_INVALIDA", false);
      expect(star.body["MensagemErro"]).toMatch(/alvo da requisição ou o cabeçalho Host é inválido/);
      expect(star.headers.get("connection")).toBe("close");
    }
    const relative = expectEnvelope(await exchange(port, "GET foo HTTP/1.1\r\nHost: x\r\n\r\n"), 400, "REQUISICAO_INVALIDA", false);
    expect(relative.body["MensagemErro"]).toMatch(/alvo da requisição é inválido/);
    const host = expectEnvelope(await exchange(port, "GET /ready HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n"), 400, "REQUISICAO_INVALIDA", false);
    expect(host.body["MensagemErro"]).toMatch(/Host válido/);
  });

  it("a request that does not arrive in time: 408 TEMPO_ESGOTADO, retryable, and the socket closed", async () => {
    const { port } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const started = Date.now();
    const raw = await exchange(port, "POST /api/Token HTTP/1.1\r\nHost: x\r\n");
    expect(Date.now() - started).toBeLessThan(5_000);
    const answer = expectEnvelope(raw, 408, "TEMPO_ESGOTADO", true);
    expect(answer.statusLine).toBe("HTTP/1.1 408 Request Timeout");
    expect(answer.body["MensagemErro"]).toMatch(/não chegou por inteiro dentro do tempo limite/);
  });

  it("a body that trickles past requestTimeoutMs: 408 with the envelope too, the route that waited for it not waited for", async () => {
    const { port } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const raw = await new Promise<string>((resolve) => {
      let data = "";
      const socket = connect(port, "127.0.0.1");
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (data += chunk));
      socket.on("error", () => undefined);
      socket.write("POST /api/Token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\ngrant_type=");
      const trickle = setInterval(() => socket.writable && socket.write("a"), 50);
      socket.once("close", () => (clearInterval(trickle), resolve(data)));
    });
    expectEnvelope(raw, 408, "TEMPO_ESGOTADO", true);
  });

  it("a malformed request pipelined after a good one: the good one's answer comes whole, then the envelope", async () => {
    const { port } = await start();
    const raw = await exchange(port, "GET /health HTTP/1.1\r\nHost: x\r\n\r\nBLAH\r\n\r\n");
    const second = raw.indexOf("HTTP/1.1 400");
    expect(raw.slice(0, second)).toMatch(/^HTTP\/1\.1 200 [^]*\{"status":"ok"\}$/);
    expectEnvelope(raw.slice(second), 400, "REQUISICAO_INVALIDA", false);
  });

  it("an HTTP/1.1 request without Host: 400 REQUISICAO_INVALIDA naming Host (Node's own answer is a bare 400)", async () => {
    const { port } = await start();
    const answer = expectEnvelope(await exchange(port, "GET /ready HTTP/1.1\r\nConnection: close\r\n\r\n"), 400, "REQUISICAO_INVALIDA", false);
    expect(answer.body["Erro"]).toMatchObject({ Campos: [{ Campo: "Host" }] });
    // The liveness route too, answered before the app: 400 and the connection closed.
    const health = expectEnvelope(await exchange(port, "GET /health HTTP/1.1\r\n\r\n"), 400, "REQUISICAO_INVALIDA", false);
    expect([health.body["Erro"], health.headers.get("connection")]).toMatchObject([{ Campos: [{ Campo: "Host" }] }, "close"]);
    expect(answer.body["MensagemErro"]).toMatch(/cabeçalho Host/);
    // HTTP/1.0 has no Host: answered as usual.
    expect(parse(await exchange(port, "GET /ready HTTP/1.0\r\n\r\n")).status).toBe(200);
  });

  it("an Expect the server does not meet: 417 REQUISICAO_INVALIDA naming Expect; 100-continue still works", async () => {
    const { port, logs } = await start();
    const answer = expectEnvelope(await exchange(port, "POST /api/Token HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 0\r\n\r\n"), 417, "REQUISICAO_INVALIDA", false);
    expect(answer.statusLine).toBe("HTTP/1.1 417 Expectation Failed");
    expect(answer.body["Erro"]).toMatchObject({ Campos: [{ Campo: "Expect" }] });
    expect(logs.records.find((r) => r.msg === "http.rejected")).toMatchObject({ reason: "expectation" });
    const continued = await exchange(port, "GET /ready HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n");
    expect(continued).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it("CONNECT: 405 REQUISICAO_INVALIDA with Allow, instead of a socket closed unanswered", async () => {
    const { port } = await start();
    const answer = expectEnvelope(await exchange(port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"), 405, "REQUISICAO_INVALIDA", false);
    expect(answer.headers.get("allow")).toBe("GET, POST, PUT, OPTIONS");
    expect(answer.headers.get("connection")).toBe("close");
  });

  it("GET /health is answered before the app, in the turn that read it: while the app's every request waits on work queued behind it, liveness answers at once", async () => {
    const logs = memoryLogger();
    const config = testConfig();
    const app = createApp({ config, sources: fastSources(), logger: logs.logger });
    // The app's answers wait 3 s (a backlog of queued work); the entry's own /health does not.
    const slowFetch = (request: Request, env: unknown) => new Promise<Response>((resolve) => setTimeout(() => resolve(app.fetch(request, env)), 3_000));
    const port = await new Promise<number>((resolve) => {
      servers.push(serveNode({ fetch: slowFetch, port: 0, hostname: "127.0.0.1", http: config.http, logger: logs.logger }, (info: AddressInfo) => resolve(info.port)));
    });
    const pending = Array.from({ length: 50 }, () => fetch(`http://127.0.0.1:${port}/ready`));
    const t0 = performance.now();
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    const ms = performance.now() - t0;
    expect([health.status, await health.json(), health.headers.get("cache-control")]).toEqual([200, { status: "ok" }, "no-store"]);
    expect(ms).toBeLessThan(1_000);
    expect((await fetch(`http://127.0.0.1:${port}/health`, { method: "HEAD" })).status).toBe(200);
    expect((await Promise.all(pending)).every((r) => r.status === 200)).toBe(true);
  });

  it("many refusals make a few summary lines, not one per connection", async () => {
    const { port, logs } = await start();
    await Promise.all(Array.from({ length: 30 }, () => exchange(port, "BLAH\r\n\r\n")));
    const lines = logs.records.filter((r) => r.msg === "http.rejected");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", reason: "HPE_INVALID_METHOD" });
  });
});
