import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Offer } from "../../src/domain/offer.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { readUpstreamAnswer } from "../../src/upstream/index.js";
import { envelopeA, envelopeB, groupA, legA, offerB, segmentA, someAirports } from "./synthetic-answers.js";

const read = (json: unknown) => readUpstreamAnswer(json, { airports: someAirports, sourceId: "g" });

/**
 * What every offer the reader gives must satisfy, however odd its input. Taxes and fees may be negative (a
 * seller's discount), never above the total; every other amount is a non-negative integer.
 */
const sound = (o: Offer): boolean =>
  [o.total, o.airlinePrice, ...o.fares.map((f) => f.base)].every((m) => Number.isSafeInteger(m.amount) && m.amount >= 0) &&
  [o.taxes, ...o.fares.map((f) => f.taxes)].every((m) => Number.isSafeInteger(m.amount)) &&
  o.fares.reduce((s, f) => s + f.base.amount + f.taxes.amount, 0) === o.total.amount &&
  o.taxes.amount <= o.total.amount &&
  o.itinerary.legs.length === o.itinerary.stops + 1 &&
  o.itinerary.durationMinutes >= 0;

const outcome = (json: unknown): boolean => {
  const r = read(json);
  // The reader's last-resort guard ("erro inesperado") must never be what answers: the schemas should catch it all.
  if (r instanceof MalformedPayload) return !r.detail.includes("\n") && !r.detail.startsWith("erro inesperado");
  return r.offers.every(sound) && new Set(r.offers.map((o) => o.id)).size === r.offers.length;
};

/** Replaces the value at a random path of a JSON tree with an arbitrary value. */
const mutate = (tree: unknown, path: readonly number[], value: unknown): unknown => {
  if (path.length === 0 || typeof tree !== "object" || tree === null) return value;
  const entries = Object.entries(tree);
  if (entries.length === 0) return value;
  const [head = 0, ...rest] = path;
  const [key, child] = entries[head % entries.length]!;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(tree) ? [...tree] : { ...tree };
  (copy as Record<string, unknown>)[key] = mutate(child, rest, value);
  return copy;
};

const valid = [
  envelopeA([groupA({ segments: [segmentA(), segmentA({ rateToken: "x", legs: [legA(), legA({ flightNumber: 1, departure: "GIG", arrival: "LIS" })] })], segmentsBack: [segmentA({ rateToken: "r" })] })]),
  envelopeB([offerB({ Outros: [{ Nome: "Outra", Site: "outra.example", Url: "https://outra.example", Valor: 10 }] })], [offerB({ Token: "v" })]),
];

describe("garbage in", () => {
  it("never throws on anything, and answers soundly or with a MalformedPayload", () => {
    fc.assert(fc.property(fc.anything(), outcome), { numRuns: 500 });
  });

  it("never throws on arbitrary JSON wrapped in an envelope", () => {
    fc.assert(fc.property(fc.jsonValue(), fc.boolean(), (data, success) => outcome({ Success: success, Data: [data] })), { numRuns: 500 });
  });

  it("never throws when any member of a valid answer is replaced by anything", () => {
    const value = fc.oneof(fc.anything(), fc.double(), fc.string(), fc.constantFrom(null, -1, 0, 1e300, "", "25:99", "2025-13-40T99:99"));
    fc.assert(
      fc.property(fc.constantFrom(...valid), fc.array(fc.nat(40), { maxLength: 8 }), value, (json, path, v) => outcome(mutate(json, path, v))),
      { numRuns: 600 },
    );
  });

  it("never throws when any member deep inside a result item is replaced by anything", () => {
    const value = fc.oneof(fc.anything(), fc.double(), fc.constantFrom(null, -1, 0, 1e300, "", "25:99", "2025-13-40T99:99"));
    const item = (json: Record<string, unknown>) => (json.Data as unknown[])[0];
    fc.assert(
      fc.property(fc.constantFrom(...valid), fc.array(fc.nat(40), { minLength: 2, maxLength: 8 }), value, (json, path, v) =>
        outcome({ ...json, Data: [mutate(item(json), path, v)] }),
      ),
      { numRuns: 600 },
    );
  });

  it("reads the valid answers themselves", () => {
    for (const json of valid) expect(read(json)).not.toBeInstanceOf(MalformedPayload);
  });
});
