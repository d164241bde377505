import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { partedResponse, partsOf, WRITES_PARTED_ANSWERS } from "../src/http/parted-answer.js";
import { API_KEY, NOW, QUERY, testApp } from "./support/app.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const chunks = () => [encoder.encode('{"Token":"t-1","RequestId":"'), encoder.encode("req-7"), encoder.encode('","Completed":true}')];
const WHOLE = '{"Token":"t-1","RequestId":"req-7","Completed":true}';

describe("a parted answer", () => {
  it("gives its chunks, its length and the headers it was given to the entry that writes it", () => {
    const answer = partedResponse(chunks(), 200, { "content-type": "application/json", "X-Request-Id": "req-7" });
    const parts = partsOf(answer)!;
    expect(parts.status).toBe(200);
    expect(parts.length).toBe(encoder.encode(WHOLE).length);
    expect(decoder.decode(Buffer.concat(parts.chunks))).toBe(WHOLE);
    expect(parts.headers).toEqual({ "content-type": "application/json", "X-Request-Id": "req-7" });
    expect(partsOf(new Response("x"))).toBeUndefined();
  });

  it("is a whole answer to anything that reads its body: text, bytes, a clone, a copy made from its body", async () => {
    expect(await partedResponse(chunks(), 200, {}).text()).toBe(WHOLE);
    expect(decoder.decode(await partedResponse(chunks(), 200, {}).arrayBuffer())).toBe(WHOLE);
    expect(await partedResponse(chunks(), 200, {}).json()).toEqual(JSON.parse(WHOLE));
    expect(await partedResponse(chunks(), 200, {}).clone().text()).toBe(WHOLE);
    // What a middleware that replaces the answer does (`new Response(res.body, res)`): body, status and headers kept.
    const original = partedResponse(chunks(), 502, { "X-Request-Id": "req-7" });
    const copy = new Response(original.body, { status: 200, headers: original.headers });
    expect(await copy.text()).toBe(WHOLE);
    expect(copy.headers.get("x-request-id")).toBe("req-7");
    expect(original.status).toBe(502);
  });

  it("leaves the entry its headers to read from the answer once anything read them (a middleware may have added some)", () => {
    const answer = partedResponse(chunks(), 200, { "X-Request-Id": "req-7" });
    answer.headers.set("Access-Control-Allow-Origin", "https://app.example");
    expect(partsOf(answer)!.headers).toBeUndefined();
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(answer.headers.get("x-request-id")).toBe("req-7");
  });
});

describe("Consultar's answer for an entry that writes parted answers", () => {
  beforeEach(() => vi.useFakeTimers({ now: NOW }));
  afterEach(() => vi.useRealTimers());

  const poll = (app: ReturnType<typeof testApp>["app"], body: unknown, requestId: string, env?: unknown) =>
    app.request(
      "/api/ConsultaAereo/Consultar",
      { method: "POST", headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json", "X-Request-Id": requestId }, body: JSON.stringify(body) },
      env,
    );

  it("is the written envelope and the request's id as chunks, the same bytes and headers as the answer in one array", async () => {
    const { app } = testApp();
    const token = ((await (await poll(app, QUERY, "start-1")).json()) as { Token: string }).Token;
    await vi.advanceTimersByTimeAsync(250);
    for (const body of [{ Token: token }, { Token: token, NumeroPagina: 2, QuantidadePorPagina: 3 }, QUERY]) {
      const whole = await poll(app, body, "poll-1");
      const parted = await poll(app, body, "poll-1", { [WRITES_PARTED_ANSWERS]: true });
      const parts = partsOf(parted)!;
      expect(parts).toBeDefined();
      expect(partsOf(whole)).toBeUndefined();
      // The shared bytes around the id, the id alone: nothing copied per request but the id.
      expect(parts.chunks).toHaveLength(3);
      expect(decoder.decode(parts.chunks[1])).toBe("poll-1");
      const bytes = Buffer.concat(parts.chunks);
      expect(bytes.length).toBe(parts.length);
      expect(bytes.equals(Buffer.from(await whole.arrayBuffer()))).toBe(true);
      expect((JSON.parse(bytes.toString("utf8")) as { RequestId: string }).RequestId).toBe("poll-1");
      expect(parts.status).toBe(whole.status);
      expect(Object.fromEntries(Object.entries(parts.headers!).map(([k, v]) => [k.toLowerCase(), v]))).toEqual(Object.fromEntries(whole.headers));
      expect(parts.headers!["X-Request-Id"]).toBe("poll-1");
    }
  });

  it("still carries CORS headers added after the route: the entry reads them from the answer", async () => {
    const { app } = testApp({ configInput: { cors: { origins: ["https://app.example"] } } });
    const token = ((await (await poll(app, QUERY, "start-1")).json()) as { Token: string }).Token;
    await vi.advanceTimersByTimeAsync(250);
    const res = await app.request(
      "/api/ConsultaAereo/Consultar",
      { method: "POST", headers: { Authorization: `Bearer ${API_KEY}`, Origin: "https://app.example", "X-Request-Id": "poll-2" }, body: JSON.stringify({ Token: token }) },
      { [WRITES_PARTED_ANSWERS]: true },
    );
    const parts = partsOf(res)!;
    expect(parts.headers).toBeUndefined();
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(((await res.json()) as { RequestId: string }).RequestId).toBe("poll-2");
  });
});
