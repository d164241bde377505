import { describe, expect, it } from "vitest";
import { calendarToEnvelope, CalendarEnvelopeSchema } from "../../src/calendar/calendar-envelope.js";
import { planCalendar } from "../../src/calendar/calendar-plan.js";
import { initialCalendar, reduceCalendar } from "../../src/calendar/calendar-snapshot.js";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot } from "../../src/engine/snapshot.js";
import { makeOffer, queryA } from "../support/offers.js";

describe("calendarToEnvelope", () => {
  it("writes one entry per day in date order, with the day's cheapest fares and its search's Token, in the strict schema", () => {
    const plan = planCalendar({ ...queryA, returnDate: "2026-12-27" }, 1);
    let c = initialCalendar(plan);
    const day = plan.days[1]!;
    const s = reduce(initialSnapshot(day, [{ id: "latam", name: "LATAM" }]), {
      type: "batch",
      sourceId: "latam",
      offers: [
        makeOffer({ id: "o", total: 30_000 }),
        makeOffer({ id: "r", total: 20_000, direction: "return", departure: "2026-12-27T10:00:00", flightNumber: 2 }),
      ],
    });
    c = reduceCalendar(c, { type: "started", index: 1 });
    c = reduceCalendar(c, { type: "snapshot", index: 1, snapshot: s, prices: { cash: { total: { amount: 50_000, currency: "BRL" }, airlineId: 1, carrier: { iata: "LA", name: "LATAM" } } } });
    c = reduceCalendar(c, { type: "failed", index: 0, message: "Não foi possível buscar este dia." });
    c = { ...c, days: c.days.map((d, i) => (i === 1 ? { ...d, searchId: "search-1" } : d)) };
    const body = calendarToEnvelope(c, { calendarId: "cal-1", requestId: "r1", nextPollMs: 500 });
    expect(CalendarEnvelopeSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ TotalItens: 3, Completed: false, Success: true, HasResult: true, Token: "cal-1", ExErro: { Extensions: { LeaseId: "cal-1" } } });
    expect(body.Progresso).toEqual({ Versao: 3, DiasTotal: 3, DiasConcluidos: 1, ProximaConsultaMs: 500 });
    expect(body.Data.map((d) => [d.Data, d.Volta, d.Estado, d.DiaPedido, d.MenorValor, d.CiaMenorValor?.Nome ?? null, d.TokenBusca, d.Erro ?? null])).toEqual([
      ["2026-12-19", "2026-12-26", "concluido", false, null, null, null, "Não foi possível buscar este dia."],
      ["2026-12-20", "2026-12-27", "buscando", true, 500, "LATAM", "search-1", null],
      ["2026-12-21", "2026-12-28", "aguardando", false, null, null, null, null],
    ]);
    expect(body.Data[1]!.Fontes).toEqual([{ Nome: "LATAM", Estado: "pendente", Itens: 2 }]);
    expect(body.Data[0]!.LeaseId).toBe("cal-1");
  });
});
