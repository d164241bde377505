import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { SourceProgress } from "../../src/errors/source-progress.js";
import { ERROR_CATALOGUE, ERROR_CODES, failedSearchAnswer, failedSearchCode, NOT_RETRYABLE_FAILURE_MESSAGE, type ErrorCode } from "../../src/errors/error-catalogue.js";
import {
  EnvelopeSchema,
  ErrorEnvelopeSchema,
  errorEnvelope,
  modeAEnvelope,
  ModeAEnvelopeSchema,
  modeBEnvelope,
  ModeBEnvelopeSchema,
  successEnvelope,
} from "../../src/envelope/envelope.js";
import { toWireModeBResult } from "../../src/envelope/mode-b.js";
import { ProgressoSchema, toWireProgress } from "../../src/envelope/progress.js";
import { SearchRequestSchema, ConsultarBodySchema } from "../../src/request/request-schema.js";

/** decisions.md: the HTTP status of every code. */
const STATUS: Record<ErrorCode, number> = {
  REQUISICAO_INVALIDA: 400,
  NAO_AUTORIZADO: 401,
  CORPO_GRANDE_DEMAIS: 413,
  LIMITE_EXCEDIDO: 429,
  FALHA_FORNECEDOR: 502,
  TEMPO_ESGOTADO: 504,
  SEM_PERMISSAO: 403,
  BUSCA_EXPIRADA: 404,
  INDISPONIVEL: 503,
  ERRO_INTERNO: 500,
};

const sources: readonly SourceProgress[] = [
  { id: "latam", name: "LATAM", state: "done", items: 12, attempts: 1 },
  { id: "gol", name: "GOL", state: "pending", items: 3, attempts: 1 },
  {
    id: "azul",
    name: "Azul",
    state: "failed",
    items: 0,
    attempts: 3,
    error: { tag: "SourceTimeout", message: "sem resposta em 8000 ms", retryable: true },
  },
];

describe("errorEnvelope", () => {
  it.each(ERROR_CODES.map((c) => [c]))("answers %s with its status and a valid failure envelope", (code) => {
    const { status, body } = errorEnvelope(code, { requestId: "r-1" });
    expect(status).toBe(STATUS[code]);
    expect(ErrorEnvelopeSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ Success: false, HasResult: false, Completed: true, Data: [], ExErro: null, RequestId: "r-1" });
    expect(body.Erro).toEqual({ Codigo: code, Retentavel: ERROR_CATALOGUE[code].retentavel });
    expect(body.MensagemErro).toBe(ERROR_CATALOGUE[code].mensagem);
  });

  it("lists the failing fields of an invalid request and tells them in the message", () => {
    const campos = [
      { Campo: "Ida", Mensagem: "Ida deve ser uma data válida no formato AAAA-MM-DD." },
      { Campo: "Adultos", Mensagem: "Adultos deve ser um número inteiro entre 1 e 9." },
    ];
    const { status, body } = errorEnvelope("REQUISICAO_INVALIDA", { requestId: "r-2", campos });
    expect(status).toBe(400);
    expect(body.Erro.Campos).toEqual(campos);
    expect(body.MensagemErro).toContain("Ida deve ser uma data válida");
    expect(body.MensagemErro).toContain("Adultos deve ser");
  });

  it("may carry progress (which sources failed) and a custom message", () => {
    const progresso = toWireProgress(4, sources, 0);
    const { body } = errorEnvelope("FALHA_FORNECEDOR", { requestId: "r-3", progresso, mensagem: "Todas as fontes falharam.", token: "s-1" });
    expect(ErrorEnvelopeSchema.parse(body)).toEqual(body);
    expect([body.MensagemErro, body.Token, body.Progresso?.FontesTotal]).toEqual(["Todas as fontes falharam.", "s-1", 3]);
  });

  it("retries only what can succeed later", () => {
    const retryable = ERROR_CODES.filter((c) => ERROR_CATALOGUE[c].retentavel);
    expect(retryable).toEqual(["LIMITE_EXCEDIDO", "FALHA_FORNECEDOR", "TEMPO_ESGOTADO", "INDISPONIVEL"]);
  });
});

