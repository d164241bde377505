import { HttpStatusError, type SearchSource } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ADMIN_KEY, fastSources, NOW, testApp } from "../support/app.js";
import { calendario, completedCalendar } from "./support.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const ASKED = { Origem: "CNF", Destino: "GRU", Ida: "2026-03-20", DiasFlexiveis: 1 } as const;

/** The simulator's sources, every one of them failing for one departure date. */
const failingOn = (date: string): readonly SearchSource[] =>
  fastSources().map((s) => ({
    ...s,
    search: (query, signal) =>
      query.departureDate === date
        ? (async function* () {
            yield* [];
            throw new HttpStatusError({ status: 503 });
          })()
        : s.search(query, signal),
  }));

describe("a calendar with a failed day", () => {
  it("is a success: the failed day is completed without a price, its sources saying why; the other days are priced", async () => {
    const { app } = testApp({ sources: failingOn("2026-03-19"), configInput: { search: { maxAttempts: 1 } } });
    const done = await completedCalendar(app, (await calendario(app, ASKED)).body.Token);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ Success: true, Completed: true, HasResult: true });
    const [failed, asked, after] = done.body.Data;
    expect(failed).toMatchObject({ Data: "2026-03-19", Completed: true, MenorValor: null, MenorPontos: null });
    expect(failed!.Fontes.length).toBeGreaterThan(0);
    expect(failed!.Fontes.every((f) => f.Estado === "falhou" && f.Codigo === "FALHA_FORNECEDOR" && f.Erro === "O fornecedor respondeu com um erro.")).toBe(true);
    expect(asked!.MenorValor).toBeGreaterThan(0);
    expect(after!.MenorValor).toBeGreaterThan(0);
  });
});

describe("the Pagante switch", () => {
  it("off for every airline: the calendar shows no cash price, only points, as the search shows only award fares", async () => {
    const { app } = testApp();
    for (const IdCia of [1, 2, 3, 11, 13, 22, 26, 34, 1200]) {
      const res = await app.request("/api/admin/pagante", { method: "PUT", headers: { "Content-Type": "application/json", "X-Admin-Key": ADMIN_KEY }, body: JSON.stringify({ IdCia, Pagante: false }) });
      expect(res.status).toBe(200);
    }
    const done = await completedCalendar(app, (await calendario(app, ASKED)).body.Token);
    expect(done.body.Data.map((d) => d.MenorValor)).toEqual([null, null, null]);
    expect(done.body.Data.every((d) => d.MenorPontos !== null && d.TaxasMenorPontos !== null && d.CiaMenorPontos !== null)).toBe(true);
  });

  it("off for one airline: its cash fares are never a day's cheapest", async () => {
    const { app } = testApp();
    const on = await completedCalendar(app, (await calendario(app, ASKED)).body.Token);
    const cheapestBy = new Set(on.body.Data.map((d) => d.CiaMenorValor?.Id));
    const [airline] = [...cheapestBy];
    await app.request("/api/admin/pagante", { method: "PUT", headers: { "Content-Type": "application/json", "X-Admin-Key": ADMIN_KEY }, body: JSON.stringify({ IdCia: airline, Pagante: false }) });
    const off = await completedCalendar(app, (await calendario(app, ASKED)).body.Token);
    expect(off.body.Token).not.toBe(on.body.Token); // the switch makes it another calendar, as it makes another search
    expect(off.body.Data.every((d) => d.MenorValor !== null && d.CiaMenorValor?.Id !== airline)).toBe(true);
  });
});
