import { HttpStatusError } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consultar, fastSources, NOW, OTHER_KEY, QUERY, testApp } from "./support/app.js";
import { countCalls, groupId, sameRelativeOrder } from "./support/wire.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** Every price group of a search so far, in order, read page by page (a search may hold more than 100). */
const everyGroup = async (app: Parameters<typeof consultar>[0], query: Record<string, unknown>) => {
  const first = await consultar(app, { ...query, QuantidadePorPagina: 100 });
  const ids: string[] = first.body.Data[0].flights.map(groupId);
  for (let p = 2; p <= Math.ceil(first.body.TotalItens / 100); p++) {
    ids.push(...(await consultar(app, { ...query, NumeroPagina: p, QuantidadePorPagina: 100 })).body.Data[0].flights.map(groupId));
  }
  return { body: first.body, ids };
};

describe("pagination", () => {
  const complete = async () => {
    const { app } = testApp();
    await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(250);
    return app;
  };

  it("a page past the end answers flights [] with the true totals", async () => {
    const app = await complete();
    const { status, body } = await consultar(app, { ...QUERY, NumeroPagina: 999, QuantidadePorPagina: 100 });
    expect(status).toBe(200);
    expect(body.Data[0].flights).toEqual([]);
    expect(body.TotalItens).toBeGreaterThan(0);
    expect(body.pagination).toMatchObject({ currentPage: 999, pageSize: 100, totalItems: body.TotalItens, totalPages: Math.ceil(body.TotalItens / 100) });
  });

  it("pages split the whole result without overlap, and the last page holds the rest", async () => {
    const app = await complete();
    const { ids: all } = await everyGroup(app, QUERY);
    const pages: string[] = [];
    for (let p = 1; p <= Math.ceil(all.length / 7); p++) pages.push(...(await consultar(app, { ...QUERY, NumeroPagina: p, QuantidadePorPagina: 7 })).body.Data[0].flights.map(groupId));
    expect(pages).toEqual(all);
  });

  it.each([
    ["NumeroPagina", 0],
    ["NumeroPagina", -1],
    ["QuantidadePorPagina", 0],
    ["QuantidadePorPagina", 101],
    ["NumeroPagina", 1.5],
  ])("%s = %s is a 400 naming it", async (field, value) => {
    const app = await complete();
    const { status, body } = await consultar(app, { ...QUERY, [field]: value });
    expect(status).toBe(400);
    expect(body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA", Campos: [{ Campo: field }] });
  });

  it("QuantidadePorPagina 100 is the maximum accepted", async () => {
    const app = await complete();
    const { status, body } = await consultar(app, { ...QUERY, QuantidadePorPagina: 100 });
    expect(status).toBe(200);
    expect(body.pagination.pageSize).toBe(100);
  });
});

describe("progressive search", () => {
  it("Completed goes false then true, results only grow and keep their relative order", async () => {
    const { app } = testApp({ sources: fastSources({ latencyMs: (id) => (id === "latam" ? 100 : id === "gol" ? 300 : 600), batches: 3 }) });
    const seen: string[][] = [];
    const completed: boolean[] = [];
    for (let i = 0; i < 16; i++) {
      const { body, ids } = await everyGroup(app, QUERY);
      expect(ids).toHaveLength(body.TotalItens);
      seen.push(ids);
      completed.push(body.Completed);
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(completed[0]).toBe(false);
    expect(completed.at(-1)).toBe(true);
    expect(completed.indexOf(true)).toBeGreaterThan(2);
    expect(completed.slice(completed.indexOf(true)).every(Boolean)).toBe(true);
    for (let i = 1; i < seen.length; i++) {
      const later = new Set(seen[i]);
      expect(seen[i - 1]!.every((id) => later.has(id))).toBe(true);
      expect(sameRelativeOrder(seen[i - 1]!, seen[i]!)).toBe(true);
    }
    expect(new Set(seen.map((s) => s.length)).size).toBeGreaterThan(2);
  });

  it("the same query shares one search and one engine run; paging does not start a new one", async () => {
    const counted = countCalls(fastSources());
    const { app } = testApp({ sources: counted.sources });
    const [a, b] = await Promise.all([consultar(app, QUERY), consultar(app, { ...QUERY, NumeroPagina: 2, QuantidadePorPagina: 5 })]);
    expect(a.body.Token).toBe(b.body.Token);
    await vi.advanceTimersByTimeAsync(250);
    const c = await consultar(app, { ...QUERY, NumeroPagina: 3 });
    expect(c.body.Token).toBe(a.body.Token);
    expect(counted.calls.get("latam")).toBe(1);
    expect(counted.total()).toBe(8);
  });

  it("another tenant, other passengers or another date is another search", async () => {
    const { app } = testApp();
    const a = await consultar(app, QUERY);
    const tokens = new Set([
      a.body.Token,
      (await consultar(app, QUERY, { Authorization: `Bearer ${OTHER_KEY}` })).body.Token,
      (await consultar(app, { ...QUERY, Adultos: 2 })).body.Token,
      (await consultar(app, { ...QUERY, Ida: "2026-03-21" })).body.Token,
    ]);
    expect(tokens.size).toBe(4);
  });

  it("a completed search is kept for the TTL (10 min), then the same query starts a new one", async () => {
    const counted = countCalls(fastSources());
    const { app } = testApp({ sources: counted.sources });
    const first = await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(250);
    await vi.advanceTimersByTimeAsync(9 * 60_000);
    const kept = await consultar(app, QUERY);
    expect(kept.body).toMatchObject({ Token: first.body.Token, Completed: true });
    await vi.advanceTimersByTimeAsync(61_000);
    const fresh = await consultar(app, QUERY);
    expect(fresh.body.Token).not.toBe(first.body.Token);
    expect(fresh.body.Completed).toBe(false);
    expect(counted.total()).toBe(16);
  });

  it("a search that no source serves is complete and empty at once", async () => {
    const { app } = testApp({ configInput: { search: { sources: ["latam"] } } });
    const { status, body } = await consultar(app, { ...QUERY, Companhia: 1300 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ Completed: true, HasResult: false, TotalItens: 0 });
  });

  it("a search in which some sources fail is a success with the failures in Progresso", async () => {
    const { app } = testApp({ sources: fastSources({ failures: { gol: { error: new HttpStatusError({ status: 400 }) } } }) });
    await consultar(app, QUERY);
    await vi.advanceTimersByTimeAsync(250);
    const { status, body } = await consultar(app, QUERY);
    expect(status).toBe(200);
    expect(body.Success).toBe(true);
    expect(body.Progresso.Fontes.find((f) => f.Nome === "GOL")).toMatchObject({ Estado: "falhou", Erro: expect.any(String) });
  });
});
