/**
 * Price watches in one app, on virtual time, their days' prices set by hand: a watch fires once when the price
 * drops to its ceiling and again only at a new low; "any new low" takes the first price as its baseline; two
 * tenants' watches on one day share one check; miles and cash fire apart; what the API shows of it.
 */
import { addDays, todayInSaoPaulo } from "@voar/core";
import { describe, expect, it } from "vitest";
import { alertApp, alertas, priceLever } from "./support.js";
import { manualClock, OTHER_KEY } from "../support/app.js";

const DAY = addDays(todayInSaoPaulo(new Date()), 20);
const watch = { Origem: "CNF", Destino: "GRU", Ida: DAY };

/** One round of checks, every check of it finished. */
const round = async (alerts: ReturnType<ReturnType<typeof alertApp>["alerts"]>) => {
  await alerts.tick();
  await alerts.idle();
};

describe("price watches: when they fire", () => {
  it("fires once when the cash price drops to the ceiling, and not again until a new low", async () => {
    const lever = priceLever();
    const clock = manualClock(Date.now());
    const { app, alerts } = alertApp({ alerts: { prices: () => lever.prices }, deps: { clock }, configInput: { alerts: { schedule: { baseIntervalMs: 50, minIntervalMs: 50, maxIntervalMs: 50 } } } });
    const created = await alertas(app, "", { body: { ...watch, TetoValor: 450, Tipo: "dinheiro" } });
    expect(created.status).toBe(201);
    const id = created.body.Data[0].Id as string;
    const seen: number[] = [];
    for (const price of [500_00, 455_00, 449_90, 449_90, 470_00, 449_90, 430_00, 430_00]) {
      lever.cash.set(DAY, price);
      clock.advance(60);
      await round(alerts());
      seen.push((await alertas(app, `/${id}`)).body.Data[0].Avisos as number);
    }
    // 449,90 fires; the same price again (or back after a rise) does not; 430,00 is a new low.
    expect(seen).toEqual([0, 0, 1, 1, 1, 1, 2, 2]);
    const w = (await alertas(app, `/${id}`)).body.Data[0];
    expect(w).toMatchObject({ Verificacoes: 8, MenorValor: { Valor: 430, Dia: DAY }, UltimoAvisoValor: 430, TetoValor: 450, Tipo: "dinheiro" });
    const stream = await app.request(`/api/Alertas/Stream`, { headers: { Authorization: `Bearer test-api-key-0123456789`, "Last-Event-ID": "0" } });
    const reader = stream.body!.getReader();
    let text = "";
    while (!text.includes("id: 2")) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toContain('"AnteriorMinimo":449.9');
    expect(text).toContain('"Atual":430');
  });

  it("without a ceiling, takes the first price as its baseline and fires at each new low, points apart from cash", async () => {
    const lever = priceLever();
    const clock = manualClock(Date.now());
    const { app, alerts } = alertApp({ alerts: { prices: () => lever.prices }, deps: { clock }, configInput: { alerts: { schedule: { baseIntervalMs: 50, minIntervalMs: 50, maxIntervalMs: 50 } } } });
    const id = (await alertas(app, "", { body: watch })).body.Data[0].Id as string;
    const steps: [number, number][] = [[500_00, 30_000], [480_00, 30_000], [480_00, 25_000], [490_00, 26_000]];
    const fired: number[] = [];
    for (const [cash, points] of steps) {
      lever.cash.set(DAY, cash);
      lever.points.set(DAY, points);
      clock.advance(60);
      await round(alerts());
      fired.push((await alertas(app, `/${id}`)).body.Data[0].Avisos as number);
    }
    expect(fired).toEqual([0, 1, 2, 2]);
    expect((await alertas(app, `/${id}`)).body.Data[0]).toMatchObject({ MenorValor: { Valor: 480 }, MenorPontos: { Pontos: 25_000 }, UltimoAvisoPontos: 25_000 });
  });

  it("two tenants' watches on one route and day cost one check", async () => {
    const lever = priceLever();
    lever.cash.set(DAY, 400_00);
    const { app, alerts } = alertApp({ alerts: { prices: () => lever.prices } });
    await alertas(app, "", { body: { ...watch, TetoValor: 450 } });
    await alertas(app, "", { body: { ...watch, DiasFlexiveis: 1, TetoValor: 420 }, key: OTHER_KEY });
    await round(alerts());
    // Three days in all (19, 20, 21), the 20th shared: three checks, not four.
    expect(lever.checks.map((q) => q.departureDate).sort()).toEqual([addDays(DAY, -1), DAY, addDays(DAY, 1)]);
    const mine = (await alertas(app)).body.Data;
    const theirs = (await alertas(app, "", { key: OTHER_KEY })).body.Data;
    expect(mine).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(mine[0].Avisos).toBe(1);
    expect(theirs[0].Avisos).toBe(1);
    // Another tenant's watch is not found by id.
    expect((await alertas(app, `/${theirs[0].Id}`)).status).toBe(404);
  });
});
