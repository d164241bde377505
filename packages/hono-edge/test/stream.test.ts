import { BusinessError, EnvelopeSchema } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemorySessionStore } from "../src/search/memory-session-store.js";
import type { SessionStore } from "../src/search/session-store.js";
import { answerOf, consultar, fastSources, NOW, post, QUERY, testApp, type Answer } from "./support/app.js";
import { readSome, readStream, settle } from "./support/sse.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const STREAM = "/api/ConsultaAereo/Stream";
const slowSources = () => fastSources({ latencyMs: (id) => 100 + 50 * id.length, batches: 3 });
const envelopeOf = (data: string | undefined) => JSON.parse(data!) as Answer;
const withoutRequestId = ({ RequestId: _, ...rest }: Answer) => rest;

/** A store that counts the watches still open. */
const countingStore = (inner: SessionStore) => {
  let open = 0;
  const store: SessionStore = {
    ...inner,
    watch: async (id, listener) => {
      open++;
      const stop = await inner.watch(id, listener);
      return () => {
        open--;
        stop();
      };
    },
  };
  return { store, open: () => open };
};

describe("POST /api/ConsultaAereo/Stream (SSE)", () => {
  it("sends one event per snapshot, id = version, data = the polling envelope, ending with Completed true", async () => {
    const { app } = testApp({ sources: slowSources() });
    const res = await post(app, STREAM, { ...QUERY, QuantidadePorPagina: 5 });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events = await readStream(res);
    expect(events[0]).toEqual({ retry: "1000" });
    const data = events.filter((e) => e.data !== undefined);
    const ids = data.map((e) => Number(e.id));
    expect(ids[0]).toBe(0);
    expect(ids).toEqual(ids.map((_, i) => i)); // every version, in order
    const envelopes = data.map((e) => envelopeOf(e.data));
    for (const [i, env] of envelopes.entries()) {
      expect(EnvelopeSchema.safeParse(env).success).toBe(true);
      expect(env.Progresso.Versao).toBe(ids[i]);
      expect(env.pagination.pageSize).toBe(5);
    }
    expect(envelopes.slice(0, -1).every((e) => e.Completed === false)).toBe(true);
    expect(envelopes.at(-1)!.Completed).toBe(true);
    const totals = envelopes.map((e) => e.TotalItens as number);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const poll = await consultar(app, { Token: envelopes[0]!.Token, QuantidadePorPagina: 5 });
    expect(withoutRequestId(envelopes.at(-1)!)).toEqual(withoutRequestId(poll.body));
  });

  it("Last-Event-ID resumes after that version: nothing lost, nothing repeated", async () => {
    const { app } = testApp({ sources: slowSources() });
    const first = await readSome(await post(app, STREAM, QUERY), 3);
    const lastId = first.at(-1)!.id!;
    expect(lastId).toBe("2");
    await vi.advanceTimersByTimeAsync(30); // the search goes on while the client is away
    const resumed = (await readStream(await post(app, STREAM, QUERY, { "Last-Event-ID": lastId }))).filter((e) => e.data);
    const ids = resumed.map((e) => Number(e.id));
    expect(ids[0]).toBe(3);
    expect(ids).toEqual(ids.map((_, i) => 3 + i));
    expect(envelopeOf(resumed.at(-1)!.data).Completed).toBe(true);
  });

  it("a resume by Token works the same way", async () => {
    const { app } = testApp({ sources: slowSources() });
    const first = await readSome(await post(app, STREAM, QUERY), 2);
    const token = envelopeOf(first[0]!.data).Token as string;
    const resumed = (await readStream(await post(app, STREAM, { Token: token }, { "Last-Event-ID": "1" }))).filter((e) => e.data);
    expect(Number(resumed[0]!.id)).toBe(2);
    expect(envelopeOf(resumed.at(-1)!.data).Completed).toBe(true);
  });

  it("resuming with the final event's id is conditional: nothing is sent again and the stream ends", async () => {
    const { app } = testApp();
    const all = (await readStream(await post(app, STREAM, QUERY))).filter((e) => e.data);
    const final = all.at(-1)!;
    expect(envelopeOf(final.data).Completed).toBe(true);
    const again = await readStream(await post(app, STREAM, QUERY, { "Last-Event-ID": final.id! }));
    expect(again.filter((e) => e.data)).toHaveLength(0);
    // One version before the final one still gets the final event.
    const before = (await readStream(await post(app, STREAM, QUERY, { "Last-Event-ID": String(Number(final.id) - 1) }))).filter((e) => e.data);
    expect(before.map((e) => e.id)).toEqual([final.id]);
  });

  it("resuming with the current version of a running search sends only what changes after it", async () => {
    const { app } = testApp({ sources: slowSources() });
    const first = await readSome(await post(app, STREAM, QUERY), 2);
    const current = first.at(-1)!.id!;
    const resumed = (await readStream(await post(app, STREAM, QUERY, { "Last-Event-ID": current }))).filter((e) => e.data);
    expect(Number(resumed[0]!.id)).toBe(Number(current) + 1);
    expect(envelopeOf(resumed.at(-1)!.data).Completed).toBe(true);
  });

  it("when the versions after Last-Event-ID were compacted away, it sends the latest snapshot", async () => {
    const store = createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 10, ttlMs: 600_000, maxChangesPerSearch: 3 });
    const { app } = testApp({ store, sources: slowSources() });
    const first = await readSome(await post(app, STREAM, QUERY), 2);
    await vi.advanceTimersByTimeAsync(5_000);
    const resumed = (await readStream(await post(app, STREAM, QUERY, { "Last-Event-ID": first.at(-1)!.id! }))).filter((e) => e.data);
    expect(resumed).toHaveLength(1);
    const env = envelopeOf(resumed[0]!.data);
    expect(env.Completed).toBe(true);
    expect(Number(resumed[0]!.id)).toBeGreaterThan(5);
    const poll = await consultar(app, QUERY);
    expect(withoutRequestId(env)).toEqual(withoutRequestId(poll.body));
  });

  it("an unknown Last-Event-ID (newer than anything recorded) gets the latest snapshot and goes on", async () => {
    const { app } = testApp();
    const events = (await readStream(await post(app, STREAM, QUERY, { "Last-Event-ID": "999" }))).filter((e) => e.data);
    expect(events[0]!.id).toBe("0");
    expect(envelopeOf(events.at(-1)!.data).Completed).toBe(true);
  });

  it("sends a keep-alive comment while nothing changes", async () => {
    const { app } = testApp({ sources: fastSources({ latencyMs: 40_000 }), configInput: { sse: { keepAliveMs: 15_000 } } });
    const res = await post(app, STREAM, QUERY);
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes(": keep-alive")) text += new TextDecoder().decode((await settle(reader.read(), 1_000)).value);
    expect(text).toMatch(/retry: 1000\n\nid: 0\ndata: .*\n\n: keep-alive\n\n/);
    await reader.cancel();
  });

  it("a dropped connection stops watching the search", async () => {
    const counting = countingStore(createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 10, ttlMs: 600_000 }));
    const { app } = testApp({ store: counting.store, sources: slowSources() });
    await readSome(await post(app, STREAM, QUERY), 1);
    await vi.advanceTimersByTimeAsync(10);
    expect(counting.open()).toBe(0);
  });

  it("a search in which every source failed ends with the failure envelope as its final event", async () => {
    const failures = Object.fromEntries(["latam", "gol", "azul", "tap", "copa", "american", "iberia", "livelo"].map((id) => [id, { error: new BusinessError({ detail: "x" }) }]));
    const { app } = testApp({ sources: fastSources({ failures }) });
    const events = (await readStream(await post(app, STREAM, QUERY))).filter((e) => e.data);
    const final = envelopeOf(events.at(-1)!.data);
    expect(final).toMatchObject({ Success: false, Completed: true, Erro: { Codigo: "FALHA_FORNECEDOR" } });
  });

  it("request errors answer as JSON envelopes before any stream", async () => {
    const { app } = testApp();
    const bad = await post(app, STREAM, { ...QUERY, Ida: "ontem" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/application\/json/);
    expect((await answerOf(bad)).Erro.Campos[0]?.Campo).toBe("Ida");
    expect((await post(app, STREAM, QUERY, { Authorization: "" })).status).toBe(401);
    expect((await post(app, STREAM, { Token: "nope" })).status).toBe(404);
  });
});
