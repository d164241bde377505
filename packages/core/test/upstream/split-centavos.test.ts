import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitCentavos } from "../../src/upstream/index.js";

describe("splitCentavos", () => {
  it("splits in proportion, the remainder to the largest fractions, earlier first on ties", () => {
    expect(splitCentavos(1000, [1, 1, 1])).toEqual([334, 333, 333]);
    expect(splitCentavos(10007, [1, 1])).toEqual([5004, 5003]);
    expect(splitCentavos(100, [0, 0])).toEqual([50, 50]);
    expect(splitCentavos(100, [3, -1, 1])).toEqual([75, 0, 25]);
  });

  it("always gives non-negative integers that add up to the amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e11 }), fc.array(fc.double({ min: -10, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 6 }), (amount, weights) => {
        const parts = splitCentavos(amount, weights);
        return parts.length === weights.length && parts.every((p) => Number.isSafeInteger(p) && p >= 0) && parts.reduce((a, b) => a + b, 0) === amount;
      }),
    );
  });
});
