import { connect, type AddressInfo, type Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ServerType } from "@hono/node-server";
import { createSimulator } from "@voar/testing/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import type { ServiceConfigInput } from "../../src/config/config-schema.js";
import { serveNode } from "../../src/entries/node-server.js";
import { daysAhead } from "../contract/contract-target.js";
import { API_KEY, memoryLogger, testConfig } from "../support/app.js";

/**
 * Clients that hold the door: 2,000 slow-loris sockets from 8 loopback addresses against a real Node server with
 * its defaults (1,024 connections, 256 per address, 10 s for the headers), and 1,000 SSE clients that never read
 * their stream. Fresh connections and the probes must still be answered; the silent streams must be cut and their
 * memory given back.
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const servers: ServerType[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const start = async (http: NonNullable<ServiceConfigInput["http"]> = {}) => {
  const logs = memoryLogger();
  const config = testConfig({ http, search: { ttlMs: 60_000 }, limits: { rateLimit: { capacity: 100_000, refillPerSecond: 100_000 } } });
  const app = createApp({ config, sources: createSimulator({ latencyMs: (id) => (id === "latam" ? 200 : 1_500), batches: 3 }).sources, logger: logs.logger });
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    servers.push((server = serveNode({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", http: config.http, logger: logs.logger }, (info: AddressInfo) => resolve(info.port))));
  });
  /** Connections the server holds open now (its side: a client that does not read cannot see its socket closed). */
  const held = () => new Promise<number>((resolve) => server!.getConnections((_, n) => resolve(n)));
  return { port, logs, held };
};

/** One whole exchange on a fresh connection from `localAddress`: the status, or the error that ended it (a reset). */
const fresh = (port: number, localAddress: string, raw: string) =>
  new Promise<number | string>((resolve) => {
    const s = connect({ port, host: "127.0.0.1", localAddress });
    let data = "";
    s.setEncoding("utf8");
    s.on("data", (chunk: string) => {
      data += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (status && /\r\n\r\n/.test(data)) {
        s.destroy();
        resolve(Number(status[1]));
      }
    });
    s.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    s.on("close", () => resolve(data === "" ? "closed unanswered" : `incomplete: ${data.slice(0, 40)}`));
    s.setTimeout(5_000, () => (s.destroy(), resolve("no answer within 5 s")));
    s.write(raw);
  });

describe("slow-loris: 2,000 sockets from 8 addresses that send their headers a byte at a time", () => {
  it("fresh connections from another address, /health and /ready among them, are all answered while they hold the server full", async () => {
    const { port, logs } = await start();
    let stop = false;
    let opened = 0;
    /** An attacker's socket: a request line, then a header byte every 2 s; opened again whenever the server closes it. */
    const attack = (localAddress: string) => {
      if (stop) return;
      const s = connect({ port, host: "127.0.0.1", localAddress });
      opened++;
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("connect", () => s.write("GET /api/ConsultaAereo/Consultar HTTP/1.1\r\nHost: x\r\nX-A: "));
      const drip = setInterval(() => s.writable && s.write("a"), 2_000);
      s.once("close", () => {
        clearInterval(drip);
        sockets.delete(s);
        setTimeout(() => attack(localAddress), 200);
      });
    };
    for (let a = 0; a < 8; a++) for (let i = 0; i < 250; i++) attack(`127.0.0.${2 + a}`);
    await sleep(2_000); // the server full

    const answers: (number | string)[] = [];
    const probes = ["GET /health HTTP/1.1\r\nHost: x\r\n\r\n", "GET /ready HTTP/1.1\r\nHost: x\r\n\r\n", `POST /api/ConsultaAereo/Consultar HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${JSON.stringify({ Origem: "GRU", Destino: "LIS", Ida: daysAhead(30) }).length}\r\n\r\n${JSON.stringify({ Origem: "GRU", Destino: "LIS", Ida: daysAhead(30) })}`];
    // For 12 s (past the headers timeout: the attackers are cut and come back), three fresh connections every 400 ms.
    for (let t = 0; t < 30; t++) {
      answers.push(...(await Promise.all(probes.map((p, i) => fresh(port, `127.0.0.${60 + ((t + i) % 4)}`, p)))));
      await sleep(400);
    }
    stop = true;
    const held = sockets.size;
    console.log(`slow-loris: ${opened} attacking connections opened, ${held} open at the end; fresh answers ${JSON.stringify(answers.reduce<Record<string, number>>((m, a) => ({ ...m, [a]: (m[String(a)] ?? 0) + 1 }), {}))}`);
    console.log(`slow-loris logs: ${JSON.stringify(logs.records.filter((r) => r.msg !== "request").slice(0, 6))}`);
    expect(opened).toBeGreaterThanOrEqual(2_000);
    expect(answers.filter((a) => a !== 200)).toEqual([]);
    expect(answers).toHaveLength(90);
  }, 60_000);
});

