import { CalendarEnvelopeSchema, type WireCalendarDay } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import { silentLogger } from "../../src/logging/logger.js";
import { API_KEY, consultar, fastSources, NOW, OTHER_KEY, post, testApp, testConfig } from "../support/app.js";
import { calendario, completedCalendar } from "./support.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** GRU -> SSA around 2026-03-20, 18 days after "now". */
const ASKED = { Origem: "GRU", Destino: "SSA", Ida: "2026-03-20", DiasFlexiveis: 3 } as const;

const dates = (days: readonly WireCalendarDay[]) => days.map((d) => d.Data);

describe("POST /ConsultaAereo/Calendario", () => {
  it("answers at once with every day in date order, then fills them in until Completed; each day's TokenBusca opens that day's search", async () => {
    const { app } = testApp({ sources: fastSources({ latencyMs: 500 }) });
    const first = await calendario(app, ASKED);
    expect(first.status).toBe(200);
    expect(CalendarEnvelopeSchema.parse(first.body)).toEqual(first.body);
    expect(first.body).toMatchObject({ Success: true, Completed: false, TotalItens: 7, Erro: null });
    expect(dates(first.body.Data)).toEqual(["2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20", "2026-03-21", "2026-03-22", "2026-03-23"]);
    expect(first.body.Data.map((d) => d.DiaPedido)).toEqual([false, false, false, true, false, false, false]);
    // Every day starts at once: the calendar waits for its slowest day once.
    await vi.advanceTimersByTimeAsync(50);
    const started = await calendario(app, { Token: first.body.Token });
    expect(started.body.Data.map((d) => d.Estado)).toEqual(Array(7).fill("buscando"));
    expect(started.body.Data.every((d) => d.TokenBusca !== null)).toBe(true);

    const done = await completedCalendar(app, first.body.Token);
    expect(CalendarEnvelopeSchema.parse(done.body)).toEqual(done.body);
    expect(done.body).toMatchObject({ Completed: true, Token: first.body.Token, ExErro: null, HasResult: true });
    expect(done.body.Progresso).toMatchObject({ DiasTotal: 7, DiasConcluidos: 7, ProximaConsultaMs: 0 });
    for (const day of done.body.Data) {
      expect(day).toMatchObject({ Completed: true, Estado: "concluido" });
      expect(day.MenorValor).toBeGreaterThan(0);
      expect(day.TokenBusca).toEqual(expect.any(String));
      // The day's own search, by its Token: the cheapest cash group of its whole result is the day's MenorValor.
      const search = await consultar(app, { Token: day.TokenBusca, QuantidadePorPagina: 100 });
      expect(search.body).toMatchObject({ Completed: true, Success: true });
      const cash = search.body.Data[0].flights.filter((f) => f.segments[0]!.PontosAdulto < 0).map((f) => f.fareGroup.priceWithTax);
      expect(day.MenorValor).toBe(Math.min(...cash));
    }
    expect(new Set(done.body.Data.map((d) => d.TokenBusca)).size).toBe(7);
  });

  it("with calendar.concurrency, at most that many days at once: the day asked and its nearest neighbours first, the others in turn", async () => {
    const { app } = testApp({ sources: fastSources({ latencyMs: 500 }), configInput: { calendar: { concurrency: 3 } } });
    const first = await calendario(app, ASKED);
    await vi.advanceTimersByTimeAsync(50);
    const started = await calendario(app, { Token: first.body.Token });
    expect(started.body.Data.map((d) => d.Estado)).toEqual(["aguardando", "aguardando", "buscando", "buscando", "buscando", "aguardando", "aguardando"]);
    expect((await completedCalendar(app, first.body.Token)).body.Data.every((d) => d.MenorValor !== null)).toBe(true);
  });

  it("the same body again joins the same calendar; a poll by LeaseId too; another tenant's Token is unknown", async () => {
    const { app } = testApp();
    const token = (await calendario(app, ASKED)).body.Token;
    expect((await calendario(app, { ...ASKED })).body.Token).toBe(token);
    expect((await calendario(app, { LeaseId: token })).body.Token).toBe(token);
    const other = await calendario(app, { Token: token }, { Authorization: `Bearer ${OTHER_KEY}` });
    expect(other.status).toBe(404);
    expect(other.body.Erro).toMatchObject({ Codigo: "BUSCA_EXPIRADA", Campos: [{ Campo: "Token" }] });
    expect(other.body.Erro?.Campos?.[0]?.Mensagem).toMatch(/calendário/);
  });

  it("names the field of a bad request: DiasFlexiveis missing or out of range, the OTA comparison, a bad date", async () => {
    const { app } = testApp();
    const missing = await calendario(app, { Origem: "GRU", Destino: "SSA", Ida: "2026-03-20" });
    expect(missing.status).toBe(400);
    expect(missing.body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA", Campos: [{ Campo: "DiasFlexiveis" }] });
    expect((await calendario(app, { ...ASKED, DiasFlexiveis: 8 })).body.Erro?.Campos?.map((c) => c.Campo)).toEqual(["DiasFlexiveis"]);
    expect((await calendario(app, { ...ASKED, Companhia: 1300 })).body.Erro?.Campos?.map((c) => c.Campo)).toEqual(["Companhia"]);
    expect((await calendario(app, { ...ASKED, Ida: "2026-02-30" })).body.Erro?.Campos?.map((c) => c.Campo)).toEqual(["Ida"]);
    expect((await calendario(app, { ...ASKED }, { Authorization: "Bearer nope-nope-nope-nope" })).status).toBe(401);
  });

  it("leaves out the days before today", async () => {
    const { app } = testApp();
    const body = (await calendario(app, { ...ASKED, Ida: "2026-03-03", DiasFlexiveis: 2 })).body;
    expect(dates(body.Data)).toEqual(["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"]);
  });

  it("a round trip keeps the stay asked on every day", async () => {
    const { app } = testApp();
    const body = (await calendario(app, { ...ASKED, Volta: "2026-03-27", DiasFlexiveis: 1 })).body;
    expect(body.Data.map((d) => [d.Data, d.Volta])).toEqual([
      ["2026-03-19", "2026-03-26"],
      ["2026-03-20", "2026-03-27"],
      ["2026-03-21", "2026-03-28"],
    ]);
    const done = await completedCalendar(app, body.Token);
    expect(done.body.Data.every((d) => d.MenorValor !== null && d.MenorPontos !== null)).toBe(true);
  });

  it("DiasFlexiveisVolta: a grid of every departure by every return around the ones asked, each cell a round trip's search", async () => {
    const { app } = testApp();
    const body = (await calendario(app, { ...ASKED, Volta: "2026-03-23", DiasFlexiveis: 1, DiasFlexiveisVolta: 1 })).body;
    expect(body.TotalItens).toBe(9);
    expect(body.Data.map((d) => `${d.Data.slice(8)}>${d.Volta!.slice(8)}`)).toEqual(["19>22", "19>23", "19>24", "20>22", "20>23", "20>24", "21>22", "21>23", "21>24"]);
    expect(body.Data.filter((d) => d.DiaPedido).map((d) => [d.Data, d.Volta])).toEqual([["2026-03-20", "2026-03-23"]]);
    const done = await completedCalendar(app, body.Token);
    expect(done.body.Data.every((d) => d.Completed && d.MenorValor !== null)).toBe(true);
    // Each cell is the ordinary round trip of its dates: its Token is that search's.
    const cell = done.body.Data[5]!;
    const search = await consultar(app, { Origem: "GRU", Destino: "SSA", Ida: cell.Data, Volta: cell.Volta, QuantidadePorPagina: 100 });
    expect(search.body.Token).toBe(cell.TokenBusca);
    expect((await calendario(app, { ...ASKED, DiasFlexiveis: 1, DiasFlexiveisVolta: 1 })).body.Erro?.Campos?.map((c) => c.Campo)).toEqual(["DiasFlexiveisVolta"]);
  });

  it("a conditional poll of an unchanged calendar is 304 without a body", async () => {
    const { app } = testApp();
    const token = (await calendario(app, ASKED)).body.Token;
    const done = await completedCalendar(app, token);
    const etag = done.res.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    const again = await post(app, "/api/ConsultaAereo/Calendario", { Token: token }, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("is a feature of the app: an app without it (the Worker's) answers 404 and lists no calendar in its OpenAPI document", async () => {
    const app = createApp({ config: testConfig(), sources: fastSources(), logger: silentLogger });
    const res = await calendario(app, ASKED);
    expect(res.status).toBe(404);
    expect(res.body.Erro?.Codigo).toBe("REQUISICAO_INVALIDA");
    const doc = (await (await app.request("/api/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.includes("Calendario"))).toEqual([]);
  });

  it("counts against the tenant's rate limit like a Consultar", async () => {
    const { app } = testApp({ configInput: { limits: { rateLimit: { capacity: 2, refillPerSecond: 0.001 } } } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await calendario(app, ASKED)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await consultar(app, { Origem: "GRU", Destino: "SSA", Ida: "2026-03-20" }, { Authorization: `Bearer ${API_KEY}` })).status).toBe(429);
  });
});
