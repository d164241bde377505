/**
 * A calendar's own budget of upstream requests, through the upstream adapter over the fake upstream (virtual
 * time): its days together never make more requests than it allows; a day stopped by it is partial and says
 * why, and is the calendar's alone: the same day searched outside the calendar asks the upstream again.
 */
import { CALENDAR_BUDGET_FAILURE } from "@voar/core";
import * as fetchAdapter from "@voar/http-adapter/fetch";
import { createFakeUpstream, createSimulator, liveBackend, SCENARIO_EPOCH, type FakeUpstream } from "@voar/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import { priceCalendar } from "../../src/calendar/price-calendar.js";
import type { ServiceConfigInput } from "../../src/config/config-schema.js";
import { upstreamSourcesFor } from "../../src/sources/upstream-sources.js";
import { consultar, memoryLogger, testConfig } from "../support/app.js";
import { calendario, completedCalendar } from "./support.js";

const ACCOUNT = { username: "agencia", password: "segredo-da-agencia" };

const proxyOver = (upstream: FakeUpstream, calendar: ServiceConfigInput["calendar"]) => {
  const config = testConfig({ upstream: { url: "http://fake-upstream.test/api", ...ACCOUNT, airlines: [1, 2], otas: false }, calendar });
  const polling = { initialDelayMs: 250, maxDelayMs: 1_000 };
  const sources = upstreamSourcesFor(config.upstream!, {
    createFanOutSources: (o) => fetchAdapter.createFanOutSources({ ...o, fetch: upstream.fetch, polling }),
    createUpstreamSource: (o) => fetchAdapter.createUpstreamSource({ ...o, fetch: upstream.fetch, polling }),
  });
  return createApp({ config, sources: sources.sources, logger: memoryLogger().logger, priceCalendar: priceCalendar() });
};

beforeEach(() => vi.useFakeTimers({ now: SCENARIO_EPOCH }));
afterEach(() => vi.useRealTimers());

describe("a calendar's budget of upstream requests", () => {
  it("caps the requests of all its days; a day it stopped is partial, says why, and is not shared with a search outside it", async () => {
    const upstream = createFakeUpstream({ backend: liveBackend({ sources: createSimulator({ latencyMs: 2_000, batches: 2 }).sources }), auth: { accounts: [ACCOUNT] } });
    // 2 requests per day asked, 3 days: 6 in all, fewer than a day's two airlines polling for 2 s take twice.
    const app = proxyOver(upstream, { requestsPerDay: 2, concurrency: 1 });
    const ida = new Date(SCENARIO_EPOCH + 30 * 86_400_000).toISOString().slice(0, 10);
    const done = await completedCalendar(app, (await calendario(app, { Origem: "CNF", Destino: "GIG", Ida: ida, DiasFlexiveis: 1 })).body.Token, 250);
    expect(done.body).toMatchObject({ Success: true, Completed: true });
    expect(upstream.stats.searches).toBeLessThanOrEqual(6);
    const stopped = done.body.Data.filter((d) => d.Fontes.some((f) => f.Erro === CALENDAR_BUDGET_FAILURE.mensagem));
    expect(stopped.length).toBeGreaterThan(0);
    for (const day of stopped) expect(day.Completed).toBe(true);

    // The same day outside the calendar: a search of its own, with its own budget, that asks the upstream.
    const day = stopped.at(-1)!;
    const before = upstream.stats.searches;
    const first = await consultar(app, { Origem: "CNF", Destino: "GIG", Ida: day.Data });
    expect(first.body.Token).not.toBe(day.TokenBusca);
    let answer = first;
    for (let i = 0; i < 120 && !answer.body.Completed; i++) {
      await vi.advanceTimersByTimeAsync(500);
      answer = await consultar(app, { Token: first.body.Token });
    }
    expect(answer.body).toMatchObject({ Success: true, Completed: true });
    expect(answer.body.Progresso.Fontes.every((f) => f.Estado === "concluida")).toBe(true);
    expect(upstream.stats.searches).toBeGreaterThan(before);
    upstream.close();
  });
});
