/**
 * No answer carries an offer past its `ValidoAte`, in virtual time: the upstream's answers go through the
 * answer cache (fresh 1 min, stale 2 min more: each offer current for 3 min), and searches are kept 10 minutes
 * (`search.ttlMs`, longer than the offers stay current). A tenant repeating a completed query after its offers'
 * validity gets a new search with offers seen again, not the old one; a poll of the old search by its Token then
 * answers as for an expired search; an answer about to stop being current is not served from the cache.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SearchSource } from "@voar/core";
import { systemClock } from "../src/clock.js";
import { createMemoryAnswerStore } from "../src/sources/answer-store.js";
import { createAnswerCache } from "../src/sources/cached-sources.js";
import { consultar, fastSources, NOW, OTHER_KEY, QUERY, testApp, type Answer } from "./support/app.js";

const FRESH = 60_000;
const STALE = 120_000;

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** The simulated airlines behind the answer cache, counting how often each is asked. */
const cachedAirlines = () => {
  const calls = { n: 0 };
  const counted: SearchSource[] = fastSources().map((s) => ({ ...s, search: (q, signal) => (calls.n++, s.search(q, signal)) }));
  const cache = createAnswerCache({ store: createMemoryAnswerStore({ maxEntries: 100, clock: systemClock }), clock: systemClock, freshMs: FRESH, staleMs: STALE, account: "test" });
  return { sources: cache.wrap(counted), calls };
};

/** Every `ValidoAte` of a Mode A answer (each segment's), as epoch ms. */
const validities = (body: Answer): number[] =>
  (body.Data[0]?.flights ?? []).flatMap((f) => [...f.segments, ...(f.segmentsBack ?? [])]).flatMap((s) => (s.ValidoAte ? [Date.parse(s.ValidoAte)] : []));

/** Sends the query, then polls by Token every 500 ms until Completed; every answer. */
const searchToEnd = async (app: ReturnType<typeof testApp>["app"], headers: Record<string, string> = {}) => {
  const answers = [await consultar(app, { ...QUERY, QuantidadePorPagina: 100 }, headers)];
  while (!answers.at(-1)!.body.Completed) {
    await vi.advanceTimersByTimeAsync(500);
    answers.push(await consultar(app, { Token: answers[0]!.body.Token, QuantidadePorPagina: 100 }, headers));
  }
  return answers;
};

const expectAllCurrent = (answers: readonly { readonly body: Answer }[]) => {
  for (const { body } of answers) for (const until of validities(body)) expect(until).toBeGreaterThan(Date.now());
};

