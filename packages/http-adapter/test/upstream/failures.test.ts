/**
 * How the adapter classifies an upstream's failures: a permission refusal (HTTP 403, or `Success: false`
 * with a message about permission, in whatever status) is `PermissionDenied`, never retried; a server
 * exception (5xx with an ExceptionErro body) stays retryable.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { snapshotToEnvelope, type SourceFailure } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createFakeUpstream, type FakeUpstream, type UpstreamReply } from "@voar/testing";
import { createUpstreamSource } from "../../src/fetch.js";
import { runSearch } from "../support/run-search.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";

const refusal = (message: string) => ({
  Success: false,
  HasResult: false,
  Completed: true,
  Data: [],
  MensagemErro: message,
  ExceptionErro: { Message: message, StackTrace: "   at Fornecedor.Regra.Consultar() in /src/Regra.cs:line 43" },
});

/** A fake upstream answering every search with one reply. */
const always = (reply: UpstreamReply): FakeUpstream =>
  createFakeUpstream({ backend: { answer: () => reply, close: () => undefined }, auth: { tokens: ["k"] } });

describe("upstream failures", () => {
  let upstream: FakeUpstream | undefined;
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => {
    upstream?.close();
    upstream = undefined;
    vi.useRealTimers();
  });

  it.each<[string, UpstreamReply]>([
    ["HTTP 403 without a body", { status: 403, text: "" }],
    ["HTTP 403 with a refusal envelope", { status: 403, json: refusal("Forbidden") }],
    ["HTTP 200, Success false, 'não possui permissão'", { status: 200, json: refusal("Usuário não possui permissão para esta consulta") }],
    ["HTTP 400, Success false, 'not allowed'", { status: 400, json: refusal("Operation not allowed for agency 123") }],
  ])("%s is PermissionDenied: asked once, not retried, the search answers 403 SEM_PERMISSAO", async (_, reply) => {
    upstream = always(reply);
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch: upstream.fetch });
    const heard: SourceFailure[] = [];
    const run = await runSearch(testQuery(), [source], { maxAttempts: 3, onSourceError: (f) => heard.push(f) });
    expect(run.last().sources[0]).toMatchObject({ state: "failed", attempts: 1, error: { tag: "PermissionDenied", retryable: false } });
    expect(upstream.stats.searches).toBe(1);
    expect(heard.map((f) => [f.error._tag, f.final])).toEqual([["PermissionDenied", true]]);
    const { status, body } = snapshotToEnvelope(run.last(), { searchId: "s", requestId: "r", page: 1, pageSize: 10, airports });
    expect(status).toBe(403);
    expect(body).toMatchObject({ Erro: { Codigo: "SEM_PERMISSAO", Retentavel: false } });
    expect(body.Progresso?.Fontes[0]).toMatchObject({ Estado: "falhou", Codigo: "SEM_PERMISSAO", Retentavel: false });
  });

  it("a server exception (HTTP 500 with ExceptionErro) is retryable: retried, and the search answers 502 FALHA_FORNECEDOR, Retentavel true", async () => {
    upstream = liveUpstream({ faults: [{ at: 1, through: "end", fault: { kind: "status", status: 500 } }] });
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch: upstream.fetch, polling: { pollRetries: 0 } });
    const run = await runSearch(testQuery(), [source], { maxAttempts: 3, baseDelayMs: 10 });
    expect(run.last().sources[0]).toMatchObject({ state: "failed", attempts: 3, error: { tag: "HttpStatusError", retryable: true } });
    expect(upstream.stats.searches).toBe(3);
    const { status, body } = snapshotToEnvelope(run.last(), { searchId: "s", requestId: "r", page: 1, pageSize: 10, airports });
    expect(status).toBe(502);
    expect(body).toMatchObject({ Erro: { Codigo: "FALHA_FORNECEDOR", Retentavel: true } });
  });

  it("a refusal about something else (Success false, 'Origem inválida') stays a BusinessError", async () => {
    upstream = always({ status: 200, json: refusal("Origem inválida") });
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch: upstream.fetch });
    const run = await runSearch(testQuery(), [source]);
    expect(run.last().sources[0]).toMatchObject({ state: "failed", attempts: 1, error: { tag: "BusinessError", retryable: false } });
  });
});
