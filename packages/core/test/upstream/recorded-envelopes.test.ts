import { expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import { isRetryable, MalformedPayload, PermissionDenied } from "../../src/errors/source-errors.js";
import { readUpstreamAnswer, upstreamFailure, type UpstreamAnswer } from "../../src/upstream/index.js";
import { describeRecorded, listRecorded, loadRecorded, RECORDED } from "./recorded-answers.js";

const read = (file: string): { raw: Record<string, unknown>; answer: UpstreamAnswer } => {
  const raw = loadRecorded(file) as Record<string, unknown>;
  const answer = readUpstreamAnswer(raw, { airports, sourceId: "upstream" });
  if (answer instanceof MalformedPayload) throw new Error(answer.message);
  return { raw, answer };
};

describeRecorded("every recorded answer", () => {
  it("reads as an answer, never as a malformed payload, with nothing left out", () => {
    const answers = listRecorded().filter((f) => f.endsWith(".json") && f !== RECORDED.requestBodies);
    expect(answers.length).toBeGreaterThanOrEqual(4);
    for (const file of answers) {
      const { answer } = read(file);
      expect(answer.skipped, file).toEqual({ count: 0, notes: [] });
    }
  });
});

describeRecorded("recorded first poll of a Mode A search", () => {
  it("is an incomplete success with the active providers and no offers yet", () => {
    const { raw, answer } = read(RECORDED.modeAFirstPoll);
    const providers = (raw.Data as [{ ActiveProviders: string[] }])[0].ActiveProviders;
    expect(answer).toMatchObject({ success: true, completed: false, totalItems: 0, offers: [] });
    expect(providers.length).toBeGreaterThan(0);
    expect(answer.activeProviders).toEqual(providers);
    expect(answer.errorMessage).toBeUndefined();
    expect(upstreamFailure(answer)).toBeUndefined();
  });
});

describeRecorded("recorded error answer (HTTP 200, Success false)", () => {
  it("is a permission failure: its own tag, not retryable, the clean message kept as detail for logs", () => {
    const { raw, answer } = read(RECORDED.errorPermissionDenied);
    expect(answer.success).toBe(false);
    expect(answer.offers).toEqual([]);
    expect(answer.errorMessage).toBe(raw.MensagemErro);
    const failure = upstreamFailure(answer);
    expect(failure).toBeInstanceOf(PermissionDenied);
    expect(failure?._tag).toBe("PermissionDenied");
    expect(isRetryable(failure!)).toBe(false);
    expect((failure as PermissionDenied).detail).toBe(raw.MensagemErro);
  });

  it("lets no stack trace through, anywhere in the result", () => {
    const { raw, answer } = read(RECORDED.errorPermissionDenied);
    const stack = (raw.ExceptionErro as { StackTrace: string }).StackTrace;
    expect(stack.length).toBeGreaterThan(0);
    const failure = upstreamFailure(answer);
    for (const text of [JSON.stringify(answer), failure?.message ?? "", JSON.stringify(failure)]) {
      expect(text).not.toContain(stack.trim());
      expect(text).not.toMatch(/StackTrace|\bat \w+\.\w+|\.cs:line/);
    }
  });
});

/** Request keys the contract defines (spec 2.1), the polling keys decisions.md accepts, and extras it ignores. */
const CONTRACT_KEYS = ["Origem", "Destino", "Ida", "Volta", "Adultos", "Criancas", "Bebes", "Companhia", "NumeroPagina", "QuantidadePorPagina"];
const POLLING_KEYS = ["Token", "LeaseId"];
const IGNORED_KEYS = ["Classe", "TipoViagem", "Filtros", "OrderBy", "IsDesc", "Cabine"];

describeRecorded("request bodies seen in real clients", () => {
  it("parse, and every key is one the service understands or knowingly ignores", () => {
    const raw = loadRecorded(RECORDED.requestBodies) as { examples: { body: Record<string, unknown> }[] };
    expect(raw.examples.length).toBeGreaterThan(0);
    const keys = [...new Set(raw.examples.flatMap((e) => Object.keys(e.body)))].sort();
    expect(keys.length).toBeGreaterThan(0);
    const known = new Set([...CONTRACT_KEYS, ...POLLING_KEYS, ...IGNORED_KEYS]);
    expect(keys.filter((k) => !known.has(k))).toEqual([]);
    expect(keys.filter((k) => IGNORED_KEYS.includes(k))).toEqual(["Cabine", "Classe", "Filtros", "IsDesc", "OrderBy", "TipoViagem"]);
  });
});
