import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StoreUnavailable } from "../src/errors/service-errors.js";
import { systemClock } from "../src/clock.js";
import { createMemorySessionStore } from "../src/search/memory-session-store.js";
import type { SessionStore } from "../src/search/session-store.js";
import { consultar, fastSources, NOW, post, QUERY, testApp } from "./support/app.js";
import { parseSse, settle } from "./support/sse.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/**
 * A shared store that can go down and come back empty, as Redis does after `shutdown nosave`: while down
 * every call rejects with `StoreUnavailable` (what the Redis store's guard throws), watchers are woken and
 * availability listeners told; `upEmpty` brings a fresh, empty store. `restore` writes a lost search back.
 */
const flakyStore = () => {
  const fresh = () => createMemorySessionStore({ clock: systemClock, maxSessions: 100, ttlMs: 600_000 });
  let inner = fresh();
  let down = false;
  const availability = new Set<(up: boolean) => void>();
  const watchers = new Set<(version: number) => void>();
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    if (down) throw new StoreUnavailable("test: the store is down");
    return call();
  };
  const store: SessionStore = {
    openOrJoin: (c) => guard(() => inner.openOrJoin(c)),
    get: (id) => guard(() => inner.get(id)),
    append: (id, change, owner, leaseMs) => guard(() => inner.append(id, change, owner, leaseMs)),
    changes: (id, after) => guard(() => inner.changes(id, after)),
    acquireLease: (id, owner, leaseMs) => guard(() => inner.acquireLease(id, owner, leaseMs)),
    releaseLease: (id, owner) => guard(() => inner.releaseLease(id, owner)),
    watch: (id, listener) =>
      guard(async () => {
        watchers.add(listener);
        const stop = await inner.watch(id, listener);
        return () => {
          watchers.delete(listener);
          stop();
        };
      }),
    ready: async () => !down,
    onAvailability: (listener) => {
      availability.add(listener);
      return () => void availability.delete(listener);
    },
    restore: (record, change, owner, leaseMs) =>
      guard(async () => {
        if (await inner.get(record.id)) return false;
        const { created } = await inner.openOrJoin({ ...record, version: 0, completed: false, completedAt: undefined });
        return created && (await inner.append(record.id, change, owner, leaseMs)) === true;
      }),
  };
  return {
    store,
    goDown() {
      down = true;
      for (const l of [...availability]) l(false);
      for (const l of [...watchers]) l(0);
    },
    upEmpty() {
      inner = fresh();
      down = false;
      for (const l of [...availability]) l(true);
    },
  };
};

const slowSources = () => fastSources({ latencyMs: (id) => (id === "latam" ? 100 : 3_000), batches: 2 });

describe("while the store is unreachable", () => {
  it("polls and new searches answer at once 503 INDISPONIVEL, retryable, with Retry-After; /ready is 503, /health 200", async () => {
    const flaky = flakyStore();
    const { app, logs } = testApp({ store: flaky.store, sources: slowSources() });
    const token = (await consultar(app, QUERY)).body.Token;
    flaky.goDown();
    for (const body of [{ Token: token }, { ...QUERY, Ida: "2026-03-21" }]) {
      const res = await consultar(app, body);
      expect(res.status).toBe(503);
      expect(res.body.Erro).toEqual({ Codigo: "INDISPONIVEL", Retentavel: true });
      expect(res.res.headers.get("retry-after")).toBe("1");
    }
    const ready = await app.request("/ready");
    expect([ready.status, await ready.json()]).toEqual([503, { status: "unavailable", store: "unreachable" }]);
    expect((await app.request("/health")).status).toBe(200);
    expect(logs.records.find((r) => r.msg === "store.down")).toMatchObject({ level: "warn", runningSearches: 1 });
    expect(logs.records.filter((r) => r.msg === "unhandled")).toEqual([]); // an outage is no bug: no ERRO_INTERNO
  });

  it("an open SSE stream ends with one retryable INDISPONIVEL event without an id", async () => {
    const flaky = flakyStore();
    const { app } = testApp({ store: flaky.store, sources: slowSources() });
    const res = await post(app, "/api/ConsultaAereo/Stream", QUERY);
    await vi.advanceTimersByTimeAsync(300); // the first snapshots are out
    flaky.goDown();
    const events = parseSse(await settle(res.text())).filter((e) => e.data !== undefined);
    expect(events.slice(0, -1).every((e) => e.id !== undefined)).toBe(true);
    expect(events.at(-1)!.id).toBeUndefined();
    expect(JSON.parse(events.at(-1)!.data!)).toMatchObject({ Success: false, Erro: { Codigo: "INDISPONIVEL", Retentavel: true } });
  });
});