describe("failedSearchCode", () => {
  const failed = (tag: "SourceTimeout" | "DeadlineExceeded" | "TransportError" | "PermissionDenied"): SourceProgress => ({
    id: tag,
    name: tag,
    state: "failed",
    items: 0,
    attempts: 1,
    error: { tag, message: "x", retryable: tag !== "PermissionDenied" },
  });
  it("is TEMPO_ESGOTADO only when every source ran out of time", () => {
    expect(failedSearchCode([failed("SourceTimeout"), failed("DeadlineExceeded")])).toBe("TEMPO_ESGOTADO");
    expect(failedSearchCode([failed("SourceTimeout"), failed("TransportError")])).toBe("FALHA_FORNECEDOR");
  });
  it("is SEM_PERMISSAO (403, not retryable) only when every source was refused for lack of permission", () => {
    expect(failedSearchCode([failed("PermissionDenied"), failed("PermissionDenied")])).toBe("SEM_PERMISSAO");
    expect(ERROR_CATALOGUE.SEM_PERMISSAO).toMatchObject({ status: 403, retentavel: false });
    // A mix with a retryable failure may succeed in part on a retry: the generic, retryable code.
    expect(failedSearchCode([failed("PermissionDenied"), failed("TransportError")])).toBe("FALHA_FORNECEDOR");
    expect(failedSearchCode([failed("PermissionDenied"), failed("SourceTimeout")])).toBe("FALHA_FORNECEDOR");
  });
});

describe("failedSearchAnswer: the answer's retry hint follows its sources", () => {
  type Tag = NonNullable<SourceProgress["error"]>["tag"];
  const failed = (tag: Tag, retryable: boolean): SourceProgress => ({ id: tag, name: tag, state: "failed", items: 0, attempts: 1, error: { tag, message: "x", retryable } });

  it("is not retryable, with a sentence that does not invite a retry, when no source's failure is", () => {
    const answer = failedSearchAnswer([failed("MalformedPayload", false), failed("BusinessError", false), failed("AuthError", false)]);
    expect(answer).toEqual({ codigo: "FALHA_FORNECEDOR", retentavel: false, mensagem: NOT_RETRYABLE_FAILURE_MESSAGE });
    expect(answer.mensagem).not.toMatch(/Tente de novo em instantes/);
  });

  it("is retryable, with the catalogue's sentence, when at least one source's failure is", () => {
    expect(failedSearchAnswer([failed("MalformedPayload", false), failed("HttpStatusError", true)])).toEqual({
      codigo: "FALHA_FORNECEDOR",
      retentavel: true,
      mensagem: ERROR_CATALOGUE.FALHA_FORNECEDOR.mensagem,
    });
    expect(failedSearchAnswer([failed("SourceTimeout", true)])).toMatchObject({ codigo: "TEMPO_ESGOTADO", retentavel: true });
  });

  it("keeps SEM_PERMISSAO not retryable, with its own sentence", () => {
    expect(failedSearchAnswer([failed("PermissionDenied", false)])).toEqual({ codigo: "SEM_PERMISSAO", retentavel: false, mensagem: ERROR_CATALOGUE.SEM_PERMISSAO.mensagem });
  });

  it("is written into the envelope: Erro.Retentavel and MensagemErro agree with Progresso.Fontes", () => {
    const sources = [failed("MalformedPayload", false), failed("BusinessError", false)];
    const { status, body } = errorEnvelope("FALHA_FORNECEDOR", { requestId: "r", retentavel: false, mensagem: failedSearchAnswer(sources).mensagem, progresso: toWireProgress(3, sources, 0) });
    expect(status).toBe(502);
    expect(body.Erro).toMatchObject({ Codigo: "FALHA_FORNECEDOR", Retentavel: false });
    expect(body.Progresso?.Fontes.every((f) => f.Retentavel === false)).toBe(true);
    expect(ErrorEnvelopeSchema.parse(body)).toEqual(body);
  });
});

const meta = {
  statusExecution: null,
  countFlights: 0,
  countPriceGroups: 0,
  price: null,
  priceMatrix: null,
  routes: null,
  airports: [],
  TotalGroups: 0,
  WayFilter: { Stops: [], Airlines: [], AirlineIATA: [], DepartureDate: [], ArrivalDate: [], Prices: null, Departure: [], Arrival: [], Total: 0 },
  ReturnFilter: null,
  GoingCompany: null,
  BackCompany: null,
  TransactionId: null,
  Contagens: { Paradas: [], ParadasIda: [], ParadasVolta: null, Companhias: [], Milhas: 0, Dinheiro: 0 },
  Ordenacao: "preco" as const,
  Filtros: null,
};
const pagination = { currentPage: 1, pageSize: 10, totalPages: 0, totalItems: 0 };

