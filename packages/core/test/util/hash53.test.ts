import { describe, expect, it } from "vitest";
import { hash53 } from "../../src/util/hash53.js";

describe("hash53", () => {
  it("gives the published cyrb53 values, so names made from it (offer ids, entity tags) stay the same across releases and runtimes", () => {
    expect(hash53("")).toBe(3338908027751811);
    expect(hash53("CNF|SDU")).toBe(5133781802734391);
    expect(hash53("https://example.com/oferta?id=42").toString(36)).toBe("fh1dyp0uyr");
  });

  it("a salt gives another hash of the same text; every value is a safe integer", () => {
    expect(hash53("CNF|SDU", 1)).toBe(3765765864613287);
    expect(hash53("CNF|SDU", 1)).not.toBe(hash53("CNF|SDU"));
    for (const t of ["a", "b", "São Paulo", "x".repeat(10_000)]) expect(Number.isSafeInteger(hash53(t))).toBe(true);
  });
});
