import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AIRLINES } from "../../src/domain/airline.js";
import { parseSearchRequest } from "../../src/request/request.js";
import { REQUEST_FIELDS } from "../../src/request/request-fields.js";
import { ctx, testAirports } from "./airport-fixtures.js";

const TODAY = "2025-07-10";
const LAST = "2026-07-10";
const COMPANHIAS = new Set([-1, 1300, ...AIRLINES.map((a) => a.id)]);
const CAMPOS = new Set<string>([...REQUEST_FIELDS, "body"]);

/**
 * Whatever came in, the answer is well formed: a valid query that obeys every rule, a poll with valid
 * paging, or a non-empty list of failures naming known fields with a message each.
 */
const assertWellFormed = (body: unknown) => {
  const r = parseSearchRequest(body, ctx);
  if (r.kind === "invalid") {
    expect(r.campos.length).toBeGreaterThan(0);
    for (const c of r.campos) {
      expect(CAMPOS.has(c.Campo) || c.Campo.startsWith("Filtros.")).toBe(true);
      expect(c.Mensagem.length).toBeGreaterThan(10);
    }
    return;
  }
  expect(Number.isSafeInteger(r.page) && r.page >= 1).toBe(true);
  expect(Number.isInteger(r.pageSize) && r.pageSize >= 1 && r.pageSize <= 100).toBe(true);
  if (r.kind === "poll") {
    expect(r.token.trim()).toBe(r.token);
    expect(r.token.length).toBeGreaterThan(0);
    return;
  }
  const q = r.query;
  expect(testAirports.get(q.origin)?.iata).toBe(q.origin);
  expect(testAirports.get(q.destination)?.iata).toBe(q.destination);
  expect(q.origin).not.toBe(q.destination);
  expect(q.departureDate >= TODAY && q.departureDate <= LAST).toBe(true);
  if (q.returnDate !== undefined) expect(q.returnDate >= q.departureDate && q.returnDate <= LAST).toBe(true);
  const { adults, children, infants } = q.passengers;
  expect([adults, children, infants].every(Number.isInteger)).toBe(true);
  expect(adults >= 1 && adults <= 9 && children >= 0 && adults + children <= 9 && infants >= 0 && infants <= adults).toBe(true);
  const companhia = q.mode.kind === "all-airlines" ? -1 : q.mode.kind === "ota-comparison" ? 1300 : q.mode.airlineId;
  expect(COMPANHIAS.has(companhia)).toBe(true);
};

/** Every spelling of a known key a client might send, and a few of the real extra keys. */
const key = fc.oneof(
  fc.constantFrom(...REQUEST_FIELDS),
  fc.constantFrom(...REQUEST_FIELDS).map((k) => k.toLowerCase()),
  fc.constantFrom(...REQUEST_FIELDS).map((k) => k.toUpperCase()),
  fc.constantFrom("Crianças", "crianças", "Crianc\u0327as", "Classe", "TipoViagem", "Filtros", "__proto__", "constructor"),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);

/** Values near the valid ones, and wrong-typed, huge or deeply nested ones. */
const value = fc.oneof(
  fc.constantFrom("CNF", "gig", "SDU", "XXX", "", " ", "2025-07-20", "2025-07-10", "2026-07-11", "2025-02-29", "s-1"),
  fc.integer({ min: -3, max: 1400 }),
  fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE, -0, 1e21),
  fc.double(),
  fc.constant(null),
  fc.jsonValue({ depthSize: "medium" }),
  fc.letrec((tie) => ({ deep: fc.oneof({ depthSize: "large" }, fc.constant(1), fc.array(tie("deep"), { maxLength: 2 })) })).deep,
);

const bodyWithRealKeys = fc.dictionary(key, value, { maxKeys: 14 });

describe("parseSearchRequest never throws and always answers well-formed", () => {
  it("on any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), assertWellFormed), { numRuns: 500 });
  });

  it("on anything at all (null-prototype objects, boxed values, symbols, functions...)", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withDate: true, withTypedArray: true, withSparseArray: true, withBigInt: true }), assertWellFormed),
      { numRuns: 500 },
    );
  });

  it("on objects with the real keys (any case) and wrong-typed values", () => {
    fc.assert(fc.property(bodyWithRealKeys, assertWellFormed), { numRuns: 1_000 });
  });

  it("on JSON text parsed the way the server parses it", () => {
    fc.assert(fc.property(bodyWithRealKeys, (body) => assertWellFormed(JSON.parse(JSON.stringify(body)))), { numRuns: 300 });
  });
});

describe("parseSearchRequest reads every valid query back", () => {
  const validBody = fc
    .record({
      route: fc.constantFrom(["CNF", "GIG"], ["GRU", "LIS"], ["sdu", "cnf"]),
      idaOffset: fc.integer({ min: 0, max: 365 }),
      stay: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
      adults: fc.integer({ min: 1, max: 9 }),
      childrenShare: fc.nat(),
      infantsShare: fc.nat(),
      companhia: fc.constantFrom(-1, null, 1300, ...AIRLINES.map((a) => a.id)),
    })
    .map((v) => {
      const day = (offset: number) => new Date(Date.UTC(2025, 6, 10 + offset)).toISOString().slice(0, 10);
      const children = v.childrenShare % (10 - v.adults);
      const infants = v.infantsShare % (v.adults + 1);
      const ret = v.stay === undefined || v.idaOffset + v.stay > 365 ? undefined : day(v.idaOffset + v.stay);
      return { v, children, infants, ida: day(v.idaOffset), ret };
    });

  it("with the values sent, codes upper-cased", () => {
    fc.assert(
      fc.property(validBody, ({ v, children, infants, ida, ret }) => {
        const r = parseSearchRequest(
          { Origem: v.route[0], Destino: v.route[1], Ida: ida, Volta: ret ?? null, Adultos: v.adults, Criancas: children, Bebes: infants, Companhia: v.companhia },
          ctx,
        );
        expect(r.kind).toBe("query");
        if (r.kind !== "query") return;
        expect(r.query.origin).toBe(v.route[0]!.toUpperCase());
        expect(r.query.departureDate).toBe(ida);
        expect(r.query.returnDate).toBe(ret);
        expect(r.query.passengers).toEqual({ adults: v.adults, children, infants });
      }),
      { numRuns: 300 },
    );
  });
});
