import { describe, expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import { CALENDAR_MESSAGES, parseCalendarRequest } from "../../src/calendar/calendar-request.js";

const ctx = { airports, now: new Date("2026-03-02T15:00:00Z") };
const body = { Origem: "GRU", Destino: "SSA", Ida: "2026-04-01" };

describe("parseCalendarRequest", () => {
  it("reads a Consultar body plus DiasFlexiveis; paging and view members are ignored", () => {
    expect(parseCalendarRequest({ ...body, Volta: "2026-04-08", Adultos: 2, diasflexiveis: 3, NumeroPagina: 0, Filtros: "x" }, ctx)).toEqual({
      kind: "calendar",
      flexibleDays: 3,
      query: { origin: "GRU", destination: "SSA", departureDate: "2026-04-01", returnDate: "2026-04-08", passengers: { adults: 2, children: 0, infants: 0 }, mode: { kind: "all-airlines" } },
    });
    expect(parseCalendarRequest({ ...body, Companhia: 2, DiasFlexiveis: 1 }, ctx)).toMatchObject({ kind: "calendar", query: { mode: { kind: "single-airline", airlineId: 2 } } });
  });

  it("a Token or LeaseId polls a calendar", () => {
    expect(parseCalendarRequest({ Token: "abc" }, ctx)).toEqual({ kind: "poll", token: "abc" });
    expect(parseCalendarRequest({ LeaseId: "abc", NumeroPagina: 3 }, ctx)).toEqual({ kind: "poll", token: "abc" });
  });

  it.each([
    [{ ...body }, CALENDAR_MESSAGES.required],
    [{ ...body, DiasFlexiveis: 0 }, CALENDAR_MESSAGES.range],
    [{ ...body, DiasFlexiveis: 8 }, CALENDAR_MESSAGES.range],
    [{ ...body, DiasFlexiveis: 2.5 }, CALENDAR_MESSAGES.range],
    [{ ...body, DiasFlexiveis: "3" }, CALENDAR_MESSAGES.range],
  ])("names DiasFlexiveis when it is missing or not 1 to 7 (%j)", (b, message) => {
    expect(parseCalendarRequest(b, ctx)).toEqual({ kind: "invalid", campos: [{ Campo: "DiasFlexiveis", Mensagem: message }] });
  });

  it("refuses the OTA comparison, and names every failing field at once", () => {
    const parsed = parseCalendarRequest({ Origem: "GRU", Destino: "XXX", Ida: "2026-04-01", Companhia: 1300 }, ctx);
    expect(parsed.kind).toBe("invalid");
    const campos = parsed.kind === "invalid" ? parsed.campos.map((c) => c.Campo) : [];
    expect(campos).toEqual(["Destino", "DiasFlexiveis"]);
    expect(parseCalendarRequest({ ...body, Companhia: 1300, DiasFlexiveis: 2 }, ctx)).toEqual({ kind: "invalid", campos: [{ Campo: "Companhia", Mensagem: CALENDAR_MESSAGES.otaComparison }] });
    expect(parseCalendarRequest([], ctx)).toMatchObject({ kind: "invalid", campos: [{ Campo: "body" }] });
  });

  it("reads a legacy client's body leniently, DiasFlexiveis as text included", () => {
    const parsed = parseCalendarRequest({ ...body, Ida: "2026-04-01T00:00:00", DiasFlexiveis: "2", Adultos: "1" }, { ...ctx, compat: "legacy" });
    expect(parsed).toMatchObject({ kind: "calendar", flexibleDays: 2, query: { departureDate: "2026-04-01" } });
  });

  it("reads DiasFlexiveisVolta: a grid needs Volta, 1 to 3 days, at most 49 cells", () => {
    expect(parseCalendarRequest({ ...body, Volta: "2026-04-05", DiasFlexiveis: 2, DiasFlexiveisVolta: 2 }, ctx)).toMatchObject({ kind: "calendar", flexibleDays: 2, returnDays: 2 });
    expect(parseCalendarRequest({ ...body, DiasFlexiveis: 2, DiasFlexiveisVolta: 2 }, ctx)).toEqual({ kind: "invalid", campos: [{ Campo: "DiasFlexiveisVolta", Mensagem: CALENDAR_MESSAGES.returnNeedsVolta }] });
    expect(parseCalendarRequest({ ...body, Volta: "2026-04-05", DiasFlexiveis: 2, DiasFlexiveisVolta: 4 }, ctx)).toEqual({ kind: "invalid", campos: [{ Campo: "DiasFlexiveisVolta", Mensagem: CALENDAR_MESSAGES.returnRange }] });
    // (2 x 4 + 1) x (2 x 3 + 1) = 63 searches: too many.
    expect(parseCalendarRequest({ ...body, Volta: "2026-04-05", DiasFlexiveis: 4, DiasFlexiveisVolta: 3 }, ctx)).toEqual({ kind: "invalid", campos: [{ Campo: "DiasFlexiveisVolta", Mensagem: CALENDAR_MESSAGES.gridTooLarge }] });
    expect(parseCalendarRequest({ ...body, Volta: "2026-04-05", DiasFlexiveis: 3, DiasFlexiveisVolta: 3 }, ctx)).toMatchObject({ kind: "calendar", returnDays: 3 });
  });
});
