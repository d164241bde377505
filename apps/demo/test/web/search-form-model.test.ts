import { describe, expect, it } from "vitest";
import { airports } from "@voar/core/airports";
import { directoryOf, initialFormValues, requestOf, validateForm, withIda, withRoundTrip, type SearchFormValues } from "../../src/web/search/search-form-model.js";

const NOW = new Date("2026-11-22T15:00:00Z");
const CNF = airports.get("CNF")!;
const SDU = airports.get("SDU")!;
const known = directoryOf([CNF, SDU]);
const form = (over: Partial<SearchFormValues> = {}): SearchFormValues => ({
  ...initialFormValues(NOW),
  origem: { text: "Belo Horizonte (CNF)", airport: CNF },
  destino: { text: "Rio De Janeiro (SDU)", airport: SDU },
  ida: "2026-12-20",
  volta: "2026-12-27",
  ...over,
});

describe("the search form and the API's request", () => {
  it("sends the codes of the picked airports, the mode's Companhia and the page", () => {
    expect(requestOf(form(), { page: 2, pageSize: 20 })).toEqual({
      Origem: "CNF",
      Destino: "SDU",
      Ida: "2026-12-20",
      Adultos: 1,
      Criancas: 0,
      Bebes: 0,
      Companhia: -1,
      NumeroPagina: 2,
      QuantidadePorPagina: 20,
    });
    expect(requestOf(form({ roundTrip: true, modo: "otas" }))).toMatchObject({ Volta: "2026-12-27", Companhia: 1300 });
    expect(requestOf(form({ modo: "companhia", companhia: 3 })).Companhia).toBe(3);
    expect(requestOf(form({ origem: { text: " gru " } })).Origem).toBe("GRU");
  });

  it("accepts a valid search", () => {
    expect(validateForm(form({ roundTrip: true }), known, NOW)).toEqual({});
  });

  it("puts the API's own messages next to the fields that are wrong", () => {
    expect(validateForm(form({ destino: { text: "Belo Horizonte (CNF)", airport: CNF } }), known, NOW).destino).toBe("Destino deve ser diferente de Origem.");
    expect(validateForm(form({ ida: "2026-11-01" }), known, NOW).ida).toMatch(/^Ida não pode ser anterior a hoje/);
    expect(validateForm(form({ adultos: 1, bebes: 2 }), known, NOW).bebes).toMatch(/^Bebes não pode ser maior que Adultos/);
    expect(validateForm(form({ origem: { text: "Belo" } }), known, NOW).origem).toMatch(/código IATA de 3 letras/);
    expect(validateForm(form({ origem: { text: "XYZ" } }), known, NOW).origem).toBe("Origem não corresponde a um aeroporto conhecido: XYZ.");
    expect(validateForm(form({ roundTrip: true, volta: "2026-12-01" }), known, NOW).volta).toBe("Volta não pode ser anterior a Ida.");
  });

  it("asks for the return date of a round trip", () => {
    expect(validateForm(form({ roundTrip: true, volta: "" }), known, NOW).volta).toBe("Informe a data da volta, ou escolha só ida.");
  });
});

describe("the form's dates", () => {
  it("a new departure (typed, or a calendar day clicked) moves the return with it, keeping the stay", () => {
    expect(withIda(form(), "2027-01-10")).toMatchObject({ ida: "2027-01-10", volta: "2027-01-17" });
    expect(withIda(form({ volta: "2026-12-22" }), "2026-12-18")).toMatchObject({ ida: "2026-12-18", volta: "2026-12-20" });
    // A form whose return was before its departure gets a week.
    expect(withIda(form({ volta: "2026-12-01" }), "2026-12-24")).toMatchObject({ volta: "2026-12-31" });
    // Half-typed: kept as typed, the return untouched.
    expect(withIda(form(), "")).toMatchObject({ ida: "", volta: "2026-12-27" });
  });

  it("after a calendar click on a one-way search past the old return, switching to round trip gives a search the API accepts", () => {
    const oneWay = form({ ida: "2026-12-20", volta: "2026-12-27" });
    const clicked = withIda(oneWay, "2027-01-03");
    const round = withRoundTrip(clicked, true);
    expect(round).toMatchObject({ roundTrip: true, ida: "2027-01-03", volta: "2027-01-10" });
    expect(validateForm(round, known, NOW)).toEqual({});
    // A form whose return fell before its departure (set by hand) gets the departure plus a week when switched.
    expect(withRoundTrip(form({ ida: "2027-01-03", volta: "2026-12-27" }), true)).toMatchObject({ volta: "2027-01-10" });
    expect(withRoundTrip(form({ ida: "2027-01-03", volta: "" }), true)).toMatchObject({ volta: "2027-01-10" });
  });
});
