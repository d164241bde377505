/**
 * `voar search --base-url` against the demo server on a real port: the CLI follows the search through
 * the SDK's client (SSE), shows progress per source and the table, and says clearly what went wrong.
 */
import { CalendarEnvelopeSchema, ModeAEnvelopeSchema, ModeBEnvelopeSchema } from "@voar/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { prepareRemoteSearch } from "../../src/cli/remote-search.js";
import { startDemoServer, type DemoServer } from "../../src/server/demo-server.js";

let demo: DemoServer;
const ida = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

const run = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    out: { write: (s: string) => out.push(s), isTTY: false },
    err: { write: (s: string) => err.push(s) },
    remote: (body, target) => prepareRemoteSearch(body, target),
  });
  return { code, out: out.join(""), err: err.join("") };
};

beforeAll(async () => {
  demo = await startDemoServer({ port: 0, latencyMs: [200, 700], log: () => undefined });
});
afterAll(() => demo?.close());

describe("voar search --base-url against the demo server", () => {
  it("shows each source's progress, then the table of price groups", async () => {
    const { code, out, err } = await run(["search", "CNF", "SDU", ida, "--base-url", demo.apiUrl, "--token", demo.config.apiKey]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toMatch(/\[ ?\d+\/8\] LATAM\s+concluída, \d+ itens/);
    expect(out).toMatch(/Página 1 de \d+ · \d+ grupos de preço/);
  });

  it("--json prints the service's final envelope, the same the API answers", async () => {
    const { code, out } = await run(["search", "CNF", "SDU", ida, "--base-url", demo.apiUrl, "--token", demo.config.apiKey, "--json"]);
    expect(code).toBe(0);
    const envelope = ModeAEnvelopeSchema.parse(JSON.parse(out));
    expect(envelope.Completed).toBe(true);
    const direct = await fetch(`${demo.apiUrl}/ConsultaAereo/Consultar`, {
      method: "POST",
      headers: { Authorization: `Bearer ${demo.config.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ Origem: "CNF", Destino: "SDU", Ida: ida }),
    });
    const api = ModeAEnvelopeSchema.parse(await direct.json());
    expect(api.Token).toBe(envelope.Token);
    expect(envelope.pagination).toEqual(api.pagination);
    expect(envelope.Data[0]!.flights.map((f) => f.fareGroup.priceWithTax)).toEqual(api.Data[0]!.flights.map((f) => f.fareGroup.priceWithTax));
  });

  it("--modo b compares OTAs and names the OTA that failed", async () => {
    const table = await run(["search", "CNF", "SDU", ida, "--modo", "b", "--base-url", demo.apiUrl, "--token", demo.config.apiKey]);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/Bilhete Fácil\s+falhou: O fornecedor recusou a consulta\./);
    expect(table.out).toContain("Atenção: Bilhete Fácil não respondeu; os resultados abaixo vêm das demais fontes.");
    const json = await run(["search", "CNF", "SDU", ida, "--modo", "b", "--json-completo", "--base-url", demo.apiUrl, "--token", demo.config.apiKey]);
    expect(ModeBEnvelopeSchema.parse(JSON.parse(json.out)).Data[0]!.Ida.some((o) => (o.Outros?.length ?? 0) > 0)).toBe(true);
  });

  it("says clearly when the token is refused, the service is not there, or the URL is not the API", async () => {
    const refused = await run(["search", "CNF", "SDU", ida, "--base-url", demo.apiUrl, "--token", "not-the-right-token-123"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^Erro: .* recusou o acesso: .*Confira --token\.\n$/);
    const absent = await run(["search", "CNF", "SDU", ida, "--base-url", "http://127.0.0.1:9/api"]);
    expect(absent.code).toBe(1);
    expect(absent.err).toMatch(/não foi possível falar com http:\/\/127\.0\.0\.1:9\/api/);
    const notApi = await run(["search", "CNF", "SDU", ida, "--base-url", demo.url, "--token", demo.config.apiKey]);
    expect(notApi.code).toBe(1);
    expect(notApi.err).toContain("HTTP 404");
  });

  it("refuses bad arguments before any request, naming the flag", async () => {
    const { code, err } = await run(["search", "CNF", "CNF", ida, "--base-url", demo.apiUrl, "--token", demo.config.apiKey]);
    expect(code).toBe(2);
    expect(err).toContain("<destino> CNF: deve ser diferente de <origem>.");
  });

  it("voar calendario follows the service's calendar: a line per change, the table, or --json with each day's TokenBusca", async () => {
    const table = await run(["calendario", "CNF", "SDU", ida, "--dias", "2", "--base-url", demo.apiUrl, "--token", demo.config.apiKey]);
    expect(table.err).toBe("");
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/Calendário: 5 de 5 dias, menor até agora R\$/);
    expect(table.out).toContain("pedido");
    const json = await run(["calendario", "CNF", "SDU", ida, "--dias", "2", "--json", "--base-url", demo.apiUrl, "--token", demo.config.apiKey]);
    const answer = CalendarEnvelopeSchema.parse(JSON.parse(json.out));
    expect(answer.Completed).toBe(true);
    expect(answer.Data.every((d) => d.TokenBusca !== null && d.MenorValor !== null)).toBe(true);
  });
});
