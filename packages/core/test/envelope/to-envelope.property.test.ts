import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot, type SearchSnapshot } from "../../src/engine/snapshot.js";
import type { SearchQuery } from "../../src/query/query.js";
import type { Offer } from "../../src/domain/offer.js";
import { snapshotToEnvelope } from "../../src/envelope/to-envelope.js";
import { ErrorEnvelopeSchema, ModeAEnvelopeSchema, ModeBEnvelopeSchema } from "../../src/envelope/envelope.js";
import { parseSearchRequest } from "../../src/request/request.js";
import { errorEnvelope } from "../../src/envelope/envelope.js";
import { airports } from "../../src/airports/index.js";
import { makeOffer, queryA } from "../support/offers.js";
import {
  AuthError,
  BusinessError,
  HttpStatusError,
  isRetryable,
  MalformedPayload,
  PermissionDenied,
  SourceTimeout,
  TransportError,
} from "../../src/errors/source-errors.js";

/** Adds a seller's fee (negative: a discount) inside an offer's taxes, keeping its totals the sums of its fares. */
const withFee = (amount: number, o: Offer): Offer => {
  const [adult] = o.fares;
  if (!adult || o.fares.length !== 1 || amount === 0) return o;
  const fee = { amount, currency: adult.taxes.currency };
  return {
    ...o,
    fares: [{ ...adult, taxes: { ...adult.taxes, amount: adult.taxes.amount + amount }, serviceFee: fee }],
    taxes: { ...o.taxes, amount: o.taxes.amount + amount },
    total: { ...o.total, amount: o.total.amount + amount },
  };
};

const offerArb = fc
  .record({
    carrier: fc.constantFrom(["LA", 1] as const, ["G3", 2] as const, ["AD", 3] as const, ["G3", 34] as const, ["LA", 1200] as const),
    flightNumber: fc.integer({ min: 1, max: 30 }),
    hour: fc.integer({ min: 5, max: 21 }),
    total: fc.integer({ min: 10_000, max: 900_000 }),
    points: fc.option(fc.integer({ min: 1_000, max: 200_000 }), { nil: undefined }),
    seller: fc.constantFrom("latam", "ota:voaja", "ota:passagem"),
    direction: fc.constantFrom("outbound" as const, "return" as const),
    fareFamily: fc.option(fc.constantFrom("LIGHT", "STANDARD", "FULL", "PREMIUM ECONOMY", "MAX"), { nil: undefined }),
    checked: fc.integer({ min: 0, max: 3 }),
    cabin: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    serviceFee: fc.integer({ min: -5_000, max: 2_000 }),
  })
  .map((r) => withFee(r.serviceFee, {
    ...makeOffer({
      carrier: r.carrier[0],
      airlineId: r.carrier[1],
      flightNumber: r.flightNumber,
      departure: `2026-12-20T${String(r.hour).padStart(2, "0")}:15:00`,
      total: r.total,
      ...(r.points === undefined ? {} : { points: r.points }),
      seller: r.seller,
      direction: r.direction,
    }),
    ...(r.fareFamily ? { fareFamily: r.fareFamily } : {}),
    baggage: { checked: r.checked, checkedText: "", ...(r.cabin === undefined ? {} : { cabin: r.cabin }), cabinText: "" },
  }));

const modes: SearchQuery[] = [
  queryA,
  { ...queryA, returnDate: "2026-12-27" },
  { ...queryA, mode: { kind: "ota-comparison" } },
  { ...queryA, returnDate: "2026-12-27", mode: { kind: "ota-comparison" } },
  { ...queryA, mode: { kind: "single-airline", airlineId: 1 } },
];

const snapshotArb = fc
  .record({ query: fc.constantFrom(...modes), batches: fc.array(fc.array(offerArb, { maxLength: 10 }), { maxLength: 6 }), done: fc.boolean() })
  .map(({ query, batches, done }) => {
    let s: SearchSnapshot = initialSnapshot(query, [{ id: "s", name: "S" }, { id: "t", name: "T" }]);
    for (const offers of batches) s = reduce(s, { type: "batch", sourceId: "s", offers });
    if (done) s = reduce(reduce(s, { type: "done", sourceId: "s" }), { type: "failed", sourceId: "t", error: new HttpStatusError({ status: 503 }) });
    return s;
  });

