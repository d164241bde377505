import { ModeAEnvelopeSchema, ModeBEnvelopeSchema } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consultar, NOW, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

describe("POST /api/ConsultaAereo/Consultar: modes", () => {
  it("Mode A (Companhia absent, -1 or null) answers at once, then the complete result, in the Mode A envelope", async () => {
    const { app } = testApp();
    const first = await consultar(app, QUERY);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ Success: true, Completed: false, Erro: null, MensagemErro: null, TotalItens: 0, HasResult: false });
    expect(first.body.Data[0].flights).toEqual([]);
    expect(first.body.ExErro).toEqual({ Extensions: { LeaseId: first.body.Token } });
    expect(first.body.Data[0].LeaseId).toBe(first.body.Token);
    expect(first.body.Progresso).toMatchObject({ Versao: 0, FontesConcluidas: 0, ProximaConsultaMs: 500 });
    expect(typeof first.body.RequestId).toBe("string");
    expect(ModeAEnvelopeSchema.safeParse(first.body).success).toBe(true);

    await vi.advanceTimersByTimeAsync(250);
    for (const companhia of [undefined, -1, null]) {
      const done = await consultar(app, { ...QUERY, ...(companhia === undefined ? {} : { Companhia: companhia }) });
      expect(done.body.Token).toBe(first.body.Token);
      expect(done.body).toMatchObject({ Completed: true, HasResult: true, ExErro: null });
      expect(done.body.Data[0].LeaseId).toBeUndefined();
      expect(done.body.TotalItens).toBe(done.body.pagination.totalItems);
      expect(done.body.Progresso.FontesConcluidas).toBe(done.body.Progresso.FontesTotal);
      expect(ModeAEnvelopeSchema.safeParse(done.body).success).toBe(true);
    }
  });

  it("Mode A defaults: page 1 of 10 price groups, one adult; cheapest first", async () => {
    const { app } = testApp();
    await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(250);
    const { body } = await consultar(app, QUERY);
    expect(body.pagination).toEqual({ currentPage: 1, pageSize: 10, totalPages: Math.ceil(body.TotalItens / 10), totalItems: body.TotalItens });
    const flights = body.Data[0].flights;
    expect(flights).toHaveLength(10);
    const prices = flights.map((f) => f.fareGroup.priceWithTax);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(flights[0]?.fareGroup.fares.find((f) => f.passengersType === "ADT")?.passengersCount).toBe(1);
  });

  it("Mode A round trip: outbound and return options in the same flight (segments and segmentsBack)", async () => {
    const { app } = testApp();
    const body = { ...QUERY, Volta: "2026-03-27", Companhia: -1 };
    await consultar(app, body);
    await vi.advanceTimersByTimeAsync(250);
    const done = await consultar(app, body);
    const flights = done.body.Data[0].flights;
    expect(flights.length).toBeGreaterThan(0);
    for (const f of flights) {
      expect(f.segments.every((s) => s.routeRPH === 0 && s.departure === "CNF")).toBe(true);
      expect(f.segmentsBack?.length ?? 0).toBeGreaterThan(0);
      expect(f.segmentsBack?.every((s) => s.routeRPH === 1 && s.arrival === "CNF")).toBe(true);
    }
    expect(done.body.Data[0].meta.ReturnFilter).not.toBeNull();
  });

  it("Mode B (Companhia 1300): OTA comparison with Outros, and Volta on a round trip", async () => {
    const { app } = testApp();
    const body = { ...QUERY, Volta: "2026-03-27", Companhia: 1300 };
    await consultar(app, body);
    await vi.advanceTimersByTimeAsync(250);
    const done = await consultar(app, body);
    expect(done.body.Completed).toBe(true);
    expect(ModeBEnvelopeSchema.safeParse(done.body).success).toBe(true);
    const result = done.body.Data[0];
    expect(result.Ida.length).toBeGreaterThan(0);
    expect(result.Volta.length).toBeGreaterThan(0);
    expect(result.Ida.some((o) => (o.Outros?.length ?? 0) > 0)).toBe(true);
    expect(result.Ida.every((o) => o.Origem === "CNF")).toBe(true);
    expect(result.Volta.every((o) => o.Destino === "CNF")).toBe(true);
  });

  it.each([
    [1, "LA"],
    [2, "G3"],
    [3, "AD"],
  ])("single airline (Companhia %i) answers in the Mode B shape with that airline only and no Outros", async (id, iata) => {
    const { app } = testApp();
    await consultar(app, { ...QUERY, Companhia: id });
    await vi.advanceTimersByTimeAsync(250);
    const done = await consultar(app, { ...QUERY, Companhia: id });
    expect(ModeBEnvelopeSchema.safeParse(done.body).success).toBe(true);
    const offers = done.body.Data[0].Ida;
    expect(offers.length).toBeGreaterThan(0);
    expect(done.body.Progresso.FontesTotal).toBe(1);
    expect(offers.every((o) => o.IdCia === id && o.Cia?.Iata === iata && o.Outros?.length === 0)).toBe(true);
  });

  it("a Companhia that is no mode nor airline is a 400 naming Companhia", async () => {
    const { app } = testApp();
    const { status, body } = await consultar(app, { ...QUERY, Companhia: 999 });
    expect(status).toBe(400);
    expect(body.Erro.Campos.map((c) => c.Campo)).toEqual(["Companhia"]);
  });

  it("reads keys case-insensitively and Crianças as Criancas", async () => {
    const { app } = testApp();
    const { status, body } = await consultar(app, { origem: "cnf", DESTINO: "GRU", ida: "2026-03-20", Crianças: 1, Companhia: 1300 });
    expect(status).toBe(200);
    expect(body.Data[0]).toMatchObject({ QntdAdulto: 1, QntdCrianca: 1, QntdBebe: 0 });
  });
});
