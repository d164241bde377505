/**
 * The demo's receiver of price alerts: a delivery signed with the demo tenant's secret is taken (204) and listed for
 * the page, once per alert id however often it comes; one signed otherwise is refused (401) and listed as refused.
 */
import { Hono } from "hono";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { ALERT_DELIVERIES_PATH, ALERT_WEBHOOK_PATH, mountAlertReceiver, type ReceivedAlert } from "../../src/server/demo-alerts.js";

const SECRET = `whsec_${btoa("the demo tenant's webhook secret!")}`;
const event = {
  type: "alerta.preco_baixou",
  timestamp: new Date().toISOString(),
  data: {
    Id: "msg_1", AlertaId: "alr_1", Referencia: "demonstração", Origem: "GRU", Destino: "SSA", Dia: "2030-01-10", Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1, Cabine: null,
    Motivo: ["dinheiro"], Valor: { Atual: 412.3, AnteriorMinimo: null, Teto: 450, Companhia: { Id: 1, Iata: "LA", Nome: "LATAM" } }, Pontos: null, TokenBusca: null, VerificadoEm: new Date().toISOString(),
  },
};

const signed = (secret: string, body: string) => {
  const at = new Date();
  return { "content-type": "application/json", "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign("msg_1", at, body) };
};

describe("the demo's receiver of price alerts", () => {
  it("takes signed alerts once per id, refuses the others, and lists them newest first", async () => {
    const app = new Hono();
    mountAlertReceiver(app, () => Promise.resolve(SECRET));
    const body = JSON.stringify(event);
    expect((await app.request(ALERT_WEBHOOK_PATH, { method: "POST", headers: signed(SECRET, body), body })).status).toBe(204);
    expect((await app.request(ALERT_WEBHOOK_PATH, { method: "POST", headers: signed(SECRET, body), body })).status).toBe(204);
    expect((await app.request(ALERT_WEBHOOK_PATH, { method: "POST", headers: signed(`whsec_${btoa("somebody else's secret, forged!")}`, body), body })).status).toBe(401);
    const list = (await (await app.request(ALERT_DELIVERIES_PATH)).json()) as ReceivedAlert[];
    expect(list.map((r) => [r.verified, r.repeated])).toEqual([[false, false], [true, true], [true, false]]);
    expect(list[2]!.event!.data.Valor!.Atual).toBe(412.3);
  });
});
