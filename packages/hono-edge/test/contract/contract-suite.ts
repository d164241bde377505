import { ErrorEnvelopeSchema, ModeAEnvelopeSchema, ModeBEnvelopeSchema } from "@voar/core";
import { describe, expect, it } from "vitest";
import { CONTRACT_API_KEY, consultarVia, daysAhead, pollUntilComplete, type ContractTarget, type Envelope } from "./contract-target.js";

/** One case of the contract: a name and what it checks against a target. */
export interface ContractCase {
  readonly name: string;
  run(target: ContractTarget): Promise<void>;
}

const route = { "Content-Type": "application/json" } as const;
const bearer = (token: string) => ({ ...route, Authorization: `Bearer ${token}` });

/** The failure envelope of decisions.md, with the code asked. */
const expectFailure = (status: number, body: Envelope, expected: { status: number; codigo: string }) => {
  expect(status).toBe(expected.status);
  expect(body).toMatchObject({ Success: false, HasResult: false, Completed: true, Data: [], Erro: { Codigo: expected.codigo } });
  expect(typeof body["MensagemErro"]).toBe("string");
  expect(ErrorEnvelopeSchema.safeParse(body).success).toBe(true);
};

/** Mode A offers of an answer by fare (`rateToken`), to see what one answer has that another lost. */
const modeARates = (body: Envelope): string[] =>
  (body["Data"] as { flights: { segments: { rateToken: string }[] }[] }[])[0]!.flights.flatMap((f) => f.segments.map((s) => s.rateToken));

/**
 * The HTTP contract of the service, as the spec and decisions.md state it, written against a `fetch`-like
 * function so that the same cases run in-process (`app.request`) and against any runtime over a socket.
 */
