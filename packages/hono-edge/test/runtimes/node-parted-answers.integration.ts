import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import type { ServerType } from "@hono/node-server";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import type { ServiceConfigInput } from "../../src/config/config-schema.js";
import { serveNode } from "../../src/entries/node-server.js";
import { partedResponse, WRITES_PARTED_ANSWERS } from "../../src/http/parted-answer.js";
import { API_KEY, fastSources, memoryLogger, testConfig } from "../support/app.js";

/**
 * The Node entry writes a poll's answer as the shared written bytes and the request's id, one after another
 * (`parted-answer.ts`): on the wire it is the same answer, byte for byte, as the app gives in one array, framed by
 * its `Content-Length` so that a kept-alive connection carries the next answer intact.
 */

const servers: ServerType[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const start = async (configInput: Partial<ServiceConfigInput> = {}) => {
  const config = testConfig(configInput);
  const app = createApp({ config, sources: fastSources(), logger: memoryLogger().logger });
  const port = await new Promise<number>((resolve) => {
    servers.push(serveNode({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", http: config.http }, (info: AddressInfo) => resolve(info.port)));
  });
  return { app, port };
};

const HEADERS = { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" };

/** A search through the server, polled until complete; its Token. */
const completedSearch = async (port: number) => {
  const url = `http://127.0.0.1:${port}/api/ConsultaAereo/Consultar`;
  const query = { Origem: "CNF", Destino: "GRU", Ida: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10) };
  let answer = (await (await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify(query) })).json()) as { Token: string; Completed: boolean };
  while (!answer.Completed) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = (await (await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify({ Token: answer.Token }) })).json()) as typeof answer;
  }
  return answer.Token;
};

/** The raw request of a poll by Token. */
const pollRequest = (token: string, requestId: string, extra = "") => {
  const body = JSON.stringify({ Token: token });
  return `POST /api/ConsultaAereo/Consultar HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nX-Request-Id: ${requestId}\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

/** Sends raw requests on one connection and reads `count` answers, each framed by its Content-Length. */
const exchange = (port: number, requests: string, count: number) =>
  new Promise<{ readonly head: string; readonly headers: Record<string, string>; readonly body: Buffer }[]>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(requests));
    let data = Buffer.alloc(0);
    const answers: { head: string; headers: Record<string, string>; body: Buffer }[] = [];
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      for (;;) {
        const end = data.indexOf("\r\n\r\n");
        if (end < 0) return;
        const [head, ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
        const length = Number(headers["content-length"]);
        if (data.length < end + 4 + length) return;
        answers.push({ head: head!, headers, body: data.subarray(end + 4, end + 4 + length) });
        data = data.subarray(end + 4 + length);
        if (answers.length === count) {
          socket.destroy();
          return resolve(answers);
        }
      }
    });
  });

describe("the Node entry", () => {
  it("tells the app it writes parted answers, and writes their chunks one after another as the answer's body", async () => {
    const encoder = new TextEncoder();
    const chunks = ["{\"a\":", "\"é\"", ",\"b\":2}"].map((t) => encoder.encode(t));
    const config = testConfig();
    const fetch = (_: Request, env: unknown) =>
      (env as Record<symbol, unknown>)[WRITES_PARTED_ANSWERS] === true ? partedResponse(chunks, 201, { "content-type": "application/json", "X-Test": "1" }) : new Response("not marked", { status: 500 });
    const port = await new Promise<number>((resolve) => {
      servers.push(serveNode({ fetch, port: 0, hostname: "127.0.0.1", http: config.http }, (info: AddressInfo) => resolve(info.port)));
    });
    const request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    const answers = await exchange(port, request + request, 2);
    for (const answer of answers) {
      expect(answer.head).toBe("HTTP/1.1 201 Created");
      expect(answer.headers["x-test"]).toBe("1");
      expect(answer.body.toString("utf8")).toBe('{"a":"é","b":2}');
    }
  });
});

describe("the Node entry's answer to a poll", () => {
  it("is the app's answer byte for byte, its own RequestId in the body and X-Request-Id, two answers on one connection", async () => {
    const { app, port } = await start();
    const token = await completedSearch(port);
    const [a, b] = await exchange(port, pollRequest(token, "poll-a") + pollRequest(token, "poll-b"), 2);
    for (const [answer, id] of [[a!, "poll-a"], [b!, "poll-b"]] as const) {
      expect(answer.head).toBe("HTTP/1.1 200 OK");
      expect(answer.headers["x-request-id"]).toBe(id);
      expect(answer.headers["content-type"]).toBe("application/json; charset=UTF-8");
      expect(answer.headers["transfer-encoding"]).toBeUndefined();
      expect((JSON.parse(answer.body.toString("utf8")) as { RequestId: string; Token: string }).RequestId).toBe(id);
      // The app in one array, without the Node entry (as on every other runtime): the same bytes and tag.
      const whole = await app.request("/api/ConsultaAereo/Consultar", { method: "POST", headers: { ...HEADERS, "X-Request-Id": id }, body: JSON.stringify({ Token: token }) });
      expect(answer.body.equals(Buffer.from(await whole.arrayBuffer()))).toBe(true);
      expect(answer.headers["etag"]).toBe(whole.headers.get("etag"));
    }
  });

  it("carries the CORS headers a middleware adds once the answer exists, with the same body", async () => {
    const { port } = await start({ cors: { origins: ["https://app.example"] } });
    const token = await completedSearch(port);
    const [answer] = await exchange(port, pollRequest(token, "poll-c", "Origin: https://app.example\r\n"), 1);
    expect(answer!.headers["access-control-allow-origin"]).toBe("https://app.example");
    expect(answer!.headers["vary"]).toBe("Origin");
    expect((JSON.parse(answer!.body.toString("utf8")) as { RequestId: string }).RequestId).toBe("poll-c");
  });
});