describe("1,000 SSE clients that never read their stream", () => {
  it("are all closed by the server within a minute (cut when Node holds their unread bytes, else at the keep-alive timeout once the kernel took them), memory bounded meanwhile and given back", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const memory = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.external + m.arrayBuffers;
    };
    const { port, logs, held } = await start({ sseMaxBufferedBytes: 65_536, sseStalledMs: 3_000, maxConnectionsPerAddress: 2_000, maxConnections: 4_000 });
    const body = JSON.stringify({ Origem: "GRU", Destino: "LIS", Ida: daysAhead(40), QuantidadePorPagina: 100 });
    const request = `POST /api/ConsultaAereo/Stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    // A reading client first: the largest event of the search, to size the bound.
    const reference = await new Promise<number>((resolve) => {
      const s = connect({ port, host: "127.0.0.1" });
      let text = "";
      s.setEncoding("utf8");
      s.on("data", (c: string) => (text += c));
      s.on("error", () => undefined);
      const done = setInterval(() => {
        if (!/"Completed":true/.test(text)) return;
        clearInterval(done);
        s.destroy();
        resolve(Math.max(...text.split("\n\n").map((e) => Buffer.byteLength(e))));
      }, 100);
      s.write(request);
    });
    const before = memory();
    const body2 = JSON.stringify({ Origem: "GRU", Destino: "LIS", Ida: daysAhead(41), QuantidadePorPagina: 100 });
    const silent = `POST /api/ConsultaAereo/Stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body2.length}\r\n\r\n${body2}`;
    for (let i = 0; i < 1_000; i++) {
      const s = connect({ port, host: "127.0.0.1" });
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("connect", () => {
        s.write(silent);
        s.pause(); // never reads
      });
    }
    let peak = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.external + m.arrayBuffers);
    }, 200);
    // Every silent stream closed by the server (its side), within a minute: the search ends in seconds, then the
    // unread bytes stall for sseStalledMs (or an idle connection times out).
    let open = await held();
    const openedAt = Date.now();
    for (; open > 0 && Date.now() - openedAt < 60_000; open = await held()) await sleep(250);
    clearInterval(sampler);
    const closedMs = Date.now() - openedAt;
    for (const s of sockets) s.destroy(); // the clients leave
    sockets.clear();
    await sleep(500);
    const after = memory();
    const mb = (n: number) => Math.round(n / 1_048_576);
    const cut = logs.records.filter((r) => r.msg === "http.rejected" && r["reason"] === "slow-reader");
    console.log(`silent SSE: the largest event ${reference} bytes; all closed by the server ${closedMs} ms after they connected (${open} left); memory ${mb(before)} MB before, peak ${mb(peak)} MB, ${mb(after)} MB after; cut as slow readers (first line of the summary) ${JSON.stringify(cut.slice(0, 1))}`);
    expect(open).toBe(0);
    // Bounded: each silent stream holds at most its bound and one event (plus the search shared by all).
    expect(peak - before).toBeLessThan(1_000 * (65_536 + 2 * reference) + 64 * 1_048_576);
    // Given back: within 10% (or 16 MB) of where it was.
    expect(after - before).toBeLessThan(Math.max(0.1 * before, 16 * 1_048_576));
  }, 90_000);
});
