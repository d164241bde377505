/**
 * Request bodies are parsed and validated once per (compat, São Paulo's day, exact text): a client that polls
 * by re-sending its query, or its `Token`, is answered from the memo. These tests check that the memo never
 * changes an answer: an expired search is started again, a date that became past is refused, a body means
 * what the caller's compat says, and the memo is bounded.
 */
import * as core from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API_KEY, consultar, NOW, QUERY, testApp } from "./support/app.js";

// The real parser, counted: how often a body was parsed and validated rather than answered from the memo.
vi.mock("@voar/core", async (importOriginal) => {
  const real = await importOriginal<typeof core>();
  return { ...real, parseSearchRequest: vi.fn(real.parseSearchRequest) };
});
const parses = () => vi.mocked(core.parseSearchRequest).mock.calls.length;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  vi.mocked(core.parseSearchRequest).mockClear();
});
afterEach(() => vi.useRealTimers());

const LEGACY_KEY = "legacy-api-key-0123456789";
const legacy = { Authorization: `Bearer ${LEGACY_KEY}` };
const withLegacyKey = (search = {}) =>
  testApp({ configInput: { apiKeys: [{ name: "acme", key: API_KEY }, { name: "old-app", key: LEGACY_KEY, compat: "legacy" }], search } });

describe("the request memo", () => {
  it("answers a repeated query without parsing it again, and still starts a new search once the old one expired", async () => {
    const { app, logs } = withLegacyKey({ ttlMs: 5_000 });
    const first = await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(1_000);
    const again = await consultar(app, QUERY);
    expect([again.status, again.body.Token, again.body.Completed]).toEqual([200, first.body.Token, true]);
    expect(parses()).toBe(1);

    await vi.advanceTimersByTimeAsync(5_000); // the TTL after completion passes
    const afterTtl = await consultar(app, QUERY);
    expect(parses()).toBe(1); // same day, same text: from the memo
    expect(afterTtl.status).toBe(200);
    expect(afterTtl.body.Token).not.toBe(first.body.Token);
    expect(afterTtl.body.Completed).toBe(false);
    expect(logs.records.filter((r) => r.msg === "search.started").map((r) => r["searchId"])).toEqual([first.body.Token, afterTtl.body.Token]);
    expect((await consultar(app, { Token: first.body.Token })).status).toBe(404);
  });

  it("still starts a new search for a repeated query whose search the store evicted to make room", async () => {
    const { app, logs } = testApp({ configInput: { limits: { rateLimit: { capacity: 10_000, refillPerSecond: 10_000 }, maxSessions: 2 } } });
    const first = await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await consultar(app, QUERY)).body.Token).toBe(first.body.Token);
    // Two other searches, each completed before the next: the store keeps two, so the first (least recently used) goes.
    for (const Destino of ["GIG", "SSA"]) {
      await consultar(app, { ...QUERY, Destino });
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect((await consultar(app, { Token: first.body.Token })).status).toBe(404);
    const again = await consultar(app, QUERY);
    expect(again.status).toBe(200);
    expect(again.body.Token).not.toBe(first.body.Token);
    expect(logs.records.filter((r) => r.msg === "search.started")).toHaveLength(4);
    expect(parses()).toBe(4); // QUERY parsed once, the two others once each, the poll once
  });

  it("judges a body again on the next day in São Paulo: a query for today is refused tomorrow", async () => {
    const { app } = withLegacyKey();
    // NOW is 12:00 on 2026-03-02 in São Paulo (UTC-3).
    const today = { ...QUERY, Ida: "2026-03-02" };
    expect((await consultar(app, today)).status).toBe(200);
    vi.setSystemTime(Date.parse("2026-03-03T02:59:59.000Z")); // 23:59:59 in São Paulo: still the 2nd
    expect((await consultar(app, today)).status).toBe(200);
    expect(parses()).toBe(1);
    vi.setSystemTime(Date.parse("2026-03-03T03:00:00.000Z")); // midnight in São Paulo
    const tomorrow = await consultar(app, today);
    expect(tomorrow.status).toBe(400);
    expect(tomorrow.body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA", Campos: [{ Campo: "Ida" }] });
    expect(parses()).toBe(2);
  });

  it("keeps what a body means per compat: the same text is read by each caller's rules", async () => {
    const { app } = withLegacyKey();
    // Text integers are the legacy API's; the spec refuses them. The legacy reading comes first and is remembered.
    const text = JSON.stringify({ ...QUERY, Adultos: "1" });
    expect((await consultar(app, text, legacy)).status).toBe(200);
    const spec = await consultar(app, text);
    expect(spec.status).toBe(400);
    expect(spec.body.Erro.Campos.map((c) => c.Campo)).toEqual(["Adultos"]);

    // No page asked: a spec client gets page 1 of 10 (its reading remembered first), a legacy client the whole result.
    await consultar(app, QUERY);
    await consultar(app, QUERY, legacy);
    await vi.advanceTimersByTimeAsync(1_000);
    const paged = await consultar(app, QUERY);
    const whole = await consultar(app, QUERY, legacy);
    expect([paged.body.Completed, whole.body.Completed]).toEqual([true, true]);
    expect(paged.body.TotalItens).toBeGreaterThan(10);
    expect(paged.body.Data[0].flights).toHaveLength(10);
    expect(whole.body.Data[0].flights).toHaveLength(whole.body.TotalItens);
  });

  it("is bounded: the least recently used body is forgotten (parsed again), long bodies are never kept", async () => {
    const { app } = withLegacyKey();
    const poll = (i: number) => ({ Token: `search-${i}` }); // unknown ids: 404, but valid bodies, remembered
    await consultar(app, poll(0));
    await consultar(app, poll(1));
    for (let i = 2; i < 2_001; i++) await consultar(app, poll(i));
    expect(parses()).toBe(2_001);
    await consultar(app, poll(2_000)); // the most recent: remembered
    expect(parses()).toBe(2_001);
    await consultar(app, poll(0)); // the oldest of 2,001: forgotten
    expect(parses()).toBe(2_002);

    const long = { ...QUERY, Filler: "x".repeat(600) };
    await consultar(app, long);
    await consultar(app, long);
    expect(parses()).toBe(2_004);
  });
});
