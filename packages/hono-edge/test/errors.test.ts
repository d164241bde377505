import { BusinessError, PermissionDenied, ERROR_CATALOGUE, ERROR_CODES, ErrorEnvelopeSchema, type ErrorCode } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ERROR_TABLE } from "../src/errors/error-table.js";
import type { PaganteSettings } from "../src/settings/pagante-settings.js";
import { answerOf, consultar, fastSources, NOW, post, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const AIRLINE_SOURCES = ["latam", "gol", "azul", "tap", "copa", "american", "iberia", "livelo"];

/** Checks an answer is the failure envelope with the code and the status decisions.md gives it. */
const expectFailure = async (res: Response, code: ErrorCode, retentavel = ERROR_CATALOGUE[code].retentavel) => {
  const body = await answerOf(res);
  expect(res.status).toBe(ERROR_CATALOGUE[code].status);
  expect(ErrorEnvelopeSchema.safeParse(body).success).toBe(true);
  expect(body).toMatchObject({ Success: false, HasResult: false, Completed: true, Data: [], Erro: { Codigo: code, Retentavel: retentavel } });
  expect(body.MensagemErro.length).toBeGreaterThan(10);
  // Progresso and RequestId are always present, errors included.
  expect(body.RequestId).toEqual(expect.any(String));
  expect(body.Progresso).toMatchObject({ Versao: expect.any(Number), Fontes: expect.any(Array) });
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return body;
};

describe("every error code answers its HTTP status in the envelope", () => {
  it("every code of the catalogue is exercised below", () => {
    const codes = new Set(Object.values(ERROR_TABLE).map((r) => r.codigo));
    for (const code of ["FALHA_FORNECEDOR", "TEMPO_ESGOTADO", "SEM_PERMISSAO"] as const) codes.add(code); // written by core's snapshotToEnvelope
    expect([...codes].sort()).toEqual([...ERROR_CODES].sort());
  });

  it("the table keeps the catalogue's status for every code, except 404/405/415 for a wrong route, method or media type (or a price alert that is not the tenant's), 408/417/431 for the server's own refusals", () => {
    const own: Record<string, number> = { RouteNotFound: 404, UnknownAlert: 404, MethodNotAllowed: 405, UnsupportedMediaType: 415, RequestTimeout: 408, ExpectationFailed: 417, HeadersTooLarge: 431 };
    for (const [tag, row] of Object.entries(ERROR_TABLE)) {
      expect(row.status).toBe(own[tag] ?? ERROR_CATALOGUE[row.codigo].status);
    }
  });

  it("REQUISICAO_INVALIDA 400: body not JSON, naming body", async () => {
    const { app } = testApp();
    const body = await expectFailure(await post(app, "/api/ConsultaAereo/Consultar", "{ not json"), "REQUISICAO_INVALIDA");
    expect(body.Erro.Campos).toEqual([{ Campo: "body", Mensagem: expect.any(String) }]);
  });

  it("REQUISICAO_INVALIDA 400: every failing field is named", async () => {
    const { app } = testApp();
    const res = await post(app, "/api/ConsultaAereo/Consultar", { Origem: "XX", Destino: 3, Ida: "2026-02-30", Adultos: 0 });
    const body = await expectFailure(res, "REQUISICAO_INVALIDA");
    expect(body.Erro.Campos.map((c) => c.Campo).sort()).toEqual(["Adultos", "Destino", "Ida", "Origem"]);
  });

  it("NAO_AUTORIZADO 401: no token", async () => {
    const { app } = testApp();
    const res = await app.request("/api/ConsultaAereo/Consultar", { method: "POST", body: JSON.stringify(QUERY) });
    await expectFailure(res, "NAO_AUTORIZADO");
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="voar"');
  });

  it("CORPO_GRANDE_DEMAIS 413: body over the limit", async () => {
    const { app } = testApp();
    await expectFailure(await post(app, "/api/ConsultaAereo/Consultar", JSON.stringify({ ...QUERY, pad: "x".repeat(17_000) })), "CORPO_GRANDE_DEMAIS");
  });

  it("LIMITE_EXCEDIDO 429 with Retry-After", async () => {
    const { app } = testApp({ configInput: { limits: { rateLimit: { capacity: 1, refillPerSecond: 0.5 } } } });
    await post(app, "/api/ConsultaAereo/Consultar", QUERY);
    const res = await post(app, "/api/ConsultaAereo/Consultar", QUERY);
    await expectFailure(res, "LIMITE_EXCEDIDO");
    expect(res.headers.get("retry-after")).toBe("2");
  });

  it("FALHA_FORNECEDOR 502: every source of the search failed, with the failures in Progresso", async () => {
    const failures = Object.fromEntries(AIRLINE_SOURCES.map((id) => [id, { error: new BusinessError({ detail: "fora do ar" }) }]));
    const { app } = testApp({ sources: fastSources({ failures }) });
    const first = await consultar(app, QUERY);
    expect(first.status).toBe(200);
    await vi.advanceTimersByTimeAsync(250);
    // Polled by its Token: the query body would start a new search (a failed one is not replayed).
    // Business refusals are not retryable: the answer's Retentavel follows its sources.
    const body = await expectFailure(await post(app, "/api/ConsultaAereo/Consultar", { Token: first.body.Token }), "FALHA_FORNECEDOR", false);
    expect(body.Progresso.Fontes.every((f) => f.Estado === "falhou" && f.Retentavel === false)).toBe(true);
    expect(body.Token).toEqual(expect.any(String));
  });

  it("TEMPO_ESGOTADO 504: the deadline passed with nothing found", async () => {
    const { app } = testApp({ sources: fastSources({ latencyMs: 60_000 }), configInput: { search: { deadlineMs: 1_000 } } });
    const first = await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(1_000);
    await expectFailure(await post(app, "/api/ConsultaAereo/Consultar", { Token: first.body.Token }), "TEMPO_ESGOTADO");
  });

  it("SEM_PERMISSAO 403: every source refused the agency's permission; not retryable", async () => {
    const failures = Object.fromEntries(AIRLINE_SOURCES.map((id) => [id, { error: new PermissionDenied({ detail: "não possui permissão" }) }]));
    const { app } = testApp({ sources: fastSources({ failures }) });
    const first = await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(250);
    const body = await expectFailure(await post(app, "/api/ConsultaAereo/Consultar", { Token: first.body.Token }), "SEM_PERMISSAO");
    expect(body.Progresso.Fontes.every((f) => f.Codigo === "SEM_PERMISSAO")).toBe(true);
  });

  it("ERRO_INTERNO 500: a bug answers without its message or stack, which go to the log", async () => {
    const broken: PaganteSettings = {
      list: () => Promise.resolve([]),
      set: () => Promise.resolve(true),
      hiddenCashAirlines: () => Promise.reject(new Error("boom: secret internals")),
    };
    const { app, logs } = testApp({ pagante: broken });
    const res = await post(app, "/api/ConsultaAereo/Consultar", QUERY);
    const body = await expectFailure(res, "ERRO_INTERNO");
    expect(JSON.stringify(body)).not.toMatch(/boom|secret|at .*\.ts/);
    expect(logs.records.find((r) => r.msg === "unhandled")).toMatchObject({ level: "error", requestId: body.RequestId, error: expect.stringContaining("boom") });
  });

  it("404 (REQUISICAO_INVALIDA) for an unknown route, 405 for a known one with another method, in the envelope", async () => {
    const { app } = testApp();
    for (const [method, path, status] of [["GET", "/api/nothing", 404], ["GET", "/api/ConsultaAereo/Consultar", 405], ["DELETE", "/health", 405]] as const) {
      const res = await app.request(path, { method });
      expect(res.status).toBe(status);
      const body = await answerOf(res);
      expect(ErrorEnvelopeSchema.safeParse(body).success).toBe(true);
      expect(body.Erro.Codigo).toBe("REQUISICAO_INVALIDA");
      expect(body.MensagemErro).toContain(status === 404 ? path : method);
    }
  });

  it("RequestId of the envelope is the X-Request-Id header, the client's own when it sends a plain one", async () => {
    const { app } = testApp();
    const res = await post(app, "/api/ConsultaAereo/Consultar", "{", { "X-Request-Id": "client-req-1" });
    expect(res.headers.get("x-request-id")).toBe("client-req-1");
    expect(((await res.json()) as { RequestId: string }).RequestId).toBe("client-req-1");
    const odd = await post(app, "/api/ConsultaAereo/Consultar", "{", { "X-Request-Id": "<script>" });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
