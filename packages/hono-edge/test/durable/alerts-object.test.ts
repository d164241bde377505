/**
 * Price watches on Workers: the deployment's alerts object (a search object) keeps the watches in its storage
 * and checks them from its alarm, each day once per slot; a price under the ceiling is delivered to the webhook,
 * signed, once; after an eviction a new instance on the same storage goes on from where the last one stopped.
 */
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SearchObjectCore } from "../../src/durable/search-object.js";
import { silentLogger } from "../../src/logging/logger.js";
import { API_KEY, fastSources, NOW, QUERY, testConfig } from "../support/app.js";
import { fakeReceiver } from "../alerts/support.js";
import { memoryObjectState } from "./memory-storage.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const OBJECT_ID = "cd".repeat(32);
const SLOT_MS = 60_000;
const HOOK = "https://hooks.agencia.example/voar";

const objectOn = async (state: ReturnType<typeof memoryObjectState>, receiver: ReturnType<typeof fakeReceiver>) => {
  const config = testConfig({ alerts: { schedule: { baseIntervalMs: SLOT_MS, minIntervalMs: SLOT_MS, maxIntervalMs: SLOT_MS, tickMs: 1_000 } } });
  const core = new SearchObjectCore(state.state, { config, sources: fastSources(), logger: silentLogger, alerts: { post: receiver.post } });
  await state.ready();
  return core;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read the members they expect
const alertas = async (core: SearchObjectCore, path = "", body?: unknown): Promise<{ status: number; body: any }> => {
  const res = await core.fetch(
    new Request(`https://worker.example/api/Alertas${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { Authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: res.status, body: await res.json() };
};

/** The runtime's alarm: at its time, the handler runs (its searches on the fake timers) to its end. */
const fireAlarm = async (state: ReturnType<typeof memoryObjectState>, core: SearchObjectCore) => {
  const at = state.alarm();
  expect(at).not.toBeNull();
  vi.setSystemTime(Math.max(at!, Date.now()));
  const done = state.fire(() => core.alarm());
  await vi.advanceTimersByTimeAsync(2_000); // fast sources: a day's search ends within 200 ms
  await done;
};

describe("price watches in a Durable Object (the alerts object)", () => {
  it("the alarm checks each watch once per slot; a price under the ceiling is delivered signed, once; an evicted object goes on", async () => {
    const state = memoryObjectState(OBJECT_ID);
    const receiver = fakeReceiver();
    const core = await objectOn(state, receiver);
    const secret = (await alertas(core, "/Segredo")).body.Data[0].Segredo as string;
    const created = await alertas(core, "", { Origem: QUERY.Origem, Destino: QUERY.Destino, Ida: QUERY.Ida, TetoValor: 100_000, Tipo: "dinheiro", Webhook: HOOK });
    expect(created.status).toBe(201);
    const id = created.body.Data[0].Id as string;
    // The new watch's day is due now: the alarm comes within a tick.
    expect(state.alarm()).toBe(NOW + 1_000);

    await fireAlarm(state, core);
    // The check found the simulator's fares, far under the ceiling: one alert, delivered in the same alarm.
    expect(receiver.received).toHaveLength(1);
    const [hit] = receiver.received;
    expect(hit!.url).toBe(HOOK);
    const event = new Webhook(secret).verify(hit!.body, hit!.headers) as { data: { AlertaId: string; Rota: unknown } };
    expect(event.data.AlertaId).toBe(id);
    const watch = (await alertas(core, `/${id}`)).body.Data[0];
    expect(watch).toMatchObject({ Verificacoes: 1, Avisos: 1 });
    expect((await alertas(core, `/${id}/Entregas`)).body.Data).toMatchObject([{ Estado: "entregue", Tentativas: [{ Status: 200 }] }]);

    // Alarm after alarm (the alert's own search keeps some of them coming sooner), three more slots at the same
    // prices: each slot checked once, a slot's interval (±10 %) apart, nothing delivered again (not a new low).
    const checkedAt = [Date.now()];
    for (let i = 0; i < 20 && checkedAt.length < 4; i++) {
      await fireAlarm(state, core);
      const checks = (await alertas(core, `/${id}`)).body.Data[0].Verificacoes as number;
      expect(checks - checkedAt.length).toBeLessThanOrEqual(1);
      if (checks > checkedAt.length) checkedAt.push(Date.now());
    }
    expect(checkedAt).toHaveLength(4);
    for (let i = 1; i < 4; i++) expect(checkedAt[i]! - checkedAt[i - 1]!).toBeGreaterThanOrEqual(SLOT_MS * 0.9 - 2_000);
    expect((await alertas(core, `/${id}`)).body.Data[0]).toMatchObject({ Verificacoes: 4, Avisos: 1 });
    expect(receiver.received).toHaveLength(1);

    // Evicted: a new instance on the same storage holds the watch, its schedule and its low; its alarms alone (no
    // request first) check the next slot.
    const again = await objectOn(state, receiver);
    for (let i = 0; i < 10 && Date.now() < checkedAt[3]! + SLOT_MS * 0.9 - 2_000; i++) await fireAlarm(state, again);
    expect((await alertas(again, "")).body.Data.map((w: { Id: string }) => w.Id)).toEqual([id]);
    expect((await alertas(again, `/${id}`)).body.Data[0]).toMatchObject({ Verificacoes: 5, Avisos: 1 });
    expect(receiver.received).toHaveLength(1);
  });

  it("keeps a failed delivery and tries it again from a later alarm, until the receiver takes it", async () => {
    const state = memoryObjectState(OBJECT_ID);
    const receiver = fakeReceiver([503, 503]);
    const core = await objectOn(state, receiver);
    const id = (await alertas(core, "", { Origem: QUERY.Origem, Destino: QUERY.Destino, Ida: QUERY.Ida, TetoValor: 100_000, Webhook: HOOK })).body.Data[0].Id as string;
    for (let i = 0; i < 6 && receiver.received.length < 3; i++) await fireAlarm(state, core);
    const [delivery] = (await alertas(core, `/${id}/Entregas`)).body.Data;
    expect(delivery).toMatchObject({ Estado: "entregue" });
    expect(delivery.Tentativas.map((t: { Status: number }) => t.Status)).toEqual([503, 503, 200]);
    // One alert, one webhook-id on every try.
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([delivery.Id]));
  });
});
