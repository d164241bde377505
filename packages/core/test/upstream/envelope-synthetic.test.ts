import { describe, expect, it } from "vitest";
import { BusinessError, MalformedPayload, PermissionDenied } from "../../src/errors/source-errors.js";
import { cleanMessage, isPermissionMessage, readUpstreamAnswer, upstreamFailure, type UpstreamAnswer } from "../../src/upstream/index.js";
import { envelopeA, envelopeB, groupA, someAirports } from "./synthetic-answers.js";

const read = (json: unknown) => readUpstreamAnswer(json, { airports: someAirports, sourceId: "s" });
const answerOf = (json: unknown): UpstreamAnswer => {
  const r = read(json);
  if (r instanceof MalformedPayload) throw new Error(r.message);
  return r;
};

const STACK = "System.Exception: Falha no fornecedor\n   at Fornecedor.Busca.Executar(Pedido p) in /src/Busca.cs:line 12\n   at Fornecedor.Api.Post()";

describe("error members", () => {
  it("prefers MensagemErro, then the Message of Erro, ExErro, ExceptionErro, as one clean line", () => {
    expect(answerOf({ Success: false, MensagemErro: "Sem permissão", ExErro: { Message: "outra" }, Data: [] }).errorMessage).toBe("Sem permissão");
    expect(answerOf({ Success: false, Erro: { Codigo: "X", Mensagem: "Limite excedido" }, Data: [] }).errorMessage).toBe("Limite excedido");
    expect(answerOf({ Success: false, ExErro: { Message: "Falha A", StackTrace: STACK }, Data: null }).errorMessage).toBe("Falha A");
    expect(answerOf({ Success: false, ExceptionErro: { Message: STACK, StackTrace: STACK } }).errorMessage).toBe("System.Exception: Falha no fornecedor");
    expect(answerOf({ Success: false, Erro: "Falha B\n   at X.Y()" }).errorMessage).toBe("Falha B");
  });

  it("never lets a stack frame through cleanMessage", () => {
    expect(cleanMessage("   at Fornecedor.Busca.Executar(Pedido p) in /src/Busca.cs:line 12")).toBeUndefined();
    expect(cleanMessage("Erro X at Fornecedor.Busca.Executar(Pedido p)")).toBe("Erro X");
    expect(cleanMessage("a".repeat(500))?.length).toBe(240);
  });

  it("reads HTTP-200 failures as BusinessError, with a default message when the upstream gives none", () => {
    const failure = upstreamFailure(answerOf({ Success: false, HasResult: false, Data: [], Completed: true }));
    expect(failure).toBeInstanceOf(BusinessError);
    expect(failure?.message).toMatch(/sem informar o motivo/);
    expect(upstreamFailure(answerOf(envelopeA([groupA()])))).toBeUndefined();
  });

  it.each([
    "Erro ao validar permissoes da agência",
    "Erro ao validar permissões da agência",
    "Usuário não possui permissão para consultar esta companhia",
    "Agência não autorizada a consultar",
    "ACESSO NEGADO",
    "Agência sem acesso à LATAM",
    "Operation not allowed for this agency",
    "Permission denied",
    "403 Forbidden",
    "User is not authorized to perform this search",
  ])("reads %j (Success false) as PermissionDenied", (message) => {
    expect(isPermissionMessage(message)).toBe(true);
    const failure = upstreamFailure(answerOf({ Success: false, MensagemErro: message, Data: [] }));
    expect(failure).toBeInstanceOf(PermissionDenied);
  });

  it.each(["Erro interno no servidor", "Object reference not set to an instance of an object.", "Origem inválida", "Timeout expired", "Limite excedido"])(
    "reads %j (Success false) as a plain BusinessError",
    (message) => {
      expect(isPermissionMessage(message)).toBe(false);
      expect(upstreamFailure(answerOf({ Success: false, ExceptionErro: { Message: message }, Data: [] }))).toBeInstanceOf(BusinessError);
    },
  );

  it("tolerates error members of any shape: strings, nulls, arrays, numbers", () => {
    const answer = answerOf({ Success: true, Erro: 42, ExErro: [1], ExceptionErro: null, Data: [] });
    expect(answer).toMatchObject({ success: true, offers: [], totalItems: 0 });
    expect(answer.errorMessage).toBeUndefined();
  });
});

describe("progress members", () => {
  it("takes the lease from ExErro.Extensions.LeaseId, else Data[0].LeaseId", () => {
    expect(answerOf({ Success: true, Completed: false, ExErro: { Extensions: { LeaseId: "L-1" } }, Data: [] }).leaseId).toBe("L-1");
    const second = answerOf({ Success: true, Completed: false, ExErro: null, Data: [{ LeaseId: "L-2", flights: [], meta: null }] });
    expect(second).toMatchObject({ leaseId: "L-2", completed: false, success: true, offers: [] });
    expect(second.errorMessage).toBeUndefined();
  });

  it("reads meta full of nulls, segmentsBack null, Volta [] and Data [] as plain empty answers", () => {
    expect(answerOf({ Success: true, Completed: true, Data: [] }).offers).toEqual([]);
    expect(answerOf(envelopeB([], [])).offers).toEqual([]);
    expect(answerOf(envelopeA([groupA({ segmentsBack: null })], { TotalItens: 0 })).totalItems).toBe(1);
    const nullMeta = envelopeA([]);
    (nullMeta.Data as [Record<string, unknown>])[0].meta = { statusExecution: null, airports: null, WayFilter: null, countFlights: null };
    expect(answerOf(nullMeta)).toMatchObject({ offers: [], totalItems: 0 });
  });

  it("takes the envelope's Token, else the result's TokenConsulta, as the search token", () => {
    expect(answerOf(envelopeB([], [], { Token: "env-token" })).searchToken).toBe("env-token");
    expect(answerOf(envelopeB([])).searchToken).toBe("search-b");
  });
});

describe("unusable answers", () => {
  it.each([
    ["null", null],
    ["an array", [1, 2]],
    ["a string", "<html>502</html>"],
    ["an object without an envelope", { foo: 1 }],
    ["Data that is not a list", { Success: true, Data: { flights: [] } }],
    ["a Success that is not a boolean", { Success: "maybe", Data: [] }],
    ["a successful answer whose items are not objects", { Success: true, Data: [1, "x"] }],
  ])("is a MalformedPayload for %s, with a short detail", (_name, json) => {
    const r = read(json);
    expect(r).toBeInstanceOf(MalformedPayload);
    expect((r as MalformedPayload).detail.length).toBeLessThan(160);
  });
});
