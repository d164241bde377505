/**
 * The service protecting the upstream it pays for, as a client sees it (virtual time): an upstream whose
 * every airline fails costs a few requests for the first search, none for the next ones while the
 * breakers are open; each airline shows in `Progresso.Fontes` as unavailable with the catalogue's sentence,
 * and the answer says to retry later (`Retentavel`, `Retry-After`).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SOURCE_FAILURE } from "@voar/core";
import * as fetchAdapter from "@voar/http-adapter/fetch";
import { createFakeUpstream, createSimulator, liveBackend, SCENARIO_EPOCH, type FakeUpstream } from "@voar/testing";
import { createApp } from "../../src/app/create-app.js";
import { upstreamSourcesFor, type UpstreamAdapter } from "../../src/sources/upstream-sources.js";
import { consultar, memoryLogger, testConfig } from "../support/app.js";

const UPSTREAM = "http://fake-upstream.test/api";
const ACCOUNT = { username: "agencia", password: "segredo-da-agencia" };
const AIRLINES = 9;

const adapterOver = (upstream: FakeUpstream): UpstreamAdapter => ({
  createFanOutSources: (o) => fetchAdapter.createFanOutSources({ ...o, fetch: upstream.fetch, polling: { initialDelayMs: 250, maxDelayMs: 1_000 } }),
  createUpstreamSource: (o) => fetchAdapter.createUpstreamSource({ ...o, fetch: upstream.fetch, polling: { initialDelayMs: 250, maxDelayMs: 1_000 } }),
});

const deadUpstream = () =>
  createFakeUpstream({
    backend: liveBackend({ sources: createSimulator({ latencyMs: 500, batches: 1 }).sources }),
    auth: { accounts: [ACCOUNT] },
    faults: [{ at: 1, through: "end", fault: { kind: "status", status: 500 } }],
  });

const proxyOver = (upstream: FakeUpstream, breaker: { enabled?: boolean } = {}, budget: { requestsPerSearch?: number } = {}, strategy: "fan-out" | "one-search" = "fan-out") => {
  const config = testConfig({ upstream: { url: UPSTREAM, ...ACCOUNT, breaker, budget, strategy } });
  if (!config.upstream) throw new Error("the test configuration has an upstream");
  const states: string[] = [];
  const sources = upstreamSourcesFor(config.upstream, adapterOver(upstream), { onBreakerStateChange: (id, s) => states.push(`${id} ${s}`) });
  return { app: createApp({ config, sources: sources.sources, logger: memoryLogger().logger }), states, close: sources.close };
};

/** Sends the query, then polls by Token every second until Completed; the last answer. */
const searchToEnd = async (app: ReturnType<typeof createApp>, body: Record<string, unknown>) => {
  let answer = await consultar(app, body);
  const token = answer.body.Token;
  for (let i = 0; i < 300 && !answer.body.Completed; i++) {
    await vi.advanceTimersByTimeAsync(1_000);
    answer = await consultar(app, { Token: token });
  }
  return answer;
};

/** Mode A from CNF to GIG on day `n` of September: ten searches, ten queries. */
const query = (n: number) => ({ Origem: "CNF", Destino: "GIG", Ida: `2026-09-${String(10 + n).padStart(2, "0")}`, Companhia: -1 });

beforeEach(() => vi.useFakeTimers({ now: SCENARIO_EPOCH }));
afterEach(() => vi.useRealTimers());

describe("the upstream protected by a breaker per airline", () => {
  it("every airline failing: 10 searches cost at most 30 upstream requests; each airline is unavailable, the answer retryable", async () => {
    const upstream = deadUpstream();
    const proxy = proxyOver(upstream);
    for (let n = 0; n < 10; n++) {
      const last = await searchToEnd(proxy.app, query(n));
      expect(last.status).toBe(502);
      expect(last.body).toMatchObject({ Success: false, Completed: true, Erro: { Codigo: "FALHA_FORNECEDOR", Retentavel: true } });
      expect(Number(last.res.headers.get("retry-after"))).toBeGreaterThan(0);
      const fontes = last.body.Progresso.Fontes;
      expect(fontes).toHaveLength(AIRLINES);
      for (const f of fontes) {
        expect(f).toMatchObject({ Estado: "falhou", Codigo: "FALHA_FORNECEDOR", Retentavel: true, Erro: SOURCE_FAILURE.SourceUnavailable.mensagem });
      }
    }
    expect(upstream.stats.searches).toBeLessThanOrEqual(30);
    expect(proxy.states.filter((s) => s.endsWith(" open"))).toHaveLength(AIRLINES);
    await proxy.close();
    upstream.close();
  });

  it("with upstream.breaker.enabled false, every search asks every airline again (the cost the breaker saves)", async () => {
    const upstream = deadUpstream();
    const proxy = proxyOver(upstream, { enabled: false });
    for (let n = 0; n < 2; n++) await searchToEnd(proxy.app, query(n));
    expect(upstream.stats.searches).toBeGreaterThan(2 * 3 * AIRLINES);
    expect(proxy.states).toEqual([]);
    await proxy.close();
    upstream.close();
  });

  it("a search that spends upstream.budget.requestsPerSearch stops its airlines, each shown as stopped by the budget", async () => {
    // Slow airlines: each needs several polls.
    const upstream = createFakeUpstream({
      backend: liveBackend({ sources: createSimulator({ latencyMs: 20_000, batches: 1 }).sources, progressiveModeA: false }),
      auth: { accounts: [ACCOUNT] },
    });
    const proxy = proxyOver(upstream, {}, { requestsPerSearch: 12 });
    const last = await searchToEnd(proxy.app, query(0));
    expect(upstream.stats.searches + upstream.stats.logins).toBe(12); // its login included
    const fontes = last.body.Progresso.Fontes;
    expect(fontes).toHaveLength(AIRLINES);
    // The slow airlines are stopped by the budget; one the upstream has no search of (Interline) is done at once.
    const stopped = fontes.filter((f) => f.Estado === "falhou");
    expect(stopped.map((f) => f.Nome)).toEqual(["LATAM", "GOL", "Azul", "TAP", "Copa", "American Airlines", "Iberia", "Livelo"]);
    for (const f of stopped) expect(f).toMatchObject({ Codigo: "FALHA_FORNECEDOR", Erro: SOURCE_FAILURE.RequestBudgetExhausted.mensagem, Retentavel: true });
    // No breaker opened: the upstream answered every request it got.
    expect(proxy.states).toEqual([]);
    await proxy.close();
    upstream.close();
  });

  it("the default, one all-airlines upstream search: 10 searches of a dead upstream cost 3 requests, every airline unavailable", async () => {
    const upstream = deadUpstream();
    const proxy = proxyOver(upstream, {}, {}, "one-search");
    for (let n = 0; n < 10; n++) {
      const last = await searchToEnd(proxy.app, query(n));
      expect(last.status).toBe(502);
      expect(last.body).toMatchObject({ Success: false, Completed: true, Erro: { Codigo: "FALHA_FORNECEDOR", Retentavel: true } });
      for (const f of last.body.Progresso.Fontes) expect(f).toMatchObject({ Estado: "falhou", Retentavel: true, Erro: SOURCE_FAILURE.SourceUnavailable.mensagem });
    }
    expect(upstream.stats.searches).toBe(3);
    expect(proxy.states).toEqual(["upstream:all open"]);
    await proxy.close();
    upstream.close();
  });
});
