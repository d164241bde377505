import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openApiDocument } from "../src/openapi/openapi-document.js";
import { consultar, NOW, post, QUERY, testApp, type Answer } from "./support/app.js";
import { readStream } from "./support/sse.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

type Flight = { segments: { numberOfStops: number; departureDate: string }[]; fareGroup: { priceWithTax: number }; validatingBy: { iata: string } };
const flightsOf = (body: Answer): Flight[] => (body.Data as unknown as { flights: Flight[] }[])[0]!.flights;
const metaOf = (body: Answer) => (body.Data as unknown as { meta: Record<string, unknown> & { Contagens: { Companhias: { Key: string; Value: number }[] } } }[])[0]!.meta;

describe("Filtros and Ordenacao over HTTP", () => {
  it("filter one airline over the whole result: the page, pagination and meta agree with meta.Contagens", async () => {
    const { app } = testApp();
    const id = (await consultar(app, QUERY)).body.Token as string;
    await vi.advanceTimersByTimeAsync(1_000);
    const all = await consultar(app, { Token: id, QuantidadePorPagina: 100 });
    const counts = metaOf(all.body).Contagens.Companhias;
    expect(counts.length).toBeGreaterThan(1);
    const { Key: iata, Value: expected } = counts[counts.length - 1]!;
    const filtered = await consultar(app, { Token: id, QuantidadePorPagina: 100, Filtros: { Companhias: [iata] } });
    expect(filtered.status).toBe(200);
    expect(filtered.body.pagination).toMatchObject({ totalItems: expected });
    expect(filtered.body.TotalItens).toBe(expected);
    expect(flightsOf(filtered.body).every((f) => f.validatingBy.iata === iata)).toBe(true);
    expect(flightsOf(filtered.body)).toHaveLength(expected);
    expect(metaOf(filtered.body)).toMatchObject({ Filtros: { Companhias: [iata] }, Ordenacao: "preco" });
  });

  it("sort by departure applies to the whole result, and a different view is not answered from the cache of another", async () => {
    const { app } = testApp();
    const id = (await consultar(app, QUERY)).body.Token as string;
    await vi.advanceTimersByTimeAsync(1_000);
    const byPrice = await consultar(app, { Token: id, QuantidadePorPagina: 100 });
    const byDeparture = await consultar(app, { Token: id, QuantidadePorPagina: 100, Ordenacao: "partida" });
    const firstDeparture = (f: Flight) => f.segments.map((s) => s.departureDate).sort()[0]!;
    const deps = flightsOf(byDeparture.body).map(firstDeparture);
    expect(deps).toEqual([...deps].sort());
    expect(byDeparture.body.TotalItens).toBe(byPrice.body.TotalItens);
    expect(flightsOf(byDeparture.body).map(firstDeparture)).not.toEqual(flightsOf(byPrice.body).map(firstDeparture));
    expect(metaOf(byDeparture.body).Ordenacao).toBe("partida");
  });

  it("an invalid filter is a 400 naming the member in pt-BR", async () => {
    const { app } = testApp();
    const res = await consultar(app, { ...QUERY, Filtros: { Paradas: [7] }, Ordenacao: "aleatoria" });
    expect(res.status).toBe(400);
    expect(res.body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA" });
    const campos = (res.body.Erro as unknown as { Campos: { Campo: string; Mensagem: string }[] }).Campos;
    expect(campos.map((c) => c.Campo).sort()).toEqual(["Filtros.Paradas", "Ordenacao"]);
    expect(campos.find((c) => c.Campo === "Ordenacao")!.Mensagem).toContain("deve ser");
  });

  it("the SSE stream sends the filtered view in every event", async () => {
    const { app } = testApp();
    const res = await post(app, "/api/ConsultaAereo/Stream", { ...QUERY, QuantidadePorPagina: 100, Filtros: { Pagamento: "dinheiro" } });
    const events = (await readStream(res)).filter((e) => e.data !== undefined).map((e) => JSON.parse(e.data!) as Answer);
    const last = events[events.length - 1]!;
    expect(last.Completed).toBe(true);
    for (const body of events) expect(metaOf(body).Filtros).toEqual({ Pagamento: "dinheiro" });
    const cash = (metaOf(last) as unknown as { Contagens: { Dinheiro: number } }).Contagens.Dinheiro;
    expect(last.TotalItens).toBe(cash);
  });

  it("a round trip filters stops per leg: each leg's counts add up to the whole result, and each filter answers its count", async () => {
    const { app } = testApp();
    const id = (await consultar(app, { ...QUERY, Volta: "2026-03-27" })).body.Token as string;
    await vi.advanceTimersByTimeAsync(1_000);
    type Count = { Key: number; Value: number };
    const all = await consultar(app, { Token: id, QuantidadePorPagina: 10 });
    const total = all.body.TotalItens;
    const counts = (metaOf(all.body) as unknown as { Contagens: { Paradas: Count[]; ParadasIda: Count[]; ParadasVolta: Count[] } }).Contagens;
    const sum = (list: Count[]) => list.reduce((n, c) => n + c.Value, 0);
    expect(total).toBeGreaterThan(0);
    expect([sum(counts.ParadasIda), sum(counts.ParadasVolta)]).toEqual([total, total]);
    expect(counts.ParadasIda.length + counts.ParadasVolta.length).toBeGreaterThan(2);
    for (const [member, list] of [["ParadasIda", counts.ParadasIda], ["ParadasVolta", counts.ParadasVolta], ["Paradas", counts.Paradas]] as const) {
      for (const { Key, Value } of list) {
        const filtered = await consultar(app, { Token: id, QuantidadePorPagina: 10, Filtros: { [member]: [Key] } });
        expect([member, Key, filtered.body.TotalItens]).toEqual([member, Key, Value]);
        expect(metaOf(filtered.body).Filtros).toEqual({ [member]: [Key] });
      }
    }
    const bad = await consultar(app, { Token: id, Filtros: { ParadasVolta: [3] } });
    expect(bad.status).toBe(400);
    expect((bad.body.Erro as unknown as { Campos: { Campo: string }[] }).Campos.map((c) => c.Campo)).toEqual(["Filtros.ParadasVolta"]);
  });

  it("the OpenAPI document describes Filtros and Ordenacao", () => {
    const doc = openApiDocument("/api") as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    expect(Object.keys(doc.components.schemas.Filtros!.properties!)).toEqual(
      expect.arrayContaining(["Paradas", "ParadasIda", "ParadasVolta", "Companhias", "Pagamento", "Ida", "Volta", "DuracaoMaxima", "PrecoMinimo", "PrecoMaximo"]),
    );
    expect(doc.components.schemas.ConsultaAereoRequest!.properties).toHaveProperty("Ordenacao");
    expect(doc.components.schemas.ConsultaAereoPoll!.properties).toHaveProperty("Filtros");
  });
});
