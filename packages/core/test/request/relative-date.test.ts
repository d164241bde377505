import { describe, expect, it } from "vitest";
import { isRelativeDate, parseSearchRequest, resolveRelativeDate, withAbsoluteDates } from "../../src/index.js";
import { airports } from "../../src/airports/index.js";

// 02:30 UTC on 1 March is still 28 February in São Paulo (UTC-3): "today" is São Paulo's, not UTC's.
const lateNightInSaoPaulo = new Date("2027-03-01T02:30:00Z");

describe("relative dates (+N days from today in São Paulo)", () => {
  it("count from São Paulo's date, across month and year ends", () => {
    expect(resolveRelativeDate("+0", lateNightInSaoPaulo)).toBe("2027-02-28");
    expect(resolveRelativeDate("+1", lateNightInSaoPaulo)).toBe("2027-03-01");
    expect(resolveRelativeDate("+30", lateNightInSaoPaulo)).toBe("2027-03-30");
    expect(resolveRelativeDate(" +306 ", lateNightInSaoPaulo)).toBe("2027-12-31");
    expect(resolveRelativeDate("+307", lateNightInSaoPaulo)).toBe("2028-01-01");
  });

  it("leave any other text as it is, for the request's validation to judge", () => {
    for (const text of ["2027-03-30", "30", "-1", "+", "+1d", "+1000", "amanhã", ""]) {
      expect(isRelativeDate(text), text).toBe(false);
      expect(resolveRelativeDate(text, lateNightInSaoPaulo)).toBe(text);
    }
  });

  it("give dates the request accepts, up to the last day a search may ask", () => {
    const body = withAbsoluteDates({ Origem: "CNF", Destino: "SDU", Ida: "+30", Volta: "+365", Adultos: 2 }, lateNightInSaoPaulo);
    expect(body).toEqual({ Origem: "CNF", Destino: "SDU", Ida: "2027-03-30", Volta: "2028-02-28", Adultos: 2 });
    const parsed = parseSearchRequest(body, { airports, now: lateNightInSaoPaulo });
    expect(parsed.kind).toBe("query");
    const tooFar = parseSearchRequest(withAbsoluteDates({ Origem: "CNF", Destino: "SDU", Ida: "+366" }, lateNightInSaoPaulo), { airports, now: lateNightInSaoPaulo });
    expect(tooFar).toMatchObject({ kind: "invalid" });
  });

  it("return a body without relative dates unchanged (the same object)", () => {
    const poll = { Token: "abc", NumeroPagina: 2 };
    expect(withAbsoluteDates(poll, lateNightInSaoPaulo)).toBe(poll);
  });
});
