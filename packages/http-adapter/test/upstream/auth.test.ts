import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createUpstreamSource } from "../../src/fetch.js";
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