describe("when the store comes back empty", () => {
  it("the owner writes its running search back: it completes with every offer; a completed one is 404 BUSCA_EXPIRADA", async () => {
    const flaky = flakyStore();
    const { app, logs } = testApp({ store: flaky.store, sources: slowSources() });
    const completed = (await consultar(app, { ...QUERY, Ida: "2026-03-22" })).body.Token;
    await vi.advanceTimersByTimeAsync(3_500);
    expect((await consultar(app, { Token: completed })).body.Completed).toBe(true);

    const lisbon = { Origem: "GRU", Destino: "LIS", Ida: "2026-03-20" }; // its whole result fits one page of 100
    const token = (await consultar(app, lisbon)).body.Token;
    await vi.advanceTimersByTimeAsync(500);
    const before = await consultar(app, { Token: token, QuantidadePorPagina: 100 });
    expect([before.body.Completed, before.body.TotalItens > 0]).toEqual([false, true]);
    flaky.goDown();
    await vi.advanceTimersByTimeAsync(3_500); // the slow sources answer during the outage
    flaky.upEmpty();
    await vi.advanceTimersByTimeAsync(100);

    const after = await consultar(app, { Token: token, QuantidadePorPagina: 100 });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ Token: token, Completed: true, Success: true });
    const ids = (a: typeof before) => new Set(a.body.Data[0].flights.flatMap((f) => f.segments.map((seg) => seg.rateToken)));
    expect([...ids(before)].filter((id) => !ids(after).has(id))).toEqual([]);
    expect(after.body.TotalItens).toBeGreaterThan(before.body.TotalItens);
    expect(logs.records.find((r) => r.msg === "store.up")).toMatchObject({ runningSearches: 1, rewritten: 1 });

    await vi.advanceTimersByTimeAsync(20_000); // past the window in which an owner may still write back
    const gone = await consultar(app, { Token: completed });
    expect(gone.status).toBe(404);
    expect(gone.body.Erro).toMatchObject({ Codigo: "BUSCA_EXPIRADA", Retentavel: false, Campos: [{ Campo: "Token" }] });
  });
});

describe("a store that flaps", () => {
  it("is logged once each way, not at every flap: the flaps held back are counted, and a store still down when the window ends is logged then", async () => {
    const flaky = flakyStore();
    const { app, logs } = testApp({ store: flaky.store, sources: slowSources() });
    await consultar(app, QUERY);
    const lines = () => logs.records.filter((r) => r.msg === "store.down" || r.msg === "store.up").map((r) => [r.msg, r["flaps"]]);
    flaky.goDown();
    await vi.advanceTimersByTimeAsync(200);
    flaky.upEmpty();
    await vi.advanceTimersByTimeAsync(200);
    for (let i = 0; i < 5; i++) {
      flaky.goDown();
      await vi.advanceTimersByTimeAsync(300);
      flaky.upEmpty();
      await vi.advanceTimersByTimeAsync(300);
    }
    flaky.goDown(); // and it stays down
    await vi.advanceTimersByTimeAsync(500);
    expect(lines()).toEqual([
      ["store.down", undefined],
      ["store.up", undefined],
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lines()).toEqual([
      ["store.down", undefined],
      ["store.up", undefined],
      ["store.down", 11],
    ]);
    flaky.upEmpty();
    await vi.advanceTimersByTimeAsync(100);
    expect(lines().at(-1)).toEqual(["store.up", undefined]);
    expect((await consultar(app, { ...QUERY, Ida: "2026-03-25" })).status).toBe(200);

    // A short outage soon after: held back, then told in one line when the window ends.
    flaky.goDown();
    await vi.advanceTimersByTimeAsync(2_000);
    flaky.upEmpty();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(logs.records.filter((r) => r.msg.startsWith("store.")).slice(-1)).toEqual([{ level: "warn", msg: "store.flapped", runningSearches: 0, flaps: 2 }]);
  });
});
