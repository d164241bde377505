/**
 * Searches that fail: a permission refusal answers its own, non-retryable code; the answer's `Retentavel`
 * follows its sources; a failed search is not replayed to new requests for the whole TTL (config
 * `search.failedTtlMs`, see the README), and a retryable one says in `Retry-After` when a repeat asks the
 * sources again; the upstream's own words go to the log, never to the client.
 */
import { AuthError, BusinessError, HttpStatusError, MalformedPayload, NOT_RETRYABLE_FAILURE_MESSAGE, PermissionDenied, RateLimited, SourceUnavailable, type SourceError } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FAILED_REJOIN_MS } from "../src/search/search-change.js";
import { consultar, fastSources, NOW, QUERY, testApp } from "./support/app.js";
import { countCalls } from "./support/wire.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** The simulator's Mode A sources (every airline and programme). */
const MODE_A = fastSources()
  .filter((s) => s.kind === "airline")
  .map((s) => s.id);
const every = (error: SourceError) => Object.fromEntries(MODE_A.map((id) => [id, { error }]));

/** An app whose sources fail as given, counting the calls each source gets. */
const appWith = (failures: Parameters<typeof fastSources>[0] = {}, configInput = {}) => {
  const counted = countCalls(fastSources(failures));
  return { ...testApp({ sources: counted.sources, configInput }), calls: counted };
};

/** Starts the query's search and lets it finish (fast sources: 200 ms). */
const finished = async (app: ReturnType<typeof testApp>["app"]) => {
  const first = await consultar(app, QUERY);
  await vi.advanceTimersByTimeAsync(1_000);
  return first.body.Token;
};

describe("a permission refusal", () => {
  it("answers 403 SEM_PERMISSAO, Retentavel false, with our sentence; each source asked once; the upstream's words only in the log", async () => {
    const words = "Usuário 4411 não possui permissão (token=SECRET-abc)";
    const { app, logs, calls } = appWith({ failures: every(new PermissionDenied({ detail: words })) }, { search: { maxAttempts: 3 } });
    const token = await finished(app);
    const { status, body } = await consultar(app, { Token: token });
    expect(status).toBe(403);
    expect(body).toMatchObject({ Success: false, Completed: true, Erro: { Codigo: "SEM_PERMISSAO", Retentavel: false } });
    expect(body.MensagemErro).toMatch(/permissão/);
    expect(body.Progresso.Fontes.every((f) => f.Codigo === "SEM_PERMISSAO" && f.Retentavel === false && f.Erro === "A agência não tem permissão para consultar este fornecedor.")).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/SECRET|4411/);
    expect([...calls.calls.values()]).toEqual(MODE_A.map(() => 1));
    const failed = logs.records.filter((r) => r.msg === "search.source_failed");
    expect(failed).toHaveLength(MODE_A.length);
    expect(failed[0]).toMatchObject({ level: "warn", searchId: token, tag: "PermissionDenied", detail: expect.stringContaining("Usuário 4411 não possui permissão (token=[REDACTED])") });
    expect(new Set(failed.map((r) => r["sourceId"]))).toEqual(new Set(MODE_A));
  });

  it("a server exception stays FALHA_FORNECEDOR, Retentavel true, and is retried", async () => {
    const { app, calls } = appWith({ failures: every(new HttpStatusError({ status: 500 })) }, { search: { maxAttempts: 2 } });
    const token = await finished(app);
    const { status, body } = await consultar(app, { Token: token });
    expect(status).toBe(502);
    expect(body.Erro).toMatchObject({ Codigo: "FALHA_FORNECEDOR", Retentavel: true });
    expect([...calls.calls.values()]).toEqual(MODE_A.map(() => 2));
  });
});

