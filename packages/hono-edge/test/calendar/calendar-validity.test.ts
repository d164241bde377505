/**
 * A calendar never shows a price past its validity, in virtual time, the upstream's answers going through the
 * answer cache (each offer current for fresh + stale): each priced day says until when (`ValidoAte`); a day is
 * priced only while its offers have the cache's margin left (a minute, or half their life); a completed
 * calendar is joined by the same body only within that margin; asked again by its Token once a day's prices
 * stopped being current, the calendar searches those days again; and while it still runs, such a day shows as
 * expired, without a price.
 */
import type { SearchQuery, SearchSource } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/clock.js";
import { createMemoryAnswerStore } from "../../src/sources/answer-store.js";
import { createAnswerCache } from "../../src/sources/cached-sources.js";
import { consultar, fastSources, NOW, testApp } from "../support/app.js";
import { calendario, completedCalendar } from "./support.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const ASKED = { Origem: "GRU", Destino: "SSA", Ida: "2026-03-20", DiasFlexiveis: 1 } as const;

/** The simulated airlines behind the answer cache, counting the searches they run. */
const cachedAirlines = (freshMs: number, staleMs: number, latencyMs: number | ((sourceId: string, q: SearchQuery) => number) = 200) => {
  const calls = { n: 0 };
  const counted: SearchSource[] = fastSources({ latencyMs }).map((s) => ({ ...s, search: (q, signal) => (calls.n++, s.search(q, signal)) }));
  const cache = createAnswerCache({ store: createMemoryAnswerStore({ maxEntries: 100, clock: systemClock }), clock: systemClock, freshMs, staleMs, account: "test" });
  return { sources: cache.wrap(counted), calls, close: () => cache.close() };
};

const at = (iso: string | undefined) => (iso === undefined ? Number.NaN : Date.parse(iso));

describe("a calendar's prices and their validity", () => {
  it("each priced day says until when; the same body joins only within the margin; asked again by Token after it, the days are searched again", async () => {
    // Offers current for 3 minutes: a day may be shown while a minute of it is left.
    const airlines = cachedAirlines(60_000, 120_000);
    const { app } = testApp({ sources: airlines.sources, configInput: { search: { ttlMs: 600_000 } } });
    const first = await calendario(app, ASKED);
    const done = await completedCalendar(app, first.body.Token);
    const asked = airlines.calls.n;
    for (const d of done.body.Data) {
      expect(d.MenorValor).not.toBeNull();
      expect(at(d.ValidoAte) - Date.now()).toBeGreaterThan(170_000);
    }
    const until = Math.min(...done.body.Data.map((d) => at(d.ValidoAte)));

    // Within the margin the same body is that calendar.
    await vi.advanceTimersByTimeAsync(until - 65_000 - Date.now());
    expect((await calendario(app, ASKED)).body.Token).toBe(first.body.Token);

    // Less than a minute left: the same body is a new calendar, every price of it current for more than a minute.
    await vi.advanceTimersByTimeAsync(10_000);
    const fresh = await calendario(app, ASKED);
    expect(fresh.body.Token).not.toBe(first.body.Token);
    const freshDone = await completedCalendar(app, fresh.body.Token);
    for (const d of freshDone.body.Data) expect(at(d.ValidoAte) - Date.now()).toBeGreaterThan(60_000);

    // The first calendar asked by its Token: its days are searched again (their searches are that new calendar's,
    // joined: nothing asked twice), never shown with their old prices.
    const again = await calendario(app, { Token: first.body.Token });
    expect(again.body.Token).toBe(first.body.Token);
    expect(again.body.Progresso.Versao).toBeGreaterThan(done.body.Progresso.Versao);
    for (const d of again.body.Data) if (d.MenorValor !== null) expect(at(d.ValidoAte) - Date.now()).toBeGreaterThan(60_000);
    const redone = await completedCalendar(app, first.body.Token);
    expect(redone.body.Data.map((d) => d.TokenBusca)).toEqual(freshDone.body.Data.map((d) => d.TokenBusca));
    expect(redone.body.Data.map((d) => d.MenorValor)).toEqual(freshDone.body.Data.map((d) => d.MenorValor));
    expect(airlines.calls.n).toBe(2 * asked);
    airlines.close();
  });

  it("while it runs, a day whose prices stopped being current shows as expired, without a price or a search to open; the next request after it searches it again", async () => {
    // Offers current for 20 s (margin 10 s); the last day has an airline taking 40 s.
    const slow = (sourceId: string, q: SearchQuery) => (q.departureDate === "2026-03-21" && sourceId.includes("gol") ? 40_000 : 200);
    const airlines = cachedAirlines(5_000, 15_000, slow);
    const { app } = testApp({ sources: airlines.sources, configInput: { search: { ttlMs: 600_000 } } });
    const token = (await calendario(app, ASKED)).body.Token;
    await vi.advanceTimersByTimeAsync(5_000);
    const priced = await calendario(app, { Token: token });
    expect(priced.body.Data.map((d) => d.Estado)).toEqual(["concluido", "concluido", "buscando"]);
    expect(priced.body.Data[0]!.MenorValor).not.toBeNull();

    await vi.advanceTimersByTimeAsync(7_000);
    const expired = await calendario(app, { Token: token });
    expect(expired.body.Completed).toBe(false);
    for (const i of [0, 1]) {
      const d = expired.body.Data[i]!;
      expect(d).toMatchObject({ Estado: "expirado", Completed: true, MenorValor: null, MenorPontos: null, TokenBusca: null });
      expect(d.ValidoAte).toBeUndefined();
      expect(d.Erro).toMatch(/deixaram de valer/);
    }
    // Its search ran past its offers' end: completed there, it shows no price either.
    await vi.advanceTimersByTimeAsync(10_000);
    const stopped = await calendario(app, { Token: token });
    expect(stopped.body.Data.every((d) => d.MenorValor === null)).toBe(true);
    // The next request after the run: every day searched again.
    await vi.advanceTimersByTimeAsync(1_000);
    const searching = await calendario(app, { Token: token });
    expect(searching.body.Completed).toBe(false);
    expect(searching.body.Data.some((d) => d.Estado === "buscando" || d.Estado === "aguardando")).toBe(true);
    const search = await consultar(app, { Token: priced.body.Data[0]!.TokenBusca });
    expect(search.status).toBe(404);
    airlines.close();
  });
});
