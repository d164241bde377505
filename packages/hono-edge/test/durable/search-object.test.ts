import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KEEP_ALIVE_MS, SearchObjectCore } from "../../src/durable/search-object.js";
import { silentLogger } from "../../src/logging/logger.js";
import { API_KEY, fastSources, NOW, QUERY, testConfig } from "../support/app.js";
import { memoryObjectState } from "./memory-storage.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const OBJECT_ID = "ab".repeat(32);
const TTL = 600_000;

const request = (body: unknown, headers: Record<string, string> = {}) =>
  new Request("https://worker.example/api/ConsultaAereo/Consultar", {
    method: "POST",
    headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const objectOn = async (state: ReturnType<typeof memoryObjectState>) => {
  const core = new SearchObjectCore(state.state, { config: testConfig({ search: { ttlMs: TTL } }), sources: fastSources(), logger: silentLogger });
  await state.ready();
  return core;
};

const envelope = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe("a search's Durable Object", () => {
  it("issues ids that name it, keeps its alarm close while a search runs, then sweeps storage at the TTL", async () => {
    const state = memoryObjectState(OBJECT_ID);
    const core = await objectOn(state);
    const first = await envelope(await core.fetch(request(QUERY, { "x-voar-hidden-cash-airlines": "" })));
    expect(first["Completed"]).toBe(false);
    const token = first["Token"] as string;
    expect(token.startsWith(`${OBJECT_ID}.`)).toBe(true);
    // While it runs, the alarm keeps the object busy.
    expect(state.alarm()).toBe(NOW + KEEP_ALIVE_MS);

    await vi.advanceTimersByTimeAsync(1_000); // fast sources: done within 200 ms
    const done = await envelope(await core.fetch(request({ Token: token })));
    expect(done["Completed"]).toBe(true);
    expect(state.data.has(`r:${token}`)).toBe(true);
    const completedAt = (JSON.parse(state.data.get(`r:${token}`) as string) as { completedAt: number }).completedAt;

    // The keep-alive alarm fires with nothing running: the next one is the search's expiry.
    vi.setSystemTime(NOW + KEEP_ALIVE_MS);
    await state.fire(() => core.alarm());
    expect(state.alarm()).toBe(completedAt + TTL);

    vi.setSystemTime(completedAt + TTL);
    await state.fire(() => core.alarm());
    expect(state.data.size).toBe(0);
    expect(state.alarm()).toBeNull();
    const gone = await core.fetch(request({ Token: token }));
    expect(gone.status).toBe(404);
  });

  it("starts a body's search with the Pagante state the Worker routed it by", async () => {
    const state = memoryObjectState(OBJECT_ID);
    const core = await objectOn(state);
    const token = (await envelope(await core.fetch(request({ ...QUERY, Companhia: 1 }, { "x-voar-hidden-cash-airlines": "1" }))))["Token"] as string;
    const stored = JSON.parse(state.data.get(`r:${token}`) as string) as { hiddenCashAirlines: number[] };
    expect(stored.hiddenCashAirlines).toEqual([1]);
  });

  it("after an eviction, a new instance on the same storage answers the completed search as before", async () => {
    const state = memoryObjectState(OBJECT_ID);
    const before = await objectOn(state);
    const token = (await envelope(await before.fetch(request(QUERY, { "x-voar-hidden-cash-airlines": "" }))))["Token"] as string;
    await vi.advanceTimersByTimeAsync(1_000);
    const was = await envelope(await before.fetch(request({ Token: token, QuantidadePorPagina: 100 })));

    const after = await objectOn(state);
    const is = await envelope(await after.fetch(request({ Token: token, QuantidadePorPagina: 100 })));
    expect({ ...is, RequestId: "x" }).toEqual({ ...was, RequestId: "x" });
  });
});
