import { EnvelopeSchema } from "@voar/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app/create-app.js";
import { silentLogger } from "../src/logging/logger.js";
import { API_KEY, fastSources, manualClock, testConfig, type Answer } from "./support/app.js";

/**
 * 10 000 generated bodies through one app: malformed JSON, wrong types, huge numbers, unicode keys, deep
 * nesting, oversized bodies and near-valid queries. Every answer is JSON in the envelope, never a 5xx, and
 * every 400 names at least one failing field (or the body is over the limit and answers 413).
 */

const LIMIT = 16_384;
const encoder = new TextEncoder();
const app = createApp({
  config: testConfig({ limits: { rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 }, maxSessions: 50 } }),
  sources: fastSources({ latencyMs: 0, batches: 1 }),
  clock: manualClock(),
  logger: silentLogger,
});

const check = async (text: string) => {
  const res = await app.request("/api/ConsultaAereo/Consultar", {
    method: "POST",
    headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
    body: text,
  });
  const oversized = encoder.encode(text).length > LIMIT;
  expect(res.status).toBeLessThan(500);
  const body = JSON.parse(await res.text()) as Answer;
  const parsed = EnvelopeSchema.safeParse(body);
  if (!parsed.success) throw new Error(`not an envelope (${res.status}): ${parsed.error.message.slice(0, 300)}`);
  expect(res.status === 413).toBe(oversized);
  if (res.status === 400) expect(body.Erro.Campos.length).toBeGreaterThan(0);
  if (res.status !== 200) expect(body.Success).toBe(false);
};

const FIELDS = ["Origem", "Destino", "Ida", "Volta", "Adultos", "Criancas", "Crianças", "Bebes", "Companhia", "NumeroPagina", "QuantidadePorPagina", "Token", "LeaseId"];
const fieldName = fc.oneof(
  fc.constantFrom(...FIELDS),
  fc.constantFrom(...FIELDS).map((f) => f.toLowerCase()),
  fc.constantFrom(...FIELDS).map((f) => f.toUpperCase()),
  fc.constantFrom("__proto__", "constructor", "toString", "prototype", ""),
);
const VALID = { Origem: "CNF", Destino: "GRU", Ida: "2026-03-20", Volta: "2026-03-27", Adultos: 1, Companhia: -1 };

const malformedText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? "null").chain((s) =>
    fc.tuple(fc.nat(s.length), fc.nat(4), fc.string({ maxLength: 4 })).map(([at, cut, insert]) => s.slice(0, at) + insert + s.slice(at + cut)),
  ),
  fc.constantFrom("", " ", "{", "}", "[", "null", "true", "0", '"x"', "{'Origem':'CNF'}", "{\"Ida\":}", "\uFEFF{}", "{}}"),
);

const wrongTypes = fc.dictionary(fieldName, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }).map((o) => JSON.stringify(o));

const hugeNumber = fc.oneof(
  fc.constantFrom("1e400", "-1e400", "1e-400", "9007199254740993", "-0", "0.1e1", "1E2", "123456789012345678901234567890"),
  fc.double().map((d) => (Number.isFinite(d) ? String(d) : "1e999")),
  fc.bigInt().map(String),
);
const hugeNumbers = fc
  .tuple(fc.subarray(FIELDS, { minLength: 1 }), fc.array(hugeNumber, { minLength: 1, maxLength: FIELDS.length }))
  .map(([fields, numbers]) => `{${fields.map((f, i) => `${JSON.stringify(f)}:${numbers[i % numbers.length]!}`).join(",")}}`);

const unicodeKeys = fc
  .tuple(fc.dictionary(fc.string({ unit: "grapheme", maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }), fc.boolean())
  .map(([o, withQuery]) => JSON.stringify(withQuery ? { ...VALID, ...o } : o));

const deepNesting = fc
  .tuple(fc.integer({ min: 10, max: 9_000 }), fc.constantFrom("[", "{\"a\":"), fc.option(fc.constantFrom(...FIELDS), { nil: undefined }))
  .map(([depth, open, field]) => {
    const close = open === "[" ? "]" : "}";
    const nested = open.repeat(depth) + "1" + close.repeat(depth);
    return field === undefined ? nested : `{${JSON.stringify(field)}:${nested}}`;
  });

const oversized = fc
  .tuple(fc.integer({ min: LIMIT + 1, max: 4 * LIMIT }), fc.constantFrom("x", "ç", "€", "😀"), fc.boolean())
  .map(([bytes, ch, asJson]) => {
    const pad = ch.repeat(Math.ceil(bytes / encoder.encode(ch).length));
    return asJson ? JSON.stringify({ ...VALID, pad }) : pad;
  });

const nearValid = fc
  .tuple(fc.constantFrom(...Object.keys(VALID), "Token", "NumeroPagina", "QuantidadePorPagina", "Bebes"), fc.jsonValue({ maxDepth: 1 }), fc.boolean())
  .map(([field, value, drop]) => {
    const body: Record<string, unknown> = { ...VALID };
    if (drop) delete body[field];
    else body[field] = value;
    return JSON.stringify(body);
  });

const families: readonly [string, fc.Arbitrary<string>, number][] = [
  ["malformed JSON text", malformedText, 2_500],
  ["wrong types", wrongTypes, 2_000],
  ["huge numbers", hugeNumbers, 1_500],
  // The costliest family (half of its bodies are valid queries, each answered with a page of results): fewer runs.
  ["unicode keys", unicodeKeys, 500],
  ["deep nesting", deepNesting, 1_000],
  ["oversized bodies", oversized, 1_000],
  ["near-valid queries", nearValid, 1_500],
];

describe("fuzz: 10 000 generated bodies through app.request", () => {
  it("adds up to 10 000 runs", () => {
    expect(families.reduce((n, [, , runs]) => n + runs, 0)).toBe(10_000);
  });

  it.each(families)("%s: envelope, no 5xx, 400 names a field, 413 only when oversized", async (_, arbitrary, numRuns) => {
    await fc.assert(fc.asyncProperty(arbitrary, check), { numRuns, seed: 20_260_302 });
  });
});
