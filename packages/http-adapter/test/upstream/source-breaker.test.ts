/**
 * The upstream protected from the adapter's own searches, against the fake upstream: a breaker per airline
 * (not asked while open, shown as unavailable, probed after the cool-down), a budget of requests per search,
 * and no retry of what a retry cannot change.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { snapshotToEnvelope, SOURCE_FAILURE, type SearchSnapshot } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createFakeUpstream, type FakeUpstream, type UpstreamReply } from "@voar/testing";
import { createFanOutSources, memoryBreakerStore, type BreakerState } from "../../src/fetch.js";
import { runSearch } from "../support/run-search.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";

const everyRequestFails = [{ at: 1, through: "end" as const, fault: { kind: "status" as const, status: 500 } }];
const AIRLINES = 9;

const envelopeOf = (s: SearchSnapshot) => snapshotToEnvelope(s, { searchId: "s", requestId: "r", page: 1, pageSize: 10, airports });

describe("upstream protection", () => {
  let upstream: FakeUpstream | undefined;
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => {
    upstream?.close();
    upstream = undefined;
    vi.useRealTimers();
  });

  it("every airline failing: 10 searches make at most 30 upstream requests, and each airline shows as unavailable, retryable", async () => {
    upstream = liveUpstream({ faults: everyRequestFails });
    const changes: [string, BreakerState][] = [];
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, strategy: "fan-out", breaker: { onBreakerStateChange: (id, s) => changes.push([id, s]) } });
    const lasts: SearchSnapshot[] = [];
    for (let i = 0; i < 10; i++) lasts.push((await runSearch(testQuery(), fan)).last());
    expect(upstream.stats.searches).toBeLessThanOrEqual(30);
    // The first search learns it: three failed requests per airline; the nine others ask nothing.
    expect(upstream.stats.searches).toBe(3 * AIRLINES);
    for (const last of lasts) {
      expect(last.completed).toBe(true);
      expect(last.sources).toHaveLength(AIRLINES);
      for (const p of last.sources) {
        expect(p).toMatchObject({ state: "failed", error: { tag: "SourceUnavailable", message: SOURCE_FAILURE.SourceUnavailable.mensagem, retryable: true } });
      }
      const { status, body } = envelopeOf(last);
      expect(status).toBe(502);
      expect(body).toMatchObject({ Erro: { Codigo: "FALHA_FORNECEDOR", Retentavel: true } });
      expect(body.Progresso?.Fontes.every((f) => f.Estado === "falhou" && f.Retentavel === true && f.Erro === SOURCE_FAILURE.SourceUnavailable.mensagem)).toBe(true);
    }
    // Searches after the first never asked: one attempt each, declined at once.
    expect(lasts.slice(1).every((s) => s.sources.every((p) => p.attempts === 1))).toBe(true);
    expect(changes).toEqual(fan.map((s) => [s.id, "open"]));
  });

  it("the same searches with the breaker off cost the upstream every retry, every time", async () => {
    upstream = liveUpstream({ faults: everyRequestFails });
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, strategy: "fan-out", breaker: false });
    for (let i = 0; i < 2; i++) await runSearch(testQuery(), fan);
    // Per airline and search: 3 engine attempts, each the request and its 2 poll retries.
    expect(upstream.stats.searches).toBe(2 * AIRLINES * 3 * 3);
  });

  it("after the cool-down one probe per airline goes; an upstream that is back closes the breakers and answers", async () => {
    // The first search's 27 requests fail; the upstream answers again from then on.
    upstream = liveUpstream({ faults: [{ at: 1, through: 3 * AIRLINES, fault: { kind: "status", status: 503 } }] });
    const changes: [string, BreakerState][] = [];
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, strategy: "fan-out", breaker: { cooldownMs: 60_000, onBreakerStateChange: (id, s) => changes.push([id, s]) } });
    await runSearch(testQuery(), fan);
    expect(upstream.stats.searches).toBe(3 * AIRLINES);
    const early = await runSearch(testQuery(), fan);
    expect(upstream.stats.searches).toBe(3 * AIRLINES);
    expect(early.last().sources.every((p) => p.error?.tag === "SourceUnavailable")).toBe(true);

    await vi.advanceTimersByTimeAsync(60_000);
    const probe = await runSearch(testQuery(), fan);
    expect(probe.last().sources.every((p) => p.state === "done")).toBe(true);
    expect(probe.offers().length).toBeGreaterThan(0);
    expect(changes.filter(([, s]) => s === "half-open")).toHaveLength(AIRLINES);
    expect(changes.slice(-AIRLINES).every(([, s]) => s === "closed")).toBe(true);
  });

  it("two instances sharing one store: an airline one of them found down is not asked by the other", async () => {
    upstream = liveUpstream({ faults: everyRequestFails });
    const store = memoryBreakerStore();
    const a = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, strategy: "fan-out", airlines: [1, 2], breaker: { store } });
    const b = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, strategy: "fan-out", airlines: [1, 2], breaker: { store } });
    await runSearch(testQuery(), a);
    expect(upstream.stats.searches).toBe(3 * 2);
    const other = await runSearch(testQuery(), b);
    expect(upstream.stats.searches).toBe(3 * 2);
    expect(other.last().sources.map((p) => p.error?.tag)).toEqual(["SourceUnavailable", "SourceUnavailable"]);
  });

  it.each<[string, UpstreamReply, string]>([
    ["a business refusal (Success false)", { status: 200, json: { Success: false, HasResult: false, Completed: true, Data: [], MensagemErro: "Origem inválida" } }, "BusinessError"],
    ["an answer that is not JSON", { status: 200, text: "<html>manutenção</html>" }, "MalformedPayload"],
    ["a permission refusal (HTTP 403)", { status: 403, text: "" }, "PermissionDenied"],
  ])("%s is asked once per airline, never retried, and opens no breaker", async (_, reply, tag) => {
    upstream = createFakeUpstream({ backend: { answer: () => reply, close: () => undefined }, auth: { tokens: ["k"] } });
    const changes: string[] = [];
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch: upstream.fetch, strategy: "fan-out", breaker: { onBreakerStateChange: (id, s) => changes.push(`${id} ${s}`) } });
    for (let i = 0; i < 3; i++) {
      const run = await runSearch(testQuery(), fan, { maxAttempts: 3 });
      expect(run.last().sources.every((p) => p.state === "failed" && p.attempts === 1 && p.error?.tag === tag && !p.error.retryable)).toBe(true);
    }
    expect(upstream.stats.searches).toBe(3 * AIRLINES);
    expect(changes).toEqual([]);
  });

  it("a search that spends its budget of requests stops its sources, visibly, without another request", async () => {
    // Slow airlines: their searches need several polls each.
    upstream = liveUpstream({ simulator: { latencyMs: { latam: 30_000, gol: 30_000, azul: 30_000 } }, backend: { progressiveModeA: false, deadlineMs: 120_000 } });
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, strategy: "fan-out", airlines: [1, 2, 3], budget: { maxRequestsPerSearch: 7 } });
    const run = await runSearch(testQuery(), fan);
    // The login the search needed is one of its requests.
    expect(upstream.stats.searches + upstream.stats.logins).toBe(7);
    expect(run.last().completed).toBe(true);
    for (const p of run.last().sources) {
      expect(p).toMatchObject({ state: "failed", attempts: 1, error: { tag: "RequestBudgetExhausted", message: SOURCE_FAILURE.RequestBudgetExhausted.mensagem, retryable: true } });
    }
    // The next search has a budget of its own.
    await runSearch(testQuery(), fan);
    expect(upstream.stats.searches + upstream.stats.logins).toBe(14);
  });

  it("the default budget (32 requests per airline) does not stop a search that completes normally", async () => {
    upstream = liveUpstream({ simulator: { latencyMs: { latam: 30_000, gol: 5_000, azul: 60_000 } }, backend: { progressiveModeA: false, deadlineMs: 120_000 } });
    const fan = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, strategy: "fan-out", airlines: [1, 2, 3], budget: {} });
    const run = await runSearch(testQuery(), fan, { deadlineMs: 150_000 });
    expect(run.last().sources.map((p) => p.state)).toEqual(["done", "done", "done"]);
    // Polled for a minute with backoff: well within 3 x 32.
    expect(upstream.stats.searches).toBeGreaterThan(10);
  });
});
