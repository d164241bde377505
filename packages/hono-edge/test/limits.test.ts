import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTokenBucketLimiter } from "../src/limits/token-bucket.js";
import { answerOf, API_KEY, consultar, manualClock, NOW, OTHER_KEY, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const CONSULTAR = "/api/ConsultaAereo/Consultar";

describe("rate limit per tenant (token bucket, injected clock)", () => {
  it("allows a burst of `capacity`, then 429 with Retry-After until tokens come back", async () => {
    const clock = manualClock();
    const limiter = createTokenBucketLimiter({ capacity: 3, refillPerSecond: 0.25, clock });
    const take = async () => limiter.take("t");
    expect([await take(), await take(), await take()].every((d) => d.ok)).toBe(true);
    expect(await take()).toEqual({ ok: false, retryAfterSeconds: 4 });
    clock.advance(3_000);
    expect(await take()).toEqual({ ok: false, retryAfterSeconds: 1 });
    clock.advance(1_000);
    expect((await take()).ok).toBe(true);
    clock.advance(3_600_000);
    expect([await take(), await take(), await take(), await take()].map((d) => d.ok)).toEqual([true, true, true, false]);
  });

  it("forgets the least recently seen keys beyond maxKeys", async () => {
    const clock = manualClock();
    const limiter = createTokenBucketLimiter({ capacity: 1, refillPerSecond: 0.001, clock, maxKeys: 2 });
    await limiter.take("a");
    await limiter.take("b");
    await limiter.take("c");
    expect((await limiter.take("a")).ok).toBe(true);
    expect((await limiter.take("c")).ok).toBe(false);
  });

  it("peek looks without taking, refund gives one token back up to the capacity, drain empties the bucket", async () => {
    const clock = manualClock();
    const limiter = createTokenBucketLimiter({ capacity: 2, refillPerSecond: 0.1, clock });
    expect(await limiter.peek("k")).toEqual({ ok: true });
    expect(await limiter.peek("k")).toEqual({ ok: true });
    await limiter.take("k");
    await limiter.take("k");
    expect(await limiter.peek("k")).toEqual({ ok: false, retryAfterSeconds: 10 });
    await limiter.refund("k");
    expect(await limiter.peek("k")).toEqual({ ok: true });
    await limiter.refund("k");
    await limiter.refund("k");
    expect([(await limiter.take("k")).ok, (await limiter.take("k")).ok, (await limiter.take("k")).ok]).toEqual([true, true, false]);
    await limiter.drain("fresh");
    expect(await limiter.peek("fresh")).toEqual({ ok: false, retryAfterSeconds: 10 });
    clock.advance(10_000);
    expect(await limiter.peek("fresh")).toEqual({ ok: true });
  });

  it("counts per tenant through the app: one tenant's 429 does not touch another's budget", async () => {
    const clock = manualClock();
    const { app } = testApp({ clock, configInput: { limits: { rateLimit: { capacity: 2, refillPerSecond: 1 } } } });
    expect((await consultar(app, QUERY)).status).toBe(200);
    expect((await consultar(app, { Token: "x" })).status).toBe(404);
    const limited = await consultar(app, QUERY);
    expect(limited.status).toBe(429);
    expect(limited.res.headers.get("retry-after")).toBe("1");
    expect(limited.body.Erro).toMatchObject({ Codigo: "LIMITE_EXCEDIDO", Retentavel: true });
    expect((await consultar(app, QUERY, { Authorization: `Bearer ${OTHER_KEY}` })).status).toBe(200);
    clock.advance(1_000);
    expect((await consultar(app, QUERY, { Authorization: `Bearer ${API_KEY}` })).status).toBe(200);
  });

  it("unauthenticated requests are refused before they spend any budget", async () => {
    const { app } = testApp({ configInput: { limits: { rateLimit: { capacity: 1, refillPerSecond: 0.01 } } } });
    for (let i = 0; i < 5; i++) expect((await consultar(app, QUERY, { Authorization: "Bearer nope-nope-nope" })).status).toBe(401);
    expect((await consultar(app, QUERY)).status).toBe(200);
  });
});

describe("body size limit (default 16 KiB), enforced while reading", () => {
  const padded = (bytes: number) => {
    const base = JSON.stringify({ ...QUERY, pad: "" });
    return JSON.stringify({ ...QUERY, pad: "x".repeat(bytes - base.length) });
  };

  it("a body of exactly 16 KiB is read; one byte more is 413", async () => {
    const { app } = testApp();
    expect(new TextEncoder().encode(padded(16_384)).length).toBe(16_384);
    expect((await consultar(app, padded(16_384))).status).toBe(200);
    const over = await consultar(app, padded(16_385));
    expect(over.status).toBe(413);
    expect(over.body.Erro.Codigo).toBe("CORPO_GRANDE_DEMAIS");
    expect(over.body.MensagemErro).toContain("16384");
  });

  it("a declared Content-Length over the limit is refused without reading the body", async () => {
    const { app } = testApp();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode("{}"));
        controller.close();
      },
    }, { highWaterMark: 0 });
    const res = await app.request(CONSULTAR, {
      method: "POST",
      headers: { Authorization: `Bearer ${API_KEY}`, "Content-Length": "999999" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled).toBe(0);
  });

  it("a streamed body without Content-Length is cut off as soon as it passes the limit", async () => {
    const { app } = testApp({ configInput: { limits: { bodyBytes: 1_024, rateLimit: { capacity: 100, refillPerSecond: 100 } } } });
    let chunks = 0;
    const chunk = new TextEncoder().encode("x".repeat(256));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        chunks++;
        controller.enqueue(chunk);
      },
    });
    const res = await app.request(CONSULTAR, { method: "POST", headers: { Authorization: `Bearer ${API_KEY}` }, body: endless, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(chunks).toBeLessThan(10);
  });

  it("multi-byte UTF-8 counts in bytes, and invalid UTF-8 is a 400 naming body", async () => {
    const { app } = testApp({ configInput: { limits: { bodyBytes: 300, rateLimit: { capacity: 100, refillPerSecond: 100 } } } });
    const text = JSON.stringify({ ...QUERY, pad: "ç".repeat(150) });
    expect(text.length).toBeLessThan(300);
    expect((await consultar(app, text)).status).toBe(413);
    const res = await app.request(CONSULTAR, {
      method: "POST",
      headers: { Authorization: `Bearer ${API_KEY}` },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(res.status).toBe(400);
    expect((await answerOf(res)).Erro.Campos[0]?.Campo).toBe("body");
  });
});