describe("freshness everywhere", () => {
  it("a tenant's repeat of a completed query after its offers' validity gets a new search: no offer past ValidoAte", async () => {
    const { sources, calls } = cachedAirlines();
    const { app } = testApp({ sources, configInput: { search: { ttlMs: 600_000 } } });
    const first = await searchToEnd(app);
    expect(validities(first.at(-1)!.body).length).toBeGreaterThan(0);
    expectAllCurrent(first);
    const asked = calls.n;

    // Four minutes on: the search is kept (10 min), its offers are not current any more (3 min).
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    const again = await searchToEnd(app);
    expect(again[0]!.body.Token).not.toBe(first[0]!.body.Token);
    expectAllCurrent(again);
    expect(calls.n).toBe(2 * asked); // seen again at the sources
    // The old search, polled by its Token, answers as expired: its client searches again.
    const old = await consultar(app, { Token: first[0]!.body.Token });
    expect(old.status).toBe(404);
    expect(old.body.Erro.Codigo).toBe("BUSCA_EXPIRADA");
  });

  it("within the offers' validity the same tenant joins the completed search, and another tenant is served from the cache: every offer current", async () => {
    const { sources, calls } = cachedAirlines();
    const { app } = testApp({ sources, configInput: { search: { ttlMs: 600_000 } } });
    const first = await searchToEnd(app);
    const asked = calls.n;
    await vi.advanceTimersByTimeAsync(90_000); // past fresh, within stale: served at once, refreshed once
    const joined = await consultar(app, { ...QUERY, QuantidadePorPagina: 100 });
    expect(joined.body.Token).toBe(first[0]!.body.Token);
    expectAllCurrent([joined]);
    const other = await searchToEnd(app, { Authorization: `Bearer ${OTHER_KEY}` });
    expectAllCurrent(other);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.n).toBe(2 * asked); // one refresh per airline
  });

  it("a repeat within a minute of the offers' end (the cache's margin) starts a new search instead of joining one about to expire", async () => {
    const { sources, calls } = cachedAirlines();
    const { app } = testApp({ sources, configInput: { search: { ttlMs: 600_000 } } });
    const first = await searchToEnd(app);
    const asked = calls.n;
    const until = Math.min(...validities(first.at(-1)!.body));
    // Joined while a minute or more is left...
    await vi.advanceTimersByTimeAsync(until - 61_000 - Date.now());
    expect((await consultar(app, { ...QUERY, QuantidadePorPagina: 100 })).body.Token).toBe(first[0]!.body.Token);
    // ...not once less is: the same body searches again (the cache, held to the same margin, asks the airlines).
    await vi.advanceTimersByTimeAsync(2_000);
    const again = await searchToEnd(app);
    expect(again[0]!.body.Token).not.toBe(first[0]!.body.Token);
    expectAllCurrent(again);
    for (const left of validities(again.at(-1)!.body)) expect(left - Date.now()).toBeGreaterThan(60_000);
    expect(calls.n).toBe(2 * asked);
    // The first search still answers its own polls until its offers end: a client that has it loses nothing.
    expect((await consultar(app, { Token: first[0]!.body.Token })).status).toBe(200);
  });

  it("a search whose offers stop being current while it runs completes there: its polls answer BUSCA_EXPIRADA and the same body searches again", async () => {
    // Offers current for 20 s (the cache's fresh 5 s and stale 15 s), one airline taking 40 s.
    const calls = { n: 0 };
    const slowOne: SearchSource[] = fastSources({ latencyMs: { latam: 200, gol: 40_000 } }).map((s) => ({ ...s, search: (q, signal) => (calls.n++, s.search(q, signal)) }));
    const cache = createAnswerCache({ store: createMemoryAnswerStore({ maxEntries: 100, clock: systemClock }), clock: systemClock, freshMs: 5_000, staleMs: 15_000, account: "test" });
    const { app, logs } = testApp({ sources: cache.wrap(slowOne) });
    const first = await consultar(app, { ...QUERY, QuantidadePorPagina: 100 });
    await vi.advanceTimersByTimeAsync(5_000);
    const running = await consultar(app, { Token: first.body.Token, QuantidadePorPagina: 100 });
    expect(running.body.Completed).toBe(false);
    expectAllCurrent([running]);
    await vi.advanceTimersByTimeAsync(16_000);
    const late = await consultar(app, { Token: first.body.Token });
    expect(late.status).toBe(404);
    expect(late.body.Erro.Codigo).toBe("BUSCA_EXPIRADA");
    expect(logs.records.some((r) => r.msg === "search.offers_expired")).toBe(true);
    const again = await consultar(app, { ...QUERY, QuantidadePorPagina: 100 });
    expect(again.body.Token).not.toBe(first.body.Token);
    expectAllCurrent([again]);
    cache.close();
  });

  it("an answer whose offers stop being current within a minute is not served from the cache: asked again", async () => {
    const { sources, calls } = cachedAirlines();
    const { app } = testApp({ sources, configInput: { search: { ttlMs: 600_000 } } });
    await searchToEnd(app);
    const asked = calls.n;
    // 2 min 30 s on: within fresh + stale, but its offers have 30 s left.
    await vi.advanceTimersByTimeAsync(150_000);
    const other = await searchToEnd(app, { Authorization: `Bearer ${OTHER_KEY}` });
    expectAllCurrent(other);
    for (const until of validities(other.at(-1)!.body)) expect(until - Date.now()).toBeGreaterThan(FRESH);
    expect(calls.n).toBe(2 * asked);
  });
});
