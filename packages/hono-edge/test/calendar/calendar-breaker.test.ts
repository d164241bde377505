/**
 * A calendar whose days meet a half-open breaker, through the upstream adapter over the fake upstream (virtual
 * time): the upstream failed until each airline's breaker opened; after the cool-down, a ±1 calendar starts its
 * three days at once, so one request per airline is the probe and the others are its neighbours. They wait for
 * the probe instead of failing with "aberto por mais 30 s": the probe closes the breaker and every day is priced.
 */
import * as fetchAdapter from "@voar/http-adapter/fetch";
import { createFakeUpstream, createSimulator, liveBackend, SCENARIO_EPOCH } from "@voar/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import { priceCalendar } from "../../src/calendar/price-calendar.js";
import { upstreamSourcesFor } from "../../src/sources/upstream-sources.js";
import { consultar, memoryLogger, testConfig } from "../support/app.js";
import { calendario, completedCalendar } from "./support.js";

const ACCOUNT = { username: "agencia", password: "segredo-da-agencia" };

beforeEach(() => vi.useFakeTimers({ now: SCENARIO_EPOCH }));
afterEach(() => vi.useRealTimers());

describe("a calendar beside a half-open breaker", () => {
  it("its days wait for the probe instead of failing: the probe closes the breaker and every day is priced", async () => {
    // The upstream fails its first 6 search requests (each airline's breaker opens after 3), then answers.
    const upstream = createFakeUpstream({
      backend: liveBackend({ sources: createSimulator({ latencyMs: 300, batches: 2 }).sources }),
      auth: { accounts: [ACCOUNT] },
      faults: [{ at: 1, through: 6, fault: { kind: "status", status: 503 } }],
    });
    const config = testConfig({ upstream: { url: "http://fake-upstream.test/api", ...ACCOUNT, airlines: [1, 2], otas: false, strategy: "fan-out" } });
    const polling = { initialDelayMs: 250, maxDelayMs: 1_000 };
    const { sources } = upstreamSourcesFor(config.upstream!, {
      createFanOutSources: (o) => fetchAdapter.createFanOutSources({ ...o, fetch: upstream.fetch, polling }),
      createUpstreamSource: (o) => fetchAdapter.createUpstreamSource({ ...o, fetch: upstream.fetch, polling }),
    });
    const app = createApp({ config, sources, logger: memoryLogger().logger, priceCalendar: priceCalendar() });
    const ida = (days: number) => new Date(SCENARIO_EPOCH + days * 86_400_000).toISOString().slice(0, 10);

    // A search meets the failing upstream: both airlines fail, their breakers open.
    let failed = await consultar(app, { Origem: "CNF", Destino: "GIG", Ida: ida(20) });
    for (let i = 0; i < 60 && !failed.body.Completed; i++) {
      await vi.advanceTimersByTimeAsync(500);
      failed = await consultar(app, { Token: failed.body.Token });
    }
    expect(failed.status).toBe(502);
    expect(upstream.stats.searches).toBe(6);

    // The cool-down passes: the next requests of each airline are one probe and its neighbours.
    await vi.advanceTimersByTimeAsync(31_000);
    const done = await completedCalendar(app, (await calendario(app, { Origem: "CNF", Destino: "GIG", Ida: ida(30), DiasFlexiveis: 1 })).body.Token, 250);
    expect(done.body).toMatchObject({ Success: true, Completed: true });
    for (const day of done.body.Data) {
      expect(day.Fontes.map((f) => f.Estado)).toEqual(["concluida", "concluida"]);
      expect(day.MenorValor).not.toBeNull();
    }
    upstream.close();
  });
});
