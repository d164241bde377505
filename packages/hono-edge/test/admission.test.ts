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
    expect([ready.status, await ready.json(), ready.headers.get("retry-after")]).toEqual([503, { status: "overloaded", reason: "loop_delay", loopDelayMs: 650 }, "3"]);

    load.delay = 300; // below the limit but not below half of it: still shedding (no flapping at the edge)
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-22" })).status).toBe(429);
    load.delay = 150;
    await vi.advanceTimersByTimeAsync(2_000);
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-23" })).status).toBe(200);
    expect((await app.request("/ready")).status).toBe(200);

    // Said once each way, with what an operator needs; the refusals themselves are no errors.
    expect(logs.records.filter((r) => r.msg === "load.shedding")).toEqual([
      { level: "warn", msg: "load.shedding", reason: "loop_delay", loopDelayMs: 650, maxLoopDelayMs: 400, runningSearches: 1 },
    ]);
    expect(logs.records.filter((r) => r.msg === "load.normal")).toEqual([{ level: "info", msg: "load.normal", loopDelayMs: 150, sheddingMs: 2_000, refused: 2 }]);
    expect(logs.records.filter((r) => r.level === "error")).toEqual([]);
  });

  it("sheds while the loop is busy all the time and lags half the limit; not on a busy loop that keeps up", async () => {
    const load = { delay: 0, busy: 0.97, loopDelayMs: () => load.delay, utilization: () => load.busy };
    const { app } = testApp({ load, configInput: { limits: { rateLimit: { capacity: 10_000, refillPerSecond: 10_000 }, admission: { maxLoopDelayMs: 400 } } } });
    load.delay = 150; // busy, but each turn comes in time: new work is welcome
    expect((await consultar(app, QUERY)).status).toBe(200);
    load.delay = 220;
    const refused = await consultar(app, { ...QUERY, Ida: "2026-03-21" });
    expect([refused.status, refused.res.headers.get("retry-after")]).toEqual([429, "2"]);
    expect(await (await app.request("/ready")).json()).toMatchObject({ status: "overloaded", reason: "busy_loop" });
  });

  it("caps the searches an instance runs: one more is refused at once with 429 and Retry-After, and let in once one completed; joining a running one always works", async () => {
    const { app, logs } = testApp({ configInput: { limits: { rateLimit: { capacity: 10_000, refillPerSecond: 10_000 }, admission: { maxRunningSearches: 2 } } } });
    const a = await consultar(app, QUERY);
    await consultar(app, { ...QUERY, Ida: "2026-03-21" });
    const third = await consultar(app, { ...QUERY, Ida: "2026-03-22" });
    expect([third.status, third.body.Erro.Codigo, third.res.headers.get("retry-after")]).toEqual([429, "LIMITE_EXCEDIDO", "2"]);
    expect((await consultar(app, QUERY)).body.Token).toBe(a.body.Token);
    expect(await (await app.request("/ready")).json()).toMatchObject({ status: "overloaded", reason: "running_searches" });
    await vi.advanceTimersByTimeAsync(5_000); // the fast sources answered: both searches completed
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-22" })).status).toBe(200);
    expect(logs.records.filter((r) => r.level === "error")).toEqual([]);
  });

  it("sheds for a second after three requests waited too long before their search could start on a busy loop (a burst faster than the loop signals); one slow request alone is no backlog", async () => {
    // Each request waits `wait` ms in this instance before its search may start (here in its rate limit's answer).
    let wait = 400;
    let reached = 0;
    const rateLimiter = {
      take: () => {
        reached++;
        return wait === 0 ? Promise.resolve({ ok: true as const }) : new Promise<{ ok: true }>((resolve) => setTimeout(() => resolve({ ok: true }), wait));
      },
    };
    const load = { busy: 0.95, loopDelayMs: () => 0, utilization: () => load.busy };
    const { app } = testApp({ rateLimiter, load, configInput: { limits: { admission: { maxQueueMs: 300 } } } });
    const slowOnes = async (n: number, firstDay: number) => {
      const asked = reached;
      const answers = Array.from({ length: n }, (_, i) => consultar(app, { ...QUERY, Ida: `2026-03-${firstDay + i}` }));
      while (reached < asked + n) await vi.advanceTimersByTimeAsync(1);
      await vi.advanceTimersByTimeAsync(400);
      return Promise.all(answers);
    };
    expect((await slowOnes(1, 10)).map((a) => a.status)).toEqual([200]);
    wait = 0;
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-20" })).status).toBe(200); // one slow request: no backlog
    await vi.advanceTimersByTimeAsync(1_000);
    wait = 400;
    // They had waited already: refusing them now would waste that; the ones after them are held back.
    expect((await slowOnes(3, 11)).map((a) => a.status)).toEqual([200, 200, 200]);
    wait = 0;
    const next = await consultar(app, { ...QUERY, Ida: "2026-03-23" });
    expect([next.status, next.res.headers.get("retry-after")]).toEqual([429, "2"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-24" })).status).toBe(200);
    // Not busy, long waits are the store's or the network's, not a backlog of this instance's.
    load.busy = 0.2;
    wait = 400;
    await slowOnes(3, 25);
    wait = 0;
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-28" })).status).toBe(200);
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
