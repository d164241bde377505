import { describe, expect, it } from "vitest";
import { todayInSaoPaulo } from "../../src/request/request-dates.js";
import { parseSearchRequest, type InvalidRequest, type ParsedRequest } from "../../src/request/request.js";
import { ctx } from "./airport-fixtures.js";

const base = { Origem: "CNF", Destino: "GIG", Ida: "2025-07-20" };

const parse = (body: unknown, c = ctx) => parseSearchRequest(body, c);

const query = (body: unknown) => {
  const r = parse(body);
  if (r.kind !== "query") throw new Error(`expected a query, got ${JSON.stringify(r)}`);
  return r;
};

const campos = (body: unknown, c = ctx): InvalidRequest["campos"] => {
  const r = parse(body, c);
  if (r.kind !== "invalid") throw new Error(`expected invalid, got ${JSON.stringify(r)}`);
  return r.campos;
};

/** The single failure of a body, as `Campo: Mensagem`. */
const failure = (body: unknown, c = ctx) => campos(body, c).map((f) => `${f.Campo}: ${f.Mensagem}`);

describe("parseSearchRequest: a valid search", () => {
  it("applies the defaults: 1 adult, no children or infants, all airlines, page 1 of 10", () => {
    expect(parse(base)).toEqual<ParsedRequest>({
      kind: "query",
      query: {
        origin: "CNF",
        destination: "GIG",
        departureDate: "2025-07-20",
        passengers: { adults: 1, children: 0, infants: 0 },
        mode: { kind: "all-airlines" },
      },
      page: 1,
      pageSize: 10,
    });
  });

  it("reads keys case- and accent-insensitively, upper-cases codes and ignores unknown keys", () => {
    const r = query({
      origem: "cnf",
      DESTINO: "gig",
      ida: "2025-07-20",
      VOLTA: "2025-07-25",
      adultos: 2,
      "Crianças": 3,
      bebes: 1,
      companhia: 1300,
      numeropagina: 2,
      quantidadePorPagina: 50,
      Classe: 1,
      TipoViagem: 2,
      Filtros: { Cias: ["x"] },
    });
    expect(r.query).toEqual({
      origin: "CNF",
      destination: "GIG",
      departureDate: "2025-07-20",
      returnDate: "2025-07-25",
      passengers: { adults: 2, children: 3, infants: 1 },
      mode: { kind: "ota-comparison" },
    });
    expect([r.page, r.pageSize]).toEqual([2, 50]);
  });

  it("accepts Crianças written with a combining cedilla (NFD) and with the plain spelling", () => {
    expect(query({ ...base, "Crianc\u0327as": 2 }).query.passengers.children).toBe(2);
    expect(query({ ...base, criancas: 2 }).query.passengers.children).toBe(2);
  });

  it("maps Companhia -1, null and absent to all airlines, an airline id to single-airline", () => {
    expect(query({ ...base, Companhia: -1 }).query.mode).toEqual({ kind: "all-airlines" });
    expect(query({ ...base, Companhia: null }).query.mode).toEqual({ kind: "all-airlines" });
    expect(query({ ...base, Companhia: 2 }).query.mode).toEqual({ kind: "single-airline", airlineId: 2 });
    expect(query({ ...base, Companhia: 26 }).query.mode).toEqual({ kind: "single-airline", airlineId: 26 });
  });

  it("treats a null or blank Volta as a one-way search", () => {
    expect(query({ ...base, Volta: null }).query).not.toHaveProperty("returnDate");
    expect(query({ ...base, Volta: "" }).query).not.toHaveProperty("returnDate");
  });

  it("accepts a return on the day of departure, and the same key spelled twice with the same value", () => {
    expect(query({ ...base, Volta: "2025-07-20" }).query.returnDate).toBe("2025-07-20");
    expect(query({ ...base, origem: "CNF" }).query.origin).toBe("CNF");
  });

  it("ignores a __proto__ member of a JSON body", () => {
    const body: unknown = JSON.parse('{"__proto__":{"Ida":"bad"},"Origem":"CNF","Destino":"GIG","Ida":"2025-07-20"}');
    expect(query(body).query.departureDate).toBe("2025-07-20");
  });
});

