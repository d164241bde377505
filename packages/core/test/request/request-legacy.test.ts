import { describe, expect, it } from "vitest";
import { parseSearchRequest, type ParsedRequest } from "../../src/request/request.js";
import { REQUEST_MESSAGES as M } from "../../src/request/request-messages.js";
import { ctx } from "./airport-fixtures.js";

/** What a client of the legacy API sends: numbers as text, .NET date-times, DateTime.MinValue for "no return". */
const LEGACY_BODY = {
  Origem: "CNF",
  Destino: "GIG",
  Ida: "2025-07-20T00:00:00",
  Volta: "0001-01-01",
  Adultos: "2",
  Criancas: "1",
  Bebes: "0",
  Companhia: "-1",
  Classe: 1,
  TipoViagem: 1,
};

const legacy = (body: unknown) => parseSearchRequest(body, { ...ctx, compat: "legacy" });
const strict = (body: unknown) => parseSearchRequest(body, ctx);

const failures = (r: ReturnType<typeof legacy>) => (r.kind === "invalid" ? r.campos.map((c) => `${c.Campo}: ${c.Mensagem}`) : [`not invalid: ${r.kind}`]);

describe('parseSearchRequest with compat "legacy"', () => {
  it("reads a legacy client's body as the search it means, and asks for every result when no page is named", () => {
    expect(legacy(LEGACY_BODY)).toEqual<ParsedRequest>({
      kind: "query",
      query: {
        origin: "CNF",
        destination: "GIG",
        departureDate: "2025-07-20",
        passengers: { adults: 2, children: 1, infants: 0 },
        mode: { kind: "all-airlines" },
      },
      page: 1,
      pageSize: 10,
      allResults: true,
    });
  });

  it("gives the same query as the spec's own body, so re-sending it joins the same search", () => {
    const spec = strict({ Origem: "CNF", Destino: "GIG", Ida: "2025-07-20", Adultos: 2, Criancas: 1, Bebes: 0, Companhia: -1 });
    const lenient = legacy(LEGACY_BODY);
    expect(spec.kind === "query" && lenient.kind === "query" && lenient.query).toEqual(spec.kind === "query" && spec.query);
  });

  it.each(["0001-01-01", "0001-01-01T00:00:00", "0001-01-01T00:00:00.0000000", "0001-01-01 00:00"])("Volta %s means no return", (volta) => {
    const r = legacy({ ...LEGACY_BODY, Volta: volta });
    expect(r.kind === "query" && r.query).not.toHaveProperty("returnDate");
  });

  it("takes the calendar date of a zone-less date-time for Ida and Volta", () => {
    const r = legacy({ ...LEGACY_BODY, Ida: "2025-07-20T23:59:59.999", Volta: "2025-07-27T00:00:00" });
    expect(r.kind === "query" && [r.query.departureDate, r.query.returnDate]).toEqual(["2025-07-20", "2025-07-27"]);
  });

  it("reads integers written as text in every numeric member, signs included", () => {
    const r = legacy({ ...LEGACY_BODY, Companhia: "2", NumeroPagina: "3", QuantidadePorPagina: "+25" });
    expect(r.kind === "query" && [r.query.mode, r.page, r.pageSize]).toEqual([{ kind: "single-airline", airlineId: 2 }, 3, 25]);
    expect(r).not.toHaveProperty("allResults");
  });

  it("pages as asked when the body names a page, even one member only", () => {
    expect(legacy({ ...LEGACY_BODY, NumeroPagina: 2 })).toMatchObject({ page: 2, pageSize: 10 });
    expect(legacy({ ...LEGACY_BODY, NumeroPagina: 2 })).not.toHaveProperty("allResults");
    expect(legacy({ ...LEGACY_BODY, QuantidadePorPagina: "50" })).not.toHaveProperty("allResults");
    expect(legacy({ ...LEGACY_BODY, NumeroPagina: null })).toHaveProperty("allResults", true);
  });

  it("a poll by LeaseId without a page asks for every result too", () => {
    expect(legacy({ LeaseId: "s-1" })).toEqual({ kind: "poll", token: "s-1", page: 1, pageSize: 10, allResults: true });
  });

  it("still refuses what is wrong, with the spec's pt-BR message naming the field", () => {
    expect(failures(legacy({ ...LEGACY_BODY, Adultos: "1.5" }))).toEqual([`Adultos: ${M.Adultos}`]);
    expect(failures(legacy({ ...LEGACY_BODY, Adultos: "dois" }))).toEqual([`Adultos: ${M.Adultos}`]);
    expect(failures(legacy({ ...LEGACY_BODY, Adultos: "10" }))).toEqual([`Adultos: ${M.Adultos}`]);
    expect(failures(legacy({ ...LEGACY_BODY, Companhia: "99" }))).toEqual([`Companhia: ${M.Companhia}`]);
    expect(failures(legacy({ ...LEGACY_BODY, NumeroPagina: "0" }))).toEqual([`NumeroPagina: ${M.NumeroPagina}`]);
    expect(failures(legacy({ ...LEGACY_BODY, Ida: "2025-02-30T00:00:00" }))).toEqual([`Ida: ${M.date("Ida")}`]);
    expect(failures(legacy({ ...LEGACY_BODY, Ida: "2025-07-20T25:00:00" }))).toEqual([`Ida: ${M.date("Ida")}`]);
    // A time with a zone names a different calendar day depending on where it is read: not guessed.
    expect(failures(legacy({ ...LEGACY_BODY, Ida: "2025-07-20T03:00:00.000Z" }))).toEqual([`Ida: ${M.date("Ida")}`]);
    expect(failures(legacy({ ...LEGACY_BODY, Ida: "0001-01-01" }))).toEqual([`Ida: ${M.datePast("Ida", "2025-07-10")}`]);
    expect(failures(legacy({ ...LEGACY_BODY, Volta: "2025-07-19T00:00:00" }))).toEqual([`Volta: ${M.returnBeforeDeparture}`]);
  });
});

describe("parseSearchRequest in spec mode (the default) is unchanged", () => {
  it.each([{}, { compat: "spec" as const }])("refuses the legacy forms naming each field (%o)", (extra) => {
    const r = parseSearchRequest(LEGACY_BODY, { ...ctx, ...extra });
    expect(failures(r)).toEqual([
      `Ida: ${M.date("Ida")}`,
      `Volta: ${M.datePast("Volta", "2025-07-10")}`,
      `Adultos: ${M.Adultos}`,
      `Criancas: ${M.Criancas}`,
      `Bebes: ${M.Bebes}`,
      `Companhia: ${M.Companhia}`,
    ]);
  });

  it("pages 1 of 10 when no page is asked, never every result", () => {
    const r = strict({ Origem: "CNF", Destino: "GIG", Ida: "2025-07-20" });
    expect(r).toMatchObject({ page: 1, pageSize: 10 });
    expect(r).not.toHaveProperty("allResults");
    expect(strict({ LeaseId: "s-1" })).toEqual({ kind: "poll", token: "s-1", page: 1, pageSize: 10 });
  });
});
