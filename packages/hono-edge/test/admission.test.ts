import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consultar, NOW, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** A load signal the test sets: the event loop's delay, in ms. */
const loadOf = (ms = 0) => {
  const load = { delay: ms, loopDelayMs: () => load.delay };
  return load;
};

describe("admission control by the instance's load", () => {
  it("sheds new searches with 429 LIMITE_EXCEDIDO and Retry-After while the loop lags; polls and the queries it served go on; /ready says overloaded, not the store", async () => {
    const load = loadOf();
    const { app, logs } = testApp({ load, configInput: { limits: { rateLimit: { capacity: 10_000, refillPerSecond: 10_000 }, admission: { maxLoopDelayMs: 400, retryAfterSeconds: 3 } } } });
    const running = await consultar(app, QUERY);
    expect(running.status).toBe(200);

    load.delay = 650;
    const refused = await consultar(app, { ...QUERY, Ida: "2026-03-21" });
    expect(refused.status).toBe(429);
    expect(refused.body.Erro).toMatchObject({ Codigo: "LIMITE_EXCEDIDO", Retentavel: true });
    expect(refused.body.MensagemErro).toMatch(/sobrecarregado/);
    expect(refused.res.headers.get("retry-after")).toBe("3");
    // Work already here keeps its time: a poll by Token, and the same query re-sent (legacy clients poll so).
    expect((await consultar(app, { Token: running.body.Token })).status).toBe(200);
    const again = await consultar(app, QUERY);
    expect([again.status, again.body.Token]).toEqual([200, running.body.Token]);
    const ready = await app.request("/ready");
    expect([ready.status, await ready.json(), ready.headers.get("retry-after")]).toEqual([503, { status: "overloaded", loopDelayMs: 650 }, "3"]);

    load.delay = 300; // below the limit but not below half of it: still shedding (no flapping at the edge)
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-22" })).status).toBe(429);
    load.delay = 150;
    await vi.advanceTimersByTimeAsync(2_000);
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-23" })).status).toBe(200);
    expect((await app.request("/ready")).status).toBe(200);

    // Said once each way, with what an operator needs; the refusals themselves are no errors.
    expect(logs.records.filter((r) => r.msg === "load.shedding")).toEqual([
      { level: "warn", msg: "load.shedding", loopDelayMs: 650, maxLoopDelayMs: 400, runningSearches: 1 },
    ]);
    expect(logs.records.filter((r) => r.msg === "load.normal")).toEqual([{ level: "info", msg: "load.normal", loopDelayMs: 150, sheddingMs: 2_000, refused: 2 }]);
    expect(logs.records.filter((r) => r.level === "error")).toEqual([]);
  });

  it("is off without a load signal (runtimes that do not measure their loop) and with maxLoopDelayMs 0", async () => {
    const busy = loadOf(5_000);
    for (const deps of [{}, { load: busy, configInput: { limits: { rateLimit: { capacity: 10_000, refillPerSecond: 10_000 }, admission: { maxLoopDelayMs: 0 } } } }]) {
      const { app } = testApp(deps);
      expect((await consultar(app, QUERY)).status).toBe(200);
      expect((await app.request("/ready")).status).toBe(200);
    }
  });
});