describe("the answer's retry hint follows its sources", () => {
  it("every source failed for a reason a retry does not change: Retentavel false, a sentence that does not say to try again, no Retry-After", async () => {
    const reasons = [new MalformedPayload({ detail: "x" }), new BusinessError({ detail: "x" }), new AuthError({ detail: "x" })];
    const failures = Object.fromEntries(MODE_A.map((id, i) => [id, { error: reasons[i % reasons.length]! }]));
    const { app } = appWith({ failures });
    const token = await finished(app);
    for (const answer of [await consultar(app, { Token: token }), await consultar(app, QUERY)]) {
      expect(answer.status).toBe(502);
      expect(answer.body.Erro).toMatchObject({ Codigo: "FALHA_FORNECEDOR", Retentavel: false });
      expect(answer.body.MensagemErro).toBe(NOT_RETRYABLE_FAILURE_MESSAGE);
      expect(answer.body.MensagemErro).not.toMatch(/Tente de novo/);
      expect(answer.body.Progresso.Fontes.every((f) => f.Retentavel === false)).toBe(true);
      expect(answer.res.headers.get("Retry-After")).toBeNull();
    }
  });

  it("one retryable failure among them makes the answer retryable, and a repeat after Retry-After asks the sources again", async () => {
    const failures = { ...every(new BusinessError({ detail: "x" })), gol: { error: new HttpStatusError({ status: 503 }) } };
    const { app, calls } = appWith({ failures }, { search: { maxAttempts: 1 } });
    const token = await finished(app);
    const polled = await consultar(app, { Token: token });
    expect(polled.body.Erro).toMatchObject({ Codigo: "FALHA_FORNECEDOR", Retentavel: true });
    expect(polled.body.MensagemErro).toMatch(/Tente de novo em instantes/);
    const wait = Number(polled.res.headers.get("Retry-After"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(FAILED_REJOIN_MS / 1000);
    // Within the window the repeat receives the failure (a legacy client polling by its body sees it once)...
    const early = await consultar(app, QUERY);
    expect([early.status, early.body.Token, Number(early.res.headers.get("Retry-After")) <= wait]).toEqual([502, token, true]);
    // ...and once Retry-After has passed, the same query is a new search that asks every source again.
    await vi.advanceTimersByTimeAsync(wait * 1_000);
    const retried = await consultar(app, QUERY);
    expect(retried.body.Token).not.toBe(token);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls.total()).toBe(2 * MODE_A.length);
    // The old search still answers its own polls, without a Retry-After that no longer holds.
    const old = await consultar(app, { Token: token });
    expect([old.status, old.res.headers.get("Retry-After")]).toEqual([502, null]);
  });
});

describe("every source's breaker open", () => {
  it("Retry-After names the end of the soonest cool-down, and the re-sent body is answered the failure until then, not a new search that fails the same way", async () => {
    // Breakers open for 25 s more (one airline's only 20 s), or rate-limited for 22 s: each failure names its wait.
    const failures = Object.fromEntries(
      MODE_A.map((id, i) => [id, { error: i === 0 ? new SourceUnavailable({ retryAfterMs: 20_000 }) : i === 1 ? new RateLimited({ retryAfterMs: 22_000 }) : new SourceUnavailable({ retryAfterMs: 25_000 }) }]),
    );
    const { app, calls } = appWith({ failures }, { search: { maxAttempts: 1 } });
    const token = await finished(app);
    const polled = await consultar(app, { Token: token });
    expect([polled.status, polled.body.Erro?.Retentavel]).toEqual([502, true]);
    const wait = Number(polled.res.headers.get("Retry-After"));
    // The soonest cool-down (20 s, counted from the failure a second ago), not the 12 s a failure is shown for.
    expect(wait).toBeGreaterThan(FAILED_REJOIN_MS / 1000);
    expect(wait).toBeLessThanOrEqual(20);
    // Past the usual 12 s the re-sent body still receives this failure: no new search while every source would refuse.
    await vi.advanceTimersByTimeAsync(FAILED_REJOIN_MS + 1_000);
    const early = await consultar(app, QUERY);
    expect([early.body.Token, calls.total()]).toEqual([token, MODE_A.length]);
    // Once Retry-After has passed, the same query is a new search.
    await vi.advanceTimersByTimeAsync((wait + 1) * 1_000 - FAILED_REJOIN_MS - 1_000);
    const retried = await consultar(app, QUERY);
    expect(retried.body.Token).not.toBe(token);
  });

  it("one source whose failure names no wait keeps the usual window (a new search may find it answering)", async () => {
    const failures = { ...Object.fromEntries(MODE_A.map((id) => [id, { error: new SourceUnavailable({ retryAfterMs: 25_000 }) }])), gol: { error: new HttpStatusError({ status: 503 }) } };
    const { app } = appWith({ failures }, { search: { maxAttempts: 1 } });
    const token = await finished(app);
    const wait = Number((await consultar(app, { Token: token })).res.headers.get("Retry-After"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(FAILED_REJOIN_MS / 1000);
  });
});

describe("a failed search is not replayed for the whole TTL", () => {
  it("when every source failed, the same request after it finished starts a new search that asks the sources again; the old Token still answers", async () => {
    const { app, calls } = appWith({ failures: every(new BusinessError({ detail: "x" })) });
    const failedToken = await finished(app);
    expect(calls.total()).toBe(MODE_A.length);
    // A client re-sending its body within the window receives the failure (a legacy client polls every 10 s).
    const seen = await consultar(app, QUERY);
    expect([seen.status, seen.body.Token, calls.total()]).toEqual([502, failedToken, MODE_A.length]);
    // Business refusals: a retry would not change them, and the answer says so.
    expect(seen.body.Erro).toMatchObject({ Codigo: "FALHA_FORNECEDOR", Retentavel: false });
    await vi.advanceTimersByTimeAsync(FAILED_REJOIN_MS);
    const again = await consultar(app, QUERY);
    expect(again.body.Token).not.toBe(failedToken);
    expect(again.body).toMatchObject({ Success: true, Completed: false });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls.total()).toBe(2 * MODE_A.length);
    // The failed search is still there for polls by its id, until its TTL.
    const old = await consultar(app, { Token: failedToken });
    expect(old.status).toBe(502);
    expect(old.body.Token).toBe(failedToken);
  });

  it("while it runs, identical requests still join it (one search, no extra upstream calls)", async () => {
    const { app, calls } = appWith({ failures: every(new BusinessError({ detail: "x" })), latencyMs: 5_000 });
    const first = await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await consultar(app, QUERY)).body.Token).toBe(first.body.Token);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.total()).toBe(MODE_A.length);
  });

  it("when some sources failed with a retryable error, the result is shared for search.failedTtlMs, then a new search starts", async () => {
    const { app, calls } = appWith({ failures: { gol: { error: new HttpStatusError({ status: 503 }) } } }, { search: { failedTtlMs: 30_000, maxAttempts: 1 } });
    const token = await finished(app);
    const shared = await consultar(app, QUERY);
    expect(shared.body).toMatchObject({ Success: true, Completed: true, Token: token });
    expect(shared.body.Progresso.Fontes.find((f) => f.Nome === "GOL")).toMatchObject({ Estado: "falhou", Codigo: "FALHA_FORNECEDOR", Retentavel: true });
    await vi.advanceTimersByTimeAsync(28_000);
    expect((await consultar(app, QUERY)).body.Token).toBe(token);
    await vi.advanceTimersByTimeAsync(2_000);
    const fresh = await consultar(app, QUERY);
    expect(fresh.body.Token).not.toBe(token);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls.total()).toBe(2 * MODE_A.length);
  });

  it("a search where every source answered is shared for the whole TTL", async () => {
    const { app, calls } = appWith({}, { search: { failedTtlMs: 30_000, ttlMs: 600_000 } });
    const token = await finished(app);
    await vi.advanceTimersByTimeAsync(590_000);
    expect((await consultar(app, QUERY)).body.Token).toBe(token);
    expect(calls.total()).toBe(MODE_A.length);
  });
});

describe("a partial failure that is not retryable", () => {
  it("is shared for search.failedTtlMs only, then the same request asks the sources again", async () => {
    const { app, calls } = appWith({ failures: { gol: { error: new BusinessError({ detail: "x" }) } } }, { search: { failedTtlMs: 30_000, ttlMs: 600_000 } });
    const token = await finished(app);
    const shared = await consultar(app, QUERY);
    expect(shared.body).toMatchObject({ Success: true, Completed: true, Token: token });
    expect(shared.body.Progresso.Fontes.find((f) => f.Nome === "GOL")).toMatchObject({ Estado: "falhou", Retentavel: false });
    await vi.advanceTimersByTimeAsync(30_000);
    const fresh = await consultar(app, QUERY);
    expect(fresh.body.Token).not.toBe(token);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls.total()).toBe(2 * MODE_A.length);
  });
});
