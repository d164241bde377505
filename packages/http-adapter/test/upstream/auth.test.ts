import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFanOutSources, createUpstreamSource } from "../../src/fetch.js";
import { memoryLoginStore } from "../../src/upstream/login-store.js";
import { runSearch } from "../support/run-search.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";

describe("credentials", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it("logs in with the password grant (form, Origin externo) and keeps the token until shortly before it expires", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 }, auth: { accounts: [agency], tokenTtlS: 60 } });
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch });
    await runSearch(testQuery(), [source]);
    expect(source.session.logins).toBe(1);
    await vi.advanceTimersByTimeAsync(50_000);
    await runSearch(testQuery({ kind: "ota-comparison" }), [source]);
    expect(source.session.logins).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000); // 55 s: within the last tenth of the token's 60 s
    await runSearch(testQuery({ kind: "single-airline", airlineId: 2 }), [source]);
    expect(source.session.logins).toBe(2);
    expect(upstream.stats.unauthorized).toBe(0);
    upstream.close();
  });

  it("after a refused token logs in once more; refused again, fails with AuthError, not retried", async () => {
    const upstream = liveUpstream({ faults: [{ at: 1, through: 2, fault: { kind: "revoke-tokens" } }] });
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch });
    const run = await runSearch(testQuery(), [source]);
    expect(run.last().sources[0]).toMatchObject({ state: "failed", attempts: 1, error: { tag: "AuthError", retryable: false } });
    expect(source.session.logins).toBe(2);
    upstream.close();
  });

  it("sends a static token as is, and never tries to log in with it", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 }, auth: { tokens: ["chave-estatica"] } });
    const ok = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: { token: "chave-estatica" }, fetch: upstream.fetch });
    expect((await runSearch(testQuery(), [ok])).last().sources[0]).toMatchObject({ state: "done" });
    const bad = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: { token: "outra" }, fetch: upstream.fetch });
    expect((await runSearch(testQuery(), [bad])).last().sources[0]).toMatchObject({ state: "failed", error: { tag: "AuthError" } });
    expect(upstream.stats.logins).toBe(0);
    upstream.close();
  });

  it("a wrong password is an AuthError, without the upstream's words", async () => {
    const upstream = liveUpstream();
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: { ...agency, password: "errada" }, fetch: upstream.fetch });
    const details: string[] = [];
    const progress = (await runSearch(testQuery(), [source], { onSourceError: (f) => details.push(f.error.message) })).last().sources[0]!;
    expect(progress).toMatchObject({ state: "failed", attempts: 1, error: { tag: "AuthError" } });
    expect(details).toEqual([expect.stringMatching(/HTTP 400/)]);
    upstream.close();
  });
});

describe("logins are a resource of the upstream too", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it("/Token answering 500: 10 searches send 3 logins, then none until the cool-down, each search failing at once, retryable", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 }, loginFaults: [{ at: 1, through: "end", fault: { kind: "status", status: 500 } }] });
    const states: string[] = [];
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1, 2, 3], login: { onStateChange: (s) => states.push(s.state) } });
    for (let i = 0; i < 10; i++) {
      const last = (await runSearch(testQuery(), sources)).last();
      for (const p of last.sources) expect(p).toMatchObject({ state: "failed", error: { retryable: true } });
      if (i > 0) expect(last.sources.every((p) => p.error?.tag === "SourceUnavailable")).toBe(true);
    }
    expect(upstream.stats.logins).toBeLessThanOrEqual(5);
    expect(upstream.stats.logins).toBe(3);
    expect(upstream.stats.searches).toBe(0);
    expect(sources[0]!.session.state).toMatchObject({ state: "failing", retryAfterMs: 30_000 });
    expect(states).toEqual(["failing"]);
  });

  it("/Token back after the cool-down: one probe logs in and the searches run", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 }, loginFaults: [{ at: 1, through: 3, fault: { kind: "status", status: 503 } }] });
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1, 2, 3] });
    await runSearch(testQuery(), sources);
    await vi.advanceTimersByTimeAsync(30_000);
    const run = await runSearch(testQuery(), sources);
    expect(run.last().sources.every((p) => p.state === "done")).toBe(true);
    expect(upstream.stats.logins).toBe(4);
    expect(sources[0]!.session.state).toEqual({ state: "ok" });
  });

  it("a refused credential (400 invalid_grant) stops logins: one login for 10 searches, the state says configuração", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 }, loginFaults: [{ at: 1, through: "end", fault: { kind: "invalid-grant" } }] });
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1, 2, 3] });
    for (let i = 0; i < 10; i++) {
      const last = (await runSearch(testQuery(), sources)).last();
      for (const p of last.sources) expect(p).toMatchObject({ state: "failed", attempts: 1, error: { tag: "AuthError", retryable: false } });
    }
    expect(upstream.stats.logins).toBe(1);
    expect(sources[0]!.session.state).toEqual({ state: "refused", detail: expect.stringMatching(/HTTP 400, invalid_grant.*configuração/) });
    // Fifteen minutes later, one login tries the same credentials again.
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    await runSearch(testQuery(), sources);
    expect(upstream.stats.logins).toBe(2);
  });

  it("a 429 on /Token is waited out: no login before its Retry-After", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 }, loginFaults: [{ at: 1, fault: { kind: "rate-limit", retryAfterS: 120 } }] });
    const sources = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1, 2] });
    await runSearch(testQuery(), sources);
    expect(upstream.stats.logins).toBe(1);
    const early = await runSearch(testQuery(), sources);
    expect(early.last().sources.every((p) => p.error?.tag === "SourceUnavailable")).toBe(true);
    expect(upstream.stats.logins).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect((await runSearch(testQuery(), sources)).last().sources.every((p) => p.state === "done")).toBe(true);
    expect(upstream.stats.logins).toBe(2);
  });

  it("two instances sharing a login store log in once: the second takes the token the first got", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 } });
    const store = memoryLoginStore();
    const a = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1], login: { store } });
    const b = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, airlines: [1], login: { store } });
    await Promise.all([runSearch(testQuery(), a), runSearch({ ...testQuery(), departureDate: "2026-09-16" }, b)]);
    expect(upstream.stats.logins).toBe(1);
    expect(a[0]!.session.logins + b[0]!.session.logins).toBe(1);
  });
});