describe("successEnvelope", () => {
  it("while running, repeats the search id as ExErro.Extensions.LeaseId and Data[0].LeaseId", () => {
    const body = successEnvelope({
      data: [{ flights: [], meta }],
      totalItems: 0,
      token: "s-9",
      completed: false,
      requestId: "r-4",
      pagination,
      progress: toWireProgress(1, sources, 500),
    });
    expect(ModeAEnvelopeSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ Success: true, HasResult: false, Completed: false, Erro: null, MensagemErro: null, Token: "s-9" });
    expect(body.ExErro).toEqual({ Extensions: { LeaseId: "s-9" } });
    expect(body.Data[0]?.LeaseId).toBe("s-9");
  });

  it("once complete, writes ExErro null and no LeaseId", () => {
    const body = successEnvelope({ data: [{ flights: [], meta }], totalItems: 3, token: "s-9", completed: true, requestId: "r-5", pagination });
    expect(ModeAEnvelopeSchema.parse(body)).toEqual(body);
    expect([body.ExErro, body.HasResult, body.TotalItens]).toEqual([null, true, 3]);
    expect(body.Data[0]).not.toHaveProperty("LeaseId");
    expect(body).not.toHaveProperty("Progresso");
  });

  it("writes Mode B answers without pagination; Mode A requires it", () => {
    const data = [toWireModeBResult({ searchToken: "s-2", passengers: { adults: 1, children: 0, infants: 0 }, outbound: [], inbound: [] })];
    const body = successEnvelope({ data, totalItems: 0, token: "s-2", completed: false, requestId: "r-6" });
    expect(ModeBEnvelopeSchema.parse(body)).toEqual(body);
    expect(EnvelopeSchema.safeParse(body).success).toBe(true);
    expect(ModeAEnvelopeSchema.safeParse(successEnvelope({ data: [{ flights: [], meta }], totalItems: 0, token: null, completed: true, requestId: "r" })).success).toBe(false);
  });
});

describe("modeAEnvelope / modeBEnvelope", () => {
  it("are typed success envelopes that validate against their mode's schema", () => {
    const a = modeAEnvelope({ data: [{ flights: [], meta }], totalItems: 0, token: "s-1", completed: false, requestId: "r", pagination });
    expect(ModeAEnvelopeSchema.parse(a)).toEqual(a);
    const data = [toWireModeBResult({ searchToken: null, passengers: { adults: 1, children: 0, infants: 0 }, outbound: [], inbound: [] })];
    const b = modeBEnvelope({ data, totalItems: 0, token: null, completed: true, requestId: "r" });
    expect(ModeBEnvelopeSchema.parse(b)).toEqual(b);
    expect(b.ExErro).toBeNull();
  });
});

describe("toWireProgress", () => {
  it("translates states, counts finished sources and explains failures", () => {
    const p = toWireProgress(7, sources, 750);
    expect(ProgressoSchema.parse(p)).toEqual(p);
    expect(p).toEqual({
      Versao: 7,
      FontesTotal: 3,
      FontesConcluidas: 2,
      Fontes: [
        { Nome: "LATAM", Estado: "concluida", Itens: 12 },
        { Nome: "GOL", Estado: "pendente", Itens: 3 },
        { Nome: "Azul", Estado: "falhou", Itens: 0, Erro: "sem resposta em 8000 ms", Codigo: "TEMPO_ESGOTADO", Retentavel: true },
      ],
      ProximaConsultaMs: 750,
    });
  });
});

describe("OpenAPI generation", () => {
  it("turns every envelope and the request into JSON Schema with named components", () => {
    const envelope = z.toJSONSchema(EnvelopeSchema) as { $defs?: Record<string, unknown> };
    expect(Object.keys(envelope.$defs ?? {})).toEqual(
      expect.arrayContaining(["RespostaModoA", "RespostaModoB", "RespostaErro", "ModeAFlight", "ModeBOffer", "Progresso", "Erro"]),
    );
    const request = z.toJSONSchema(SearchRequestSchema, { io: "input" }) as { $defs?: Record<string, { required?: string[] }> };
    expect(request.$defs?.["ConsultaAereoRequest"]?.required).toEqual(["Origem", "Destino", "Ida"]);
    expect(() => z.toJSONSchema(ConsultarBodySchema, { io: "input" })).not.toThrow();
  });
});
