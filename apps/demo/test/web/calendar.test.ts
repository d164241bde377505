import { describe, expect, it } from "vitest";
import { priceLevels } from "../../src/web/calendar/price-scale.js";
import { calendarRequestOf, initialFormValues } from "../../src/web/search/search-form-model.js";

describe("the calendar strip's colour scale", () => {
  it("places each price from the cheapest day (0) to the dearest (4); a day without a price has no level", () => {
    expect(priceLevels([100, null, 300, 200])).toEqual([0, null, 4, 2]);
    expect(priceLevels([250, 250])).toEqual([0, 0]);
    expect(priceLevels([null, null])).toEqual([null, null]);
  });
});

describe("the calendar of the search form", () => {
  it("is the form's query with DiasFlexiveis, without paging; none for the OTA comparison or when turned off", () => {
    const form = { ...initialFormValues(new Date("2026-03-02T12:00:00Z")), roundTrip: true, adultos: 2 };
    expect(calendarRequestOf(form)).toEqual({ Origem: "CNF", Destino: "SDU", Ida: "2026-04-01", Volta: "2026-04-08", Adultos: 2, Criancas: 0, Bebes: 0, Companhia: -1, DiasFlexiveis: 3 });
    expect(calendarRequestOf({ ...form, modo: "otas" })).toBeUndefined();
    expect(calendarRequestOf({ ...form, diasFlexiveis: 0 })).toBeUndefined();
    expect(calendarRequestOf({ ...form, modo: "companhia", companhia: 2, diasFlexiveis: 7 })).toMatchObject({ Companhia: 2, DiasFlexiveis: 7 });
  });
});