describe("snapshotToEnvelope (properties)", () => {
  it("every answer we write validates against the strict spec schema of its mode", () => {
    fc.assert(
      fc.property(snapshotArb, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 100 }), (s, page, pageSize) => {
        const { status, body } = snapshotToEnvelope(s, { searchId: "abc", requestId: "r1", page, pageSize, airports });
        expect(status).toBe(200);
        const schema = s.query.mode.kind === "all-airlines" ? ModeAEnvelopeSchema : ModeBEnvelopeSchema;
        const parsed = schema.safeParse(body);
        if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues.slice(0, 3)));
        expect(body.Completed).toBe(s.completed);
        expect(body.Progresso?.Versao).toBe(s.version);
        if (!s.completed) expect(body.ExErro?.Extensions.LeaseId).toBe("abc");
      }),
      { numRuns: 60 },
    );
  });

  it("a search whose every source failed answers the catalogue error, with the failures in Progresso", () => {
    let s = initialSnapshot(queryA, [{ id: "a", name: "A" }, { id: "b", name: "B" }]);
    s = reduce(s, { type: "failed", sourceId: "a", error: new HttpStatusError({ status: 500 }) });
    s = reduce(s, { type: "failed", sourceId: "b", error: new SourceTimeout({ afterMs: 1000 }) });
    const answer = snapshotToEnvelope(s, { searchId: "x", requestId: "r", page: 1, pageSize: 10, airports });
    expect(answer.status).toBe(502);
    expect(ErrorEnvelopeSchema.parse(answer.body).Erro.Codigo).toBe("FALHA_FORNECEDOR");
    expect(answer.body.Progresso?.Fontes.map((f) => f.Estado)).toEqual(["falhou", "falhou"]);
  });

  it("a failed search's Retentavel follows its sources: true iff some source's failure is retryable, never 'Tente de novo' otherwise", () => {
    const errorArb = fc.constantFrom(
      new HttpStatusError({ status: 503 }),
      new HttpStatusError({ status: 400 }),
      new SourceTimeout({ afterMs: 1000 }),
      new TransportError({ detail: "reset" }),
      new MalformedPayload({ detail: "x" }),
      new BusinessError({ detail: "x" }),
      new AuthError({ detail: "x" }),
      new PermissionDenied({ detail: "x" }),
    );
    fc.assert(
      fc.property(fc.array(errorArb, { minLength: 1, maxLength: 5 }), (errors) => {
        let s = initialSnapshot(queryA, errors.map((_, i) => ({ id: `s${i}`, name: `S${i}` })));
        errors.forEach((error, i) => (s = reduce(s, { type: "failed", sourceId: `s${i}`, error })));
        const { body } = snapshotToEnvelope(s, { searchId: "x", requestId: "r", page: 1, pageSize: 10, airports });
        const parsed = ErrorEnvelopeSchema.parse(body);
        const sources = parsed.Progresso!.Fontes;
        expect(parsed.Erro.Retentavel).toBe(sources.some((f) => f.Retentavel === true));
        expect(parsed.Erro.Retentavel).toBe(errors.some(isRetryable));
        if (!parsed.Erro.Retentavel) expect(parsed.MensagemErro).not.toMatch(/Tente de novo/);
      }),
      { numRuns: 200 },
    );
  });

  it("bad input never throws: every invalid body yields the 400 envelope naming the failing fields", () => {
    const bodyArb = fc.oneof(
      fc.anything(),
      fc.jsonValue(),
      fc.dictionary(fc.constantFrom("Origem", "destino", "IDA", "Volta", "Adultos", "Crianças", "Bebes", "Companhia", "NumeroPagina", "QuantidadePorPagina", "Token"), fc.anything()),
    );
    fc.assert(
      fc.property(bodyArb, (body) => {
        const parsed = parseSearchRequest(body, { airports, now: new Date("2026-11-22T12:00:00Z") });
        if (parsed.kind !== "invalid") return;
        const { status, body: envelope } = errorEnvelope("REQUISICAO_INVALIDA", { requestId: "r", campos: parsed.campos });
        expect(status).toBe(400);
        expect(ErrorEnvelopeSchema.parse(envelope).Erro.Campos?.length).toBeGreaterThan(0);
      }),
      { numRuns: 600 },
    );
  });
});