describe("parseSearchRequest: dates against today in São Paulo", () => {
  it("accepts today and 365 days ahead, refuses yesterday and 366 days ahead", () => {
    expect(query({ ...base, Ida: "2025-07-10" }).query.departureDate).toBe("2025-07-10");
    expect(query({ ...base, Ida: "2026-07-10" }).query.departureDate).toBe("2026-07-10");
    expect(failure({ ...base, Ida: "2025-07-09" })).toEqual(["Ida: Ida não pode ser anterior a hoje (2025-07-10, horário de São Paulo)."]);
    expect(failure({ ...base, Ida: "2026-07-11" })).toEqual(["Ida: Ida deve estar no máximo 365 dias à frente (até 2026-07-10)."]);
  });

  it("computes today in São Paulo, not in UTC", () => {
    // 02:30 UTC on the 11th is still 23:30 on the 10th in São Paulo.
    const lateEvening = { ...ctx, now: new Date("2025-07-11T02:30:00Z") };
    expect(parse({ ...base, Ida: "2025-07-10" }, lateEvening).kind).toBe("query");
    // 03:30 UTC on the 10th is 00:30 on the 10th in São Paulo: the 9th is already past.
    const justAfterMidnight = { ...ctx, now: new Date("2025-07-10T03:30:00Z") };
    expect(campos({ ...base, Ida: "2025-07-09" }, justAfterMidnight).map((c) => c.Campo)).toEqual(["Ida"]);
  });

  it("today changes at São Paulo's midnight from one request to the next, to the millisecond", () => {
    const at = (iso: string) => ({ ...ctx, now: new Date(iso) });
    // São Paulo's midnight of the 10th is 03:00:00.000 UTC: the request a millisecond before still sees the 9th.
    expect(parse({ ...base, Ida: "2025-07-09" }, at("2025-07-10T02:59:59.999Z")).kind).toBe("query");
    expect(campos({ ...base, Ida: "2025-07-09" }, at("2025-07-10T03:00:00.000Z")).map((c) => c.Campo)).toEqual(["Ida"]);
    // Back to the earlier instant: the date is not stuck on the latest one.
    expect(parse({ ...base, Ida: "2025-07-09" }, at("2025-07-10T02:59:59.000Z")).kind).toBe("query");
    // Before 1914 São Paulo kept local mean time (UTC-3:06:28): its midnight fell within a UTC minute.
    expect(todayInSaoPaulo(new Date("1913-06-01T03:06:27.999Z"))).toBe("1913-05-31");
    expect(todayInSaoPaulo(new Date("1913-06-01T03:06:28.000Z"))).toBe("1913-06-01");
  });

  it.each([["2025-02-30"], ["2025-13-01"], ["20-07-2025"], ["2025-7-20"], ["2025-07-20T10:00:00"], [20250720], [true], [{}]])(
    "refuses Ida %j as not a calendar date",
    (Ida) => {
      expect(failure({ ...base, Ida })).toEqual(["Ida: Ida deve ser uma data válida no formato AAAA-MM-DD."]);
    },
  );

  it("requires Ida", () => {
    const message = ["Ida: Ida é obrigatória: informe a data de ida no formato AAAA-MM-DD."];
    expect(failure({ Origem: "CNF", Destino: "GIG" })).toEqual(message);
    expect(failure({ ...base, Ida: null })).toEqual(message);
  });

  it("checks Volta: a calendar date, not before Ida, within 365 days", () => {
    expect(failure({ ...base, Volta: "2025-07-19" })).toEqual(["Volta: Volta não pode ser anterior a Ida."]);
    expect(failure({ ...base, Volta: "2025-06-31" })).toEqual(["Volta: Volta deve ser uma data válida no formato AAAA-MM-DD."]);
    expect(failure({ ...base, Volta: "2026-07-11" })).toEqual(["Volta: Volta deve estar no máximo 365 dias à frente (até 2026-07-10)."]);
    expect(failure({ ...base, Ida: "x", Volta: "2025-07-01" }).map((f) => f.split(":")[0])).toEqual(["Ida", "Volta"]);
  });
});

describe("parseSearchRequest: airports", () => {
  it("requires Origem and Destino", () => {
    expect(failure({ Ida: "2025-07-20" })).toEqual([
      "Origem: Origem é obrigatória: informe o código IATA de 3 letras do aeroporto de partida.",
      "Destino: Destino é obrigatório: informe o código IATA de 3 letras do aeroporto de chegada.",
    ]);
  });

  it.each([["CN"], ["CNFX"], ["C1F"], [123], [["CNF"]]])("refuses Origem %j as not a 3-letter code", (Origem) => {
    expect(failure({ ...base, Origem })).toEqual(["Origem: Origem deve ser um código IATA de 3 letras (por exemplo, CNF)."]);
  });

  it("refuses an unknown airport and names it", () => {
    expect(failure({ ...base, Destino: "xyz" })).toEqual(["Destino: Destino não corresponde a um aeroporto conhecido: XYZ."]);
  });

  it("refuses the same airport both ways", () => {
    expect(failure({ ...base, Destino: "cnf" })).toEqual(["Destino: Destino deve ser diferente de Origem."]);
  });
});