export const CONTRACT_CASES: readonly ContractCase[] = [
  {
    name: "GET /health answers 200 ok",
    async run(t) {
      const res = await t.fetch("/health");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok" });
    },
  },
  {
    name: "GET /api/openapi.json is an OpenAPI 3.1 document describing the search route",
    async run(t) {
      const res = await t.fetch("/api/openapi.json");
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toMatch(/^3\.1/);
      expect(Object.keys(doc.paths)).toContain("/api/ConsultaAereo/Consultar");
    },
  },
  {
    name: "Mode A: the first answer is not complete and carries the LeaseId; polls grow until Completed",
    async run(t) {
      const query = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20), QuantidadePorPagina: 100 };
      const first = await consultarVia(t, query);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ Success: true, Completed: false, Erro: null, ExErro: { Extensions: { LeaseId: first.body["Token"] } } });
      expect(ModeAEnvelopeSchema.safeParse(first.body).success).toBe(true);
      const answers = await pollUntilComplete(t, query);
      const last = answers.at(-1)!;
      expect(last.body).toMatchObject({ Completed: true, HasResult: true, ExErro: null, Token: first.body["Token"] });
      expect(ModeAEnvelopeSchema.safeParse(last.body).success).toBe(true);
      for (let i = 1; i < answers.length; i++) {
        const [before, after] = [answers[i - 1]!.body, answers[i]!.body];
        expect(after["Token"]).toBe(first.body["Token"]);
        expect(after["TotalItens"]).toBeGreaterThanOrEqual(before["TotalItens"] as number);
        expect((after["Progresso"] as { Versao: number }).Versao).toBeGreaterThanOrEqual((before["Progresso"] as { Versao: number }).Versao);
      }
      const byToken = await consultarVia(t, { Token: first.body["Token"], QuantidadePorPagina: 100 });
      expect(modeARates(byToken.body)).toEqual(modeARates(last.body));
    },
  },
  {
    name: "Mode A round trip: every flight has outbound and return options",
    async run(t) {
      const query = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20), Volta: daysAhead(27), Companhia: -1 };
      const last = (await pollUntilComplete(t, query)).at(-1)!.body;
      const flights = (last["Data"] as { flights: { segmentsBack: unknown[] | null }[] }[])[0]!.flights;
      expect(flights.length).toBeGreaterThan(0);
      expect(flights.every((f) => (f.segmentsBack?.length ?? 0) > 0)).toBe(true);
    },
  },
  {
    name: "Mode B (Companhia 1300) with Volta: OTA comparison in Ida and Volta",
    async run(t) {
      const query = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20), Volta: daysAhead(27), Companhia: 1300 };
      const last = (await pollUntilComplete(t, query)).at(-1)!.body;
      expect(ModeBEnvelopeSchema.safeParse(last).success).toBe(true);
      const result = (last["Data"] as { Ida: { Outros: unknown[] }[]; Volta: unknown[] }[])[0]!;
      expect(result.Ida.length).toBeGreaterThan(0);
      expect(result.Volta.length).toBeGreaterThan(0);
      expect(result.Ida.some((o) => o.Outros.length > 0)).toBe(true);
    },
  },
  {
    name: "single airline (Companhia 1, LATAM): that airline only, in the Mode B shape without Outros",
    async run(t) {
      const query = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20), Companhia: 1 };
      const last = (await pollUntilComplete(t, query)).at(-1)!.body;
      expect(ModeBEnvelopeSchema.safeParse(last).success).toBe(true);
      const offers = (last["Data"] as { Ida: { IdCia: number; Outros: unknown[] }[] }[])[0]!.Ida;
      expect(offers.length).toBeGreaterThan(0);
      expect(offers.every((o) => o.IdCia === 1 && o.Outros.length === 0)).toBe(true);
    },
  },
  {
    name: "an invalid request is a 400 naming each field in Campos",
    async run(t) {
      const { status, body } = await consultarVia(t, { Origem: "CNF", Ida: daysAhead(20), Companhia: 999 });
      expectFailure(status, body, { status: 400, codigo: "REQUISICAO_INVALIDA" });
      const campos = (body["Erro"] as { Campos: { Campo: string }[] }).Campos.map((c) => c.Campo);
      expect(campos).toEqual(expect.arrayContaining(["Destino", "Companhia"]));
    },
  },
  {
    name: "a missing or unknown bearer token is a 401",
    async run(t) {
      const query = JSON.stringify({ Origem: "CNF", Destino: "GRU", Ida: daysAhead(20) });
      const missing = await t.fetch("/api/ConsultaAereo/Consultar", { method: "POST", headers: route, body: query });
      expectFailure(missing.status, (await missing.json()) as Envelope, { status: 401, codigo: "NAO_AUTORIZADO" });
      const unknown = await t.fetch("/api/ConsultaAereo/Consultar", { method: "POST", headers: bearer(`${CONTRACT_API_KEY}-wrong`), body: query });
      expectFailure(unknown.status, (await unknown.json()) as Envelope, { status: 401, codigo: "NAO_AUTORIZADO" });
    },
  },
  {
    name: "a body over the limit (16 KiB) is a 413",
    async run(t) {
      const body = JSON.stringify({ Origem: "CNF", Destino: "GRU", Ida: daysAhead(20), Filler: "x".repeat(20_000) });
      const res = await t.fetch("/api/ConsultaAereo/Consultar", { method: "POST", headers: bearer(CONTRACT_API_KEY), body });
      expectFailure(res.status, (await res.json()) as Envelope, { status: 413, codigo: "CORPO_GRANDE_DEMAIS" });
    },
  },
];

/**
 * Runs every case against a target, one `it` each.
 *
 * @example
 * runContract("in-process", () => ({ fetch: (path, init) => app.request(path, init), wait: sleep }));
 */
export const runContract = (name: string, target: () => ContractTarget): void => {
  describe(`${name}: the HTTP contract`, () => {
    for (const c of CONTRACT_CASES) it(c.name, () => c.run(target()));
  });
};
