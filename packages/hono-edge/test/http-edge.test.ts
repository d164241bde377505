import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ADMIN_KEY, answerOf, API_KEY, NOW, post, QUERY, testApp } from "./support/app.js";
import { parseSse, settle } from "./support/sse.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const CONSULTAR = "/api/ConsultaAereo/Consultar";
const STREAM = "/api/ConsultaAereo/Stream";

describe("method and media type", () => {
  it.each([
    ["GET", CONSULTAR, "POST"],
    ["PUT", STREAM, "POST"],
    ["GET", "/api/Token", "POST"],
    ["DELETE", "/api/admin/pagante", "GET, PUT"],
    ["POST", "/health", "GET"],
    ["POST", "/ready", "GET"],
  ])("%s %s: 405 with Allow: %s, in the envelope", async (method, path, allow) => {
    const { app } = testApp();
    const res = await app.request(path, { method, headers: { Authorization: `Bearer ${API_KEY}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    const body = await answerOf(res);
    expect(body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA", Retentavel: false });
    expect(body.MensagemErro).toContain(`Método ${method} não permitido`);
  });

  it("an unknown path is still 404", async () => {
    const { app } = testApp();
    expect((await app.request("/api/nope", { method: "GET" })).status).toBe(404);
  });

  it.each(["application/xml", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"])(
    "a JSON route refuses Content-Type %s with 415 naming Content-Type",
    async (type) => {
      const { app } = testApp();
      const res = await post(app, CONSULTAR, QUERY, { "Content-Type": type });
      expect(res.status).toBe(415);
      const body = await answerOf(res);
      expect(body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA", Campos: [{ Campo: "Content-Type" }] });
      const admin = await app.request("/api/admin/pagante", { method: "PUT", headers: { "X-Admin-Key": ADMIN_KEY, "Content-Type": type }, body: "{}" });
      expect(admin.status).toBe(415);
    },
  );

  it.each([undefined, "application/json", "application/json; charset=utf-8", "application/vnd.api+json", "text/plain;charset=UTF-8"])(
    "a JSON route accepts Content-Type %s (absent: clients that send JSON without one)",
    async (type) => {
      const { app } = testApp();
      const res = await app.request(CONSULTAR, {
        method: "POST",
        headers: { Authorization: `Bearer ${API_KEY}`, ...(type ? { "Content-Type": type } : {}) },
        body: JSON.stringify(QUERY),
      });
      expect(res.status).toBe(200);
    },
  );

  it("a legacy client (compat \"legacy\") is never refused for its Content-Type", async () => {
    const legacyKey = "legacy-api-key-0123456789";
    const { app } = testApp({ configInput: { apiKeys: [{ name: "old", key: legacyKey, compat: "legacy" }] } });
    const res = await post(app, CONSULTAR, QUERY, { Authorization: `Bearer ${legacyKey}`, "Content-Type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(200);
    expect((await answerOf(res)).Success).toBe(true);
  });

  it("/api/Token still takes a form body", async () => {
    const { app } = testApp();
    const res = await app.request("/api/Token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=password&username=agencia1&password=s3nha-da-agencia",
    });
    expect(res.status).toBe(200);
  });
});

describe("rejecting a body closes the connection", () => {
  it("401 and 413 answer Connection: close, so the server stops reading what the client still sends", async () => {
    const { app } = testApp();
    const unauthorized = await post(app, CONSULTAR, QUERY, { Authorization: "Bearer wrong-key-0123456789" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("connection")).toBe("close");
    const tooLarge = await post(app, CONSULTAR, JSON.stringify({ ...QUERY, pad: "x".repeat(20_000) }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get("connection")).toBe("close");
    const tokenTooLarge = await app.request("/api/Token", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "x".repeat(20_000) });
    expect(tokenTooLarge.status).toBe(413);
    expect(tokenTooLarge.headers.get("connection")).toBe("close");
    // An ordinary answer keeps the connection.
    expect((await post(app, CONSULTAR, QUERY)).headers.get("connection")).toBeNull();
  });
});

describe("open SSE streams and the shutdown signal", () => {
  it("20 open streams add one listener to the shared shutdown signal, not one each (no MaxListenersExceededWarning)", async () => {
    const shutdown = new AbortController();
    const { app } = testApp({ signal: shutdown.signal });
    const streams = await Promise.all(Array.from({ length: 20 }, () => post(app, STREAM, QUERY)));
    expect(streams.every((r) => r.status === 200)).toBe(true);
    expect(getEventListeners(shutdown.signal, "abort").length).toBe(1);
    // Shutdown still ends every stream.
    shutdown.abort();
    const texts = await settle(Promise.all(streams.map((r) => r.text())));
    for (const text of texts) expect(parseSse(text).length).toBeGreaterThan(0);
  });
});
