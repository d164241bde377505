import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as z from "zod";
import type { PaganteListSchema } from "../src/routes/admin-route.js";
import { ADMIN_KEY, answerOf, API_KEY, consultar, NOW, QUERY, testApp, type Answer } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

type App = ReturnType<typeof testApp>["app"];

const setPagante = (app: App, body: unknown, headers: Record<string, string> = { "X-Admin-Key": ADMIN_KEY }) =>
  app.request("/api/admin/pagante", { method: "PUT", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });

/** Every Mode A segment and Mode B offer of a completed search, with its airline and points. */
const completedSearch = async (app: App, companhia: number) => {
  const body = { ...QUERY, Companhia: companhia, QuantidadePorPagina: 100 };
  await consultar(app, body);
  await vi.advanceTimersByTimeAsync(250);
  return (await consultar(app, body)).body;
};

type PaganteList = z.infer<typeof PaganteListSchema>;
const listOf = async (res: Response) => (await res.json()) as PaganteList;

const modeASegments = (body: Answer) =>
  body.Data[0].flights.flatMap((f) => f.segments.map((s) => ({ iata: f.validatingBy.iata, points: s.PontosAdulto })));

describe("the Pagante switch (operator endpoint)", () => {
  it("GET lists every airline's switch, on by default", async () => {
    const { app } = testApp();
    const res = await app.request("/api/admin/pagante", { headers: { "X-Admin-Key": ADMIN_KEY } });
    expect(res.status).toBe(200);
    const body = await listOf(res);
    expect(body.Pagante).toHaveLength(9); // the airlines, Livelo (34) and Interline (1200)
    expect(body.Pagante[0]).toEqual({ IdCia: 1, Nome: "LATAM", Iata: "LA", Pagante: true });
  });

  it("turning LATAM off hides its cash flights (PontosAdulto -1) from the next search, in every mode", async () => {
    const { app } = testApp();
    const before = modeASegments(await completedSearch(app, -1));
    expect(before.some((s) => s.iata === "LA" && s.points === -1)).toBe(true);

    const res = await setPagante(app, { IdCia: 1, Pagante: false }, { Authorization: `Bearer ${ADMIN_KEY}` });
    expect(res.status).toBe(200);
    expect((await listOf(res)).Pagante[0]).toMatchObject({ IdCia: 1, Pagante: false });

    const after = modeASegments(await completedSearch(app, -1));
    expect(after.some((s) => s.iata === "LA" && s.points > 0)).toBe(true);
    expect(after.filter((s) => s.iata === "LA").every((s) => s.points >= 0)).toBe(true);
    expect(after.some((s) => s.iata === "G3" && s.points === -1)).toBe(true);

    const single = (await completedSearch(app, 1)).Data[0].Ida;
    expect(single.length).toBeGreaterThan(0);
    expect(single.every((o) => o.PontosAdulto >= 0)).toBe(true);
    const otas = (await completedSearch(app, 1300)).Data[0].Ida;
    expect(otas.filter((o) => o.IdCia === 1).every((o) => o.PontosAdulto >= 0)).toBe(true);

    expect((await setPagante(app, { IdCia: 1, Pagante: true })).status).toBe(200);
    const again = modeASegments(await completedSearch(app, -1));
    expect(again.some((s) => s.iata === "LA" && s.points === -1)).toBe(true);
  });

  it("the configuration sets the switch at start", async () => {
    const { app } = testApp({ configInput: { pagante: { "2": false } } });
    const segments = modeASegments(await completedSearch(app, -1));
    expect(segments.filter((s) => s.iata === "G3").every((s) => s.points >= 0)).toBe(true);
  });

  it.each([
    ["no key", {}],
    ["a wrong admin key", { "X-Admin-Key": "wrong-admin-key-0123456789" }],
    ["an API key instead of an admin key", { Authorization: `Bearer ${API_KEY}` }],
  ])("%s: 401 and nothing changes", async (_, headers) => {
    const { app } = testApp();
    const res = await setPagante(app, { IdCia: 1, Pagante: false }, headers);
    expect(res.status).toBe(401);
    expect((await answerOf(res)).Erro.Codigo).toBe("NAO_AUTORIZADO");
    expect((await app.request("/api/admin/pagante", { headers })).status).toBe(401);
    const list = await listOf(await app.request("/api/admin/pagante", { headers: { "X-Admin-Key": ADMIN_KEY } }));
    expect(list.Pagante[0]?.Pagante).toBe(true);
  });

  it("an unknown airline or a non-boolean is a 400 naming the field", async () => {
    const { app } = testApp();
    const res = await setPagante(app, { IdCia: 1300, Pagante: "no" });
    expect(res.status).toBe(400);
    expect((await answerOf(res)).Erro.Campos.map((c) => c.Campo).sort()).toEqual(["IdCia", "Pagante"]);
  });

  it("each change is one audit line: who (the admin key's name, never the key), when, the airline, before and after", async () => {
    const named = "named-admin-key-0123456789";
    const { app, logs } = testApp({ configInput: { adminKeys: [ADMIN_KEY, { name: "ops-ana", key: named }] } });
    expect((await setPagante(app, { IdCia: 2, Pagante: false }, { "X-Admin-Key": named })).status).toBe(200);
    expect((await setPagante(app, { IdCia: 2, Pagante: false })).status).toBe(200);
    expect((await setPagante(app, { IdCia: 2, Pagante: true }, { Authorization: `Bearer ${named}` })).status).toBe(200);
    const audit = logs.records.filter((r) => r.msg === "admin.pagante");
    expect(audit).toEqual([
      expect.objectContaining({ who: "ops-ana", at: new Date(NOW).toISOString(), airlineId: 2, before: true, after: false }),
      // A key given alone is named by a digest of it.
      expect.objectContaining({ who: expect.stringMatching(/^key-[0-9a-f]{8}$/), airlineId: 2, before: false, after: false }),
      expect.objectContaining({ who: "ops-ana", airlineId: 2, before: false, after: true }),
    ]);
    expect(logs.text()).not.toContain(named);
    expect(logs.text()).not.toContain(ADMIN_KEY);
  });

  it("with no admin key configured the endpoint refuses everyone", async () => {
    const { app } = testApp({ configInput: { adminKeys: [] } });
    expect((await setPagante(app, { IdCia: 1, Pagante: false })).status).toBe(401);
  });
});
