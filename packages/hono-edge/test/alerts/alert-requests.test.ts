/**
 * The `/Alertas` routes as a client meets them: what a new watch covers (a day, ±N days, a month), every invalid
 * field named in pt-BR in the API's error envelope, the tenant's quota of watches, reading and deleting, and the
 * OpenAPI document describing the routes.
 */
import { addDays, AlertEnvelopeSchema, todayInSaoPaulo } from "@voar/core";
import { describe, expect, it } from "vitest";
import { alertApp, alertas } from "./support.js";
import { OTHER_KEY } from "../support/app.js";

const today = todayInSaoPaulo(new Date());
const DAY = addDays(today, 20);

describe("price watches: the routes", () => {
  it("creates a watch of a day, of ±N days, of a month; answers it in the envelope; lists, reads and deletes it per tenant", async () => {
    const { app } = alertApp();
    const day = await alertas(app, "", { body: { origem: "cnf", destino: "gru", ida: DAY, tetoValor: 399.9, referencia: "pedido-7" } });
    expect(day.status).toBe(201);
    AlertEnvelopeSchema.parse(day.body);
    expect(day.body.Data[0]).toMatchObject({ Estado: "ativo", Origem: "CNF", Destino: "GRU", Dias: [DAY], Janela: { Tipo: "dia" }, Tipo: "ambos", TetoValor: 399.9, TetoPontos: null, ExpiraEm: DAY, Referencia: "pedido-7", Verificacoes: 0 });
    const window = await alertas(app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, DiasFlexiveis: 3, Tipo: "milhas", TetoPontos: 20_000, Cabine: "Executiva", Adultos: 2 } });
    expect(window.body.Data[0]).toMatchObject({ Dias: [-3, -2, -1, 0, 1, 2, 3].map((n) => addDays(DAY, n)), Cabine: "executiva", Tipo: "milhas", TetoPontos: 20_000, Adultos: 2 });
    const month = DAY.slice(0, 7);
    const monthly = await alertas(app, "", { body: { Origem: "CNF", Destino: "GRU", Mes: month } });
    expect(monthly.status).toBe(201);
    expect(monthly.body.Data[0].Dias.every((d: string) => d.startsWith(month) && d >= today)).toBe(true);
    expect((await alertas(app)).body.Data.map((w: { Id: string }) => w.Id)).toEqual([day, window, monthly].map((r) => r.body.Data[0].Id));
    expect((await alertas(app, "", { key: OTHER_KEY })).body.Data).toEqual([]);
    const id = day.body.Data[0].Id as string;
    expect((await alertas(app, `/${id}`, { method: "DELETE", key: OTHER_KEY })).status).toBe(404);
    expect((await alertas(app, `/${id}`, { method: "DELETE" })).status).toBe(200);
    const gone = await alertas(app, `/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA", Campos: [{ Campo: "id" }] });
  });

  it("names every invalid field in pt-BR", async () => {
    const { app } = alertApp();
    const bad = await alertas(app, "", {
      body: { Origem: "CNF", Destino: "GRU", Ida: DAY, Volta: addDays(DAY, 5), DiasFlexiveis: 9, Cabine: "luxo", Tipo: "cheque", TetoValor: -3, TetoPontos: 1.5, ExpiraEm: "amanhã", Webhook: "ftp://x", Companhia: 1300 },
    });
    expect(bad.status).toBe(400);
    const fields = (bad.body.Erro.Campos as { Campo: string; Mensagem: string }[]).map((c) => c.Campo).sort();
    expect(fields).toEqual(["Cabine", "Companhia", "DiasFlexiveis", "ExpiraEm", "TetoPontos", "TetoValor", "Tipo", "Volta", "Webhook"]);
    expect(bad.body.MensagemErro).toContain("Cabine deve ser uma de");
    const both = await alertas(app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, Mes: DAY.slice(0, 7) } });
    expect(both.body.Erro.Campos[0]).toMatchObject({ Campo: "Mes" });
    const mismatch = await alertas(app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, Tipo: "milhas", TetoValor: 300 } });
    expect(mismatch.body.Erro.Campos[0]).toMatchObject({ Campo: "TetoValor", Mensagem: "TetoValor não combina com Tipo milhas." });
    expect((await alertas(app, "", { body: { Destino: "GRU", Ida: DAY } })).body.Erro.Campos[0].Campo).toBe("Origem");
    const notJson = await app.request("/api/Alertas", { method: "POST", headers: { Authorization: "Bearer test-api-key-0123456789", "Content-Type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
    expect((await app.request("/api/Alertas")).status).toBe(401);
  });

  it("holds a tenant to its quota of watches (429, not retryable), another tenant's own quota apart", async () => {
    const { app } = alertApp({ configInput: { alerts: { quota: { watches: 2 }, tenants: { other: { watches: 3 } } } } });
    const body = { Origem: "CNF", Destino: "GRU", Ida: DAY };
    expect((await alertas(app, "", { body })).status).toBe(201);
    expect((await alertas(app, "", { body })).status).toBe(201);
    const over = await alertas(app, "", { body });
    expect(over.status).toBe(429);
    expect(over.body.Erro).toMatchObject({ Codigo: "LIMITE_EXCEDIDO", Retentavel: false });
    expect(over.body.MensagemErro).toContain("2 alertas");
    for (let i = 0; i < 3; i++) {
      const r = await alertas(app, "", { body, key: OTHER_KEY });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    expect((await alertas(app, "", { body, key: OTHER_KEY })).status).toBe(429);
    // Deleting one makes room.
    const first = (await alertas(app)).body.Data[0].Id as string;
    await alertas(app, `/${first}`, { method: "DELETE" });
    expect((await alertas(app, "", { body })).status).toBe(201);
  });

  it("describes the routes in the OpenAPI document", async () => {
    const { app } = alertApp();
    const doc = (await (await app.request("/api/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/Alertas", "/api/Alertas/{id}", "/api/Alertas/{id}/Entregas", "/api/Alertas/Stream", "/api/Alertas/Segredo"]));
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["AlertaRequest", "Alerta", "RespostaAlertas", "Entrega", "AlertaEvento", "SegredoWebhook"]));
    expect(Object.keys(doc.paths["/api/Alertas"]!)).toEqual(["post", "get"]);
    // A known path asked with another method: 405 with Allow.
    const put = await app.request("/api/Alertas", { method: "PUT", headers: { Authorization: "Bearer test-api-key-0123456789" } });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
  });
});
