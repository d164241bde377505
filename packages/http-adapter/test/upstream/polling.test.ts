import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FetchLike } from "../../src/fetch.js";
import { createUpstreamSource, pollDelay, defaultPolling } from "../../src/fetch.js";
import { runSearch, startSearch } from "../support/run-search.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";

/** A fetch that notes when each search request was sent and the body it carried. */
const spying = (inner: FetchLike) => {
  const started = Date.now();
  const calls: { at: number; body: Record<string, unknown>; signal: AbortSignal | undefined }[] = [];
  const fetch: FetchLike = (input, init) => {
    if (String(input).endsWith("/Consultar")) calls.push({ at: Date.now() - started, body: JSON.parse(String(init?.body)) as Record<string, unknown>, signal: init?.signal ?? undefined });
    return inner(input, init);
  };
  return { fetch, calls };
};

describe("polling", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it("backs off between polls: 1 s, 1.5 s, 2.25 s... capped at 10 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => pollDelay(defaultPolling, n, undefined))).toEqual([1000, 1500, 2250, 3375, 5063, 7594, 10000, 10000]);
    expect(pollDelay(defaultPolling, 8, 15_000)).toBe(15_000);
  });

  it("sends the query first, then polls with the LeaseId it was given, never further apart than the plain client's 10 s", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: { latam: 500, gol: 9_000, azul: 3_000 } } });
    const spy = spying(upstream.fetch);
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: spy.fetch });
    // A round trip CNF-GIG: over 100 price groups (every fare of a flight pairs; a one-way has about 40).
    const run = await runSearch({ ...testQuery({ kind: "all-airlines" }, "2026-09-20"), destination: "GIG" }, [source]);
    expect(run.last().sources[0]).toMatchObject({ state: "done" });
    expect(spy.calls[0]!.body).toMatchObject({ Origem: "CNF", Destino: "GIG", Ida: "2026-09-15", Volta: "2026-09-20", Companhia: -1, NumeroPagina: 1, QuantidadePorPagina: 100 });
    expect(spy.calls.slice(1).every((c) => c.body.LeaseId === "lease-1")).toBe(true);
    const firstPages = spy.calls.filter((c) => c.body.NumeroPagina === 1).map((c) => c.at);
    // Nothing learned yet: polls come closer together early (an airline never seen is as likely to answer in each
    // doubling of time), and never further apart than the plain client's 10 s while the search runs (GOL, 9 s, is
    // seen on the plain client's grid at the latest).
    expect(firstPages[0]).toBe(0);
    for (let i = 1; i < firstPages.length; i++) expect(firstPages[i]! - firstPages[i - 1]!).toBeLessThanOrEqual(10_100);
    expect(firstPages[1]!).toBeLessThan(3_000);
    expect(firstPages.at(-1)!).toBeLessThanOrEqual(10_100);
    // Over 100 price groups: the pages after the first are fetched once the search is complete, each once.
    const later = spy.calls.filter((c) => (c.body.NumeroPagina as number) > 1);
    expect(later.length).toBeGreaterThan(0);
    expect(later.map((c) => [c.at, c.body.LeaseId, c.body.NumeroPagina])).toEqual(later.map((_, i) => [firstPages.at(-1), "lease-1", i + 2]));
    upstream.close();
  });

  it("gives up after maxPolls with a SourceTimeout, and the engine's retries are bounded", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 600_000 }, backend: { deadlineMs: 3_600_000 } });
    const spy = spying(upstream.fetch);
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: spy.fetch, polling: { maxPolls: 4, initialDelayMs: 100, factor: 1, maxDelayMs: 100 } });
    const run = await runSearch(testQuery(), [source], { baseDelayMs: 10 });
    expect(run.last().sources[0]).toMatchObject({ state: "failed", attempts: 3, error: { tag: "SourceTimeout" } });
    expect(spy.calls).toHaveLength(3 * 4);
    // Retried attempts resume the same upstream search: one search, polled by its lease.
    expect(spy.calls.filter((c) => c.body.LeaseId === undefined)).toHaveLength(1);
    upstream.close();
  });

  it("unsubscribing aborts the request in flight", async () => {
    const upstream = liveUpstream({ faults: [{ at: 2, fault: { kind: "slow", delayMs: 30_000 } }] });
    const spy = spying(upstream.fetch);
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: spy.fetch });
    const run = startSearch(testQuery(), [source]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(spy.calls).toHaveLength(2);
    expect(spy.calls[1]!.signal?.aborted).toBe(false);
    run.stop();
    await vi.advanceTimersByTimeAsync(1); // the engine's interruption runs its finalizers asynchronously
    expect(spy.calls[1]!.signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(spy.calls).toHaveLength(2);
    upstream.close();
  });

  it("times out a request that hangs, as a retryable SourceTimeout, and polls on", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 2_000 }, faults: [{ at: 2, fault: { kind: "slow", delayMs: 60_000 } }] });
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, requestTimeoutMs: 5_000 });
    const run = await runSearch(testQuery(), [source]);
    expect(run.last().sources[0]).toMatchObject({ state: "done", attempts: 1 });
    expect(run.offers().length).toBeGreaterThan(0);
    upstream.close();
  });

  it("fetches every page of a large Mode A result once complete", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 } });
    const spy = spying(upstream.fetch);
    const paged = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: spy.fetch, pageSize: 5 });
    const whole = createUpstreamSource({ id: "whole", baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch });
    const a = await runSearch(testQuery(), [paged]);
    const b = await runSearch(testQuery(), [whole]);
    expect(spy.calls.filter((c) => (c.body.NumeroPagina as number) > 1).length).toBeGreaterThan(3);
    const keys = (r: typeof a) => r.offers().map((o) => `${o.flightKey}|${o.total.amount}`).sort();
    expect(keys(a)).toEqual(keys(b));
    upstream.close();
  });
});
