import { sourcesFor, type SearchQuery } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemorySessionStore } from "../src/search/memory-session-store.js";
import type { SearchRecord } from "../src/search/session-store.js";
import { consultar, fastSources, NOW, post, QUERY, testApp, type Answer } from "./support/app.js";
import { parseSse, settle } from "./support/sse.js";
import { countCalls } from "./support/wire.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** Two app instances over one shared store: what a Redis store gives several processes. */
const twoInstances = (latencyMs = 200) => {
  const store = createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 });
  const a = countCalls(fastSources({ latencyMs }));
  const b = countCalls(fastSources({ latencyMs }));
  const shutdownA = new AbortController();
  const appA = testApp({ store, sources: a.sources, instanceId: "a", signal: shutdownA.signal }).app;
  const appB = testApp({ store, sources: b.sources, instanceId: "b" }).app;
  return { store, appA, appB, a, b, shutdownA };
};

describe("several instances sharing one session store", () => {
  it("share one search and one engine run: the instance that joins does not run the sources", async () => {
    const { appA, appB, a, b } = twoInstances();
    const first = await consultar(appA, QUERY);
    const joined = await consultar(appB, QUERY);
    expect(joined.body.Token).toBe(first.body.Token);
    await vi.advanceTimersByTimeAsync(250);
    const fromB = await consultar(appB, { Token: first.body.Token });
    const fromA = await consultar(appA, { Token: first.body.Token });
    expect(fromB.body.Completed).toBe(true);
    expect(fromB.body.Data).toEqual(fromA.body.Data);
    expect(a.total()).toBe(8);
    expect(b.total()).toBe(0);
  });

  it("when the running instance shuts down, another takes the search over and completes it; results only grow", async () => {
    const { appA, appB, a, b, shutdownA } = twoInstances(1_000);
    const token = (await consultar(appA, QUERY)).body.Token as string;
    await vi.advanceTimersByTimeAsync(600); // first batches arrive through A
    const before = await consultar(appB, { Token: token });
    expect(before.body.Completed).toBe(false);
    expect(before.body.TotalItens).toBeGreaterThan(0);
    shutdownA.abort(); // A stops its engine and releases the lease
    await vi.advanceTimersByTimeAsync(0);
    const takeover = await consultar(appB, { Token: token });
    expect(takeover.body.TotalItens).toBeGreaterThanOrEqual(before.body.TotalItens);
    expect(b.total()).toBe(8); // every source was still pending, so B runs them all again
    await vi.advanceTimersByTimeAsync(1_100);
    const after = await consultar(appB, { Token: token });
    expect(after.body).toMatchObject({ Token: token, Completed: true });
    expect(after.body.TotalItens).toBeGreaterThanOrEqual(before.body.TotalItens);
    expect(after.body.Progresso.Versao).toBeGreaterThan(before.body.Progresso.Versao);
    expect(a.total()).toBe(8);
  });

  it("a shutdown ends open SSE streams, and the client resumes on another instance without losing a version", async () => {
    const { appA, appB, shutdownA } = twoInstances(1_000);
    const res = await post(appA, "/api/ConsultaAereo/Stream", QUERY);
    const reader = res.body!.getReader();
    let text = "";
    while (parseSse(text).filter((e) => e.data).length < 2) text += new TextDecoder().decode((await settle(reader.read())).value);
    shutdownA.abort();
    for (;;) {
      const { value, done } = await settle(reader.read());
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const before = parseSse(text).filter((e) => e.data);
    const last = before.at(-1)!;
    expect((JSON.parse(last.data!) as Answer).Completed).toBe(false);
    const resumed = parseSse(await settle((await post(appB, "/api/ConsultaAereo/Stream", QUERY, { "Last-Event-ID": last.id! })).text())).filter((e) => e.data);
    const ids = [...before, ...resumed].map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => i));
    expect((JSON.parse(resumed.at(-1)!.data!) as Answer).Completed).toBe(true);
  });

  it("a search whose owner vanished without a word is taken over once its lease lapses", async () => {
    const { store, appB, b } = twoInstances();
    const query: SearchQuery = { origin: "CNF", destination: "GRU", departureDate: "2026-03-20", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } };
    const ghost: SearchRecord = {
      id: "ghost-search",
      key: "ghost",
      tenant: "apikey:acme",
      query,
      sources: sourcesFor(query, fastSources()).map((s) => ({ id: s.id, name: s.name })),
      hiddenCashAirlines: [],
      createdAt: NOW,
      deadlineAt: NOW + 60_000,
      version: 0,
      completed: false,
      lease: { owner: "dead-instance", expiresAt: NOW + 15_000 },
    };
    await store.openOrJoin(ghost);
    await consultar(appB, { Token: "ghost-search" });
    expect(b.total()).toBe(0); // the lease still holds
    await vi.advanceTimersByTimeAsync(15_000);
    await consultar(appB, { Token: "ghost-search" });
    expect(b.total()).toBe(8);
    await vi.advanceTimersByTimeAsync(250);
    expect((await consultar(appB, { Token: "ghost-search" })).body).toMatchObject({ Completed: true, HasResult: true });
  });

  it("an SSE-only follower gets a search whose owner vanished completed: the follower's instance takes it over when the lease lapses", async () => {
    const { store, appB, b } = twoInstances();
    const query: SearchQuery = { origin: "CNF", destination: "GRU", departureDate: "2026-03-20", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } };
    await store.openOrJoin({
      id: "orphan",
      key: "orphan",
      tenant: "apikey:acme",
      query,
      sources: sourcesFor(query, fastSources()).map((s) => ({ id: s.id, name: s.name })),
      hiddenCashAirlines: [],
      createdAt: NOW,
      deadlineAt: NOW + 60_000,
      version: 0,
      completed: false,
      lease: { owner: "killed-instance", expiresAt: NOW + 15_000 },
    });
    // Nobody polls: only the stream on B, opened while the dead owner's lease still holds.
    const res = await post(appB, "/api/ConsultaAereo/Stream", { Token: "orphan" });
    const reader = res.body!.getReader();
    let text = "";
    for (;;) {
      const { value, done } = await settle(reader.read(), 100, 60_000);
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const events = parseSse(text).filter((e) => e.data);
    expect(b.total()).toBe(8);
    const last = JSON.parse(events.at(-1)!.data!) as Answer;
    expect(last).toMatchObject({ Token: "orphan", Completed: true, HasResult: true });
    expect(Date.now() - NOW).toBeLessThan(60_000); // completed by the sources, well before the deadline
  });

  it("taken over after its deadline, a search completes at once with what it has", async () => {
    const { store, appB, b } = twoInstances();
    const query: SearchQuery = { origin: "CNF", destination: "GRU", departureDate: "2026-03-20", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } };
    await store.openOrJoin({
      id: "late",
      key: "late",
      tenant: "apikey:acme",
      query,
      sources: [{ id: "latam", name: "LATAM" }],
      hiddenCashAirlines: [],
      createdAt: NOW,
      deadlineAt: NOW + 1_000,
      version: 0,
      completed: false,
      lease: { owner: "dead-instance", expiresAt: NOW + 2_000 },
    });
    await vi.advanceTimersByTimeAsync(2_000);
    await consultar(appB, { Token: "late" });
    await vi.advanceTimersByTimeAsync(0);
    const { status, body } = await consultar(appB, { Token: "late" });
    expect(b.total()).toBe(0);
    expect(status).toBe(504);
    expect(body.Erro.Codigo).toBe("TEMPO_ESGOTADO");
    expect(body.Progresso.Fontes[0]).toMatchObject({ Estado: "falhou" });
  });
});