describe("parseSearchRequest: passengers", () => {
  it.each([[0], [10], [1.5], ["1"], [-1]])("refuses Adultos %j", (Adultos) => {
    expect(failure({ ...base, Adultos })).toEqual(["Adultos: Adultos deve ser um número inteiro entre 1 e 9."]);
  });

  it.each([[-1], [0.5], ["0"], [10]])("refuses Criancas %j", (Criancas) => {
    expect(failure({ ...base, Criancas })).toEqual(["Criancas: Criancas deve ser um número inteiro entre 0 e 9."]);
  });

  it("refuses more than 9 adults and children together, on Criancas", () => {
    expect(query({ ...base, Adultos: 5, Criancas: 4 }).query.passengers).toEqual({ adults: 5, children: 4, infants: 0 });
    expect(failure({ ...base, Adultos: 5, Criancas: 5 })).toEqual(["Criancas: Adultos + Criancas não pode passar de 9 passageiros."]);
  });

  it("refuses more infants than adults, counting the default adult", () => {
    expect(query({ ...base, Adultos: 2, Bebes: 2 }).query.passengers.infants).toBe(2);
    expect(failure({ ...base, Bebes: 2 })).toEqual(["Bebes: Bebes não pode ser maior que Adultos: cada bebê viaja no colo de um adulto."]);
    expect(failure({ ...base, Bebes: -1 })).toEqual(["Bebes: Bebes deve ser um número inteiro entre 0 e 9."]);
  });
});

describe("parseSearchRequest: Companhia and paging", () => {
  it.each([[0], [35], [1201], ["2"], [2.5], [true]])("refuses Companhia %j and lists the accepted values", (Companhia) => {
    const [f] = campos({ ...base, Companhia });
    expect(f?.Campo).toBe("Companhia");
    expect(f?.Mensagem).toMatch(/^Companhia deve ser -1 ou null \(todas as companhias\), 1300 .* 1 LATAM, 2 GOL, .* 26 Iberia, 34 Livelo, 1200 Interline\.$/);
  });

  it.each([[34], [1200]])("accepts Companhia %j (Livelo, Interline) as a single-source search", (Companhia) => {
    expect(query({ ...base, Companhia }).query.mode).toEqual({ kind: "single-airline", airlineId: Companhia });
  });

  it("validates NumeroPagina (>= 1) and QuantidadePorPagina (1..100)", () => {
    expect(query({ ...base, NumeroPagina: 1_000, QuantidadePorPagina: 100 })).toMatchObject({ page: 1_000, pageSize: 100 });
    expect(failure({ ...base, NumeroPagina: 0 })).toEqual(["NumeroPagina: NumeroPagina deve ser um número inteiro maior ou igual a 1."]);
    expect(failure({ ...base, NumeroPagina: 1e300 }).length).toBe(1);
    expect(failure({ ...base, QuantidadePorPagina: 101 })).toEqual([
      "QuantidadePorPagina: QuantidadePorPagina deve ser um número inteiro entre 1 e 100.",
    ]);
    expect(failure({ ...base, QuantidadePorPagina: 0 }).length).toBe(1);
  });
});

describe("parseSearchRequest: every failing field at once", () => {
  it("names each failing field once, in a stable order", () => {
    const fields = campos({ Origem: "??", Destino: "ZZZ", Ida: "2025-02-30", Adultos: 0, Bebes: "x", Companhia: 7, NumeroPagina: -2 }).map(
      (c) => c.Campo,
    );
    expect(fields).toEqual(["NumeroPagina", "Origem", "Destino", "Ida", "Adultos", "Bebes", "Companhia"]);
  });

  it("refuses a body that is not an object, naming it body", () => {
    for (const body of [null, undefined, [], [base], "texto", 42, true]) {
      expect(failure(body)).toEqual(["body: O corpo da requisição deve ser um objeto JSON com os campos da busca."]);
    }
  });

  it("refuses two spellings of a field with different values", () => {
    expect(failure({ ...base, origem: "GRU" })).toEqual(["Origem: Origem foi informado mais de uma vez, com valores diferentes."]);
  });
});

describe("parseSearchRequest: polling", () => {
  it("reads a Token or LeaseId (any case) as a poll, with paging and defaults", () => {
    expect(parse({ Token: "s-1" })).toEqual({ kind: "poll", token: "s-1", page: 1, pageSize: 10 });
    expect(parse({ leaseid: " s-2 ", numeroPagina: 3 })).toEqual({ kind: "poll", token: "s-2", page: 3, pageSize: 10 });
    expect(parse({ Token: "s-1", LeaseId: "other" })).toMatchObject({ kind: "poll", token: "s-1" });
  });

  it("ignores the query members of a poll but still validates its paging", () => {
    expect(parse({ Token: "s-1", Ida: "nonsense", Companhia: 99 })).toMatchObject({ kind: "poll", token: "s-1" });
    expect(failure({ LeaseId: "s-1", QuantidadePorPagina: 500 })).toEqual([
      "QuantidadePorPagina: QuantidadePorPagina deve ser um número inteiro entre 1 e 100.",
    ]);
  });

  it("treats a null or blank Token as no poll, and refuses a non-text one", () => {
    expect(parse({ ...base, Token: null, LeaseId: "" }).kind).toBe("query");
    expect(failure({ Token: 12 })).toEqual(["Token: Token deve ser um texto não vazio: o id da busca recebido na resposta anterior."]);
  });
});
