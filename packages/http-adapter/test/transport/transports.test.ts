import { describe, expect, it } from "vitest";
import { MockAgent, errors } from "undici";
import { SourceTimeout, TransportError } from "@voar/core";
import { createFetchTransport, createUndiciTransport, transportFailure } from "../../src/index.js";

const post = (url: string, signal = new AbortController().signal) => ({ url, method: "POST" as const, headers: {}, body: "{}", signal });

describe("transports", () => {
  it("undici: status, headers and body of an answer", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get("http://u.test").intercept({ path: "/api/x", method: "POST" }).reply(429, "{}", { headers: { "retry-after": "2" } });
    const reply = await createUndiciTransport({ dispatcher: agent }).send(post("http://u.test/api/x"));
    expect([reply.status, reply.header("Retry-After"), reply.text]).toEqual([429, "2", "{}"]);
    await agent.close();
  });

  it("undici: a dropped connection is a TransportError naming the code, never the message", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get("http://u.test").intercept({ path: "/api/x", method: "POST" }).replyWithError(new errors.SocketError("other side closed"));
    const failure = createUndiciTransport({ dispatcher: agent }).send(post("http://u.test/api/x"));
    await expect(failure).rejects.toBeInstanceOf(TransportError);
    await expect(failure).rejects.toMatchObject({ detail: "falha ao enviar: UND_ERR_SOCKET" });
    await agent.close();
  });

  it("maps undici's timeout codes to SourceTimeout with the limit waited", () => {
    const signal = new AbortController().signal;
    const limits = { connectMs: 1, headersMs: 2, bodyMs: 3 };
    expect(transportFailure(new errors.HeadersTimeoutError(), signal, "x", limits)).toEqual(new SourceTimeout({ afterMs: 2 }));
    expect(transportFailure(new errors.BodyTimeoutError(), signal, "x", limits)).toEqual(new SourceTimeout({ afterMs: 3 }));
    expect(transportFailure(new errors.ConnectTimeoutError(), signal, "x", limits)).toEqual(new SourceTimeout({ afterMs: 1 }));
    const viaFetch = new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
    expect(transportFailure(viaFetch, signal, "falha ao enviar")).toEqual(new TransportError({ detail: "falha ao enviar: ECONNRESET" }));
  });

  it("an aborted request rejects with the signal's reason, on both transports", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    controller.abort(reason);
    const never = () => new Promise<Response>(() => undefined);
    await expect(createFetchTransport(never).send(post("http://u.test/x", controller.signal))).rejects.toBe(reason);
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get("http://u.test").intercept({ path: "/x", method: "POST" }).reply(200, "{}").delay(10_000);
    await expect(createUndiciTransport({ dispatcher: agent }).send(post("http://u.test/x", controller.signal))).rejects.toBe(reason);
    await agent.close();
  });

  it("fetch: a body cut in the middle is a TransportError", async () => {
    const cut = () =>
      Promise.resolve(
        new Response(
          new ReadableStream({
            start: (c) => c.enqueue(new TextEncoder().encode('{"Success":')),
            pull: (c) => c.error(new TypeError("terminated")),
          }),
        ),
      );
    await expect(createFetchTransport(cut).send(post("http://u.test/x"))).rejects.toMatchObject({ _tag: "TransportError", detail: "resposta interrompida: TypeError" });
  });
});
