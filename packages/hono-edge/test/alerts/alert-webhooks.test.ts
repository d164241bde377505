/**
 * Webhooks of price watches in one app, on a clock moved by hand: a receiver that fails gets the alert later,
 * every try signed anew with the same webhook-id; the retries back off (exponential, jittered) and stop after the
 * retry window or at a 410; a rotated secret still signs beside the new one for its grace; non-public addresses
 * are refused unless the operator allows them.
 */
import { addDays, todayInSaoPaulo } from "@voar/core";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { isPublicAddress, refusedAddress } from "../../src/alerts/webhook-address.js";
import { retryDelayMs } from "../../src/alerts/webhook-deliverer.js";
import { manualClock } from "../support/app.js";
import { alertApp, alertas, fakeReceiver, priceLever } from "./support.js";

const DAY = addDays(todayInSaoPaulo(new Date()), 20);
const HOOK = "https://hooks.agencia.example/voar";
const publicResolver = () => Promise.resolve(["93.184.216.34"]);

const setup = (statuses: readonly number[], retry: { retryForMs?: number } = {}) => {
  const lever = priceLever();
  lever.cash.set(DAY, 400_00);
  const receiver = fakeReceiver(statuses);
  const clock = manualClock(Date.now());
  const { app, alerts } = alertApp({
    alerts: { prices: () => lever.prices, post: receiver.post, resolve: publicResolver, random: undefined } as never,
    deps: { clock },
    configInput: { alerts: { webhooks: { firstRetryMs: 1_000, maxRetryMs: 8_000, retryForMs: retry.retryForMs ?? 60_000 } } },
  });
  // A round of the worker: the checks (an alert fires), then the deliveries (it goes out).
  const round = async () => {
    for (let i = 0; i < 2; i++) {
      await alerts().tick();
      await alerts().idle();
    }
  };
  return { app, alerts, clock, receiver, round, lever };
};

describe("price watches: webhooks", () => {
  it("a receiver failing for a while gets the alert later, each try signed anew under one webhook-id", async () => {
    const { app, clock, receiver, round } = setup([503, 500, 0 /* no status: counted as a failure */, 200]);
    const secret = (await alertas(app, "/Segredo")).body.Data[0].Segredo as string;
    const id = (await alertas(app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, TetoValor: 450, Webhook: HOOK } })).body.Data[0].Id as string;
    await round(); // the check fires; the first try fails
    for (let i = 0; i < 12 && receiver.received.length < 4; i++) {
      clock.advance(8_000);
      vi.setSystemTime(clock.now()); // the receiver's verification reads the wall clock
      await round();
    }
    const deliveries = (await alertas(app, `/${id}/Entregas`)).body.Data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ Estado: "entregue", ProximaTentativa: null });
    expect(deliveries[0].Tentativas.map((t: { Status: number | null }) => t.Status)).toEqual([503, 500, 0, 200]);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([deliveries[0].Id]));
    const last = receiver.received.at(-1)!;
    const event = new Webhook(secret).verify(last.body, last.headers) as { data: { AlertaId: string; Valor: { Atual: number } } };
    expect(event.data).toMatchObject({ AlertaId: id, Valor: { Atual: 400 } });
    // Tampered, or signed by another secret: detected.
    expect(() => new Webhook(secret).verify(last.body.replace('"Atual":400', '"Atual":4'), last.headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(`whsec_${btoa("not the tenant's secret at all")}`).verify(last.body, last.headers)).toThrow(WebhookVerificationError);
    vi.useRealTimers();
  });

  it("backs off exponentially with jitter, and gives up after the retry window, or at once on a 410", async () => {
    const s = { firstRetryMs: 30_000, maxRetryMs: 3_600_000 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, s, 0))).toEqual([15_000, 30_000, 60_000, 120_000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, s, 1))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(20, s, 1)).toBe(3_600_000);

    const gone = setup([410]);
    const id = (await alertas(gone.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, TetoValor: 450, Webhook: HOOK } })).body.Data[0].Id as string;
    await gone.round();
    expect((await alertas(gone.app, `/${id}/Entregas`)).body.Data[0]).toMatchObject({ Estado: "falhou", Tentativas: [{ Status: 410 }] });

    const down = setup(Array.from({ length: 100 }, () => 503), { retryForMs: 20_000 });
    const id2 = (await alertas(down.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, TetoValor: 450, Webhook: HOOK } })).body.Data[0].Id as string;
    await down.round();
    for (let i = 0; i < 10; i++) {
      down.clock.advance(8_000);
      await down.round();
    }
    const failed = (await alertas(down.app, `/${id2}/Entregas`)).body.Data[0];
    expect(failed.Estado).toBe("falhou");
    expect(failed.Tentativas.length).toBeGreaterThanOrEqual(3);
    expect(down.receiver.received.length).toBe(failed.Tentativas.length);
  });

  it("signs with the previous secret too for its grace after a rotation", async () => {
    const { app, clock, receiver, round, lever } = setup([]);
    const old = (await alertas(app, "/Segredo")).body.Data[0].Segredo as string;
    const rotated = (await alertas(app, "/Segredo", { method: "POST", body: {} })).body.Data[0];
    expect(rotated.Anterior).toBe(old);
    expect(rotated.Segredo).not.toBe(old);
    await alertas(app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, TetoValor: 450, Webhook: HOOK } });
    await round();
    const first = receiver.received[0]!;
    vi.setSystemTime(clock.now());
    expect(new Webhook(old).verify(first.body, first.headers)).toBeTruthy();
    expect(new Webhook(rotated.Segredo).verify(first.body, first.headers)).toBeTruthy();
    // A day past the grace: the new secret alone.
    clock.advance(86_400_001);
    lever.cash.set(DAY, 390_00);
    await round();
    const second = receiver.received[1]!;
    expect(second.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    vi.useRealTimers();
  });

  it("refuses webhooks to non-public addresses unless the operator allows them", async () => {
    for (const a of ["127.0.0.1", "10.0.0.8", "172.16.4.1", "192.168.0.10", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "224.0.0.1"]) expect(isPublicAddress(a), a).toBe(false);
    for (const a of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.216.34"]) expect(isPublicAddress(a), a).toBe(true);
    const resolve = (host: string) => Promise.resolve(host === "interno.example" ? ["93.184.216.34", "10.0.0.8"] : ["93.184.216.34"]);
    expect(await refusedAddress("http://interno.example/x", { allowPrivate: false, resolve })).toBe("private");
    expect(await refusedAddress("http://externo.example/x", { allowPrivate: false, resolve })).toBeUndefined();
    expect(await refusedAddress("http://sem-nome.example/x", { allowPrivate: false, resolve: () => Promise.reject(new Error("ENOTFOUND")) })).toBe("unresolvable");
    expect(await refusedAddress("http://127.0.0.1/x", { allowPrivate: true })).toBeUndefined();

    const { app } = alertApp({ alerts: { resolve } });
    const refused = await alertas(app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, Webhook: "http://interno.example/hook" } });
    expect(refused.status).toBe(400);
    expect(refused.body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA", Campos: [{ Campo: "Webhook" }] });
    expect(refused.body.MensagemErro).toContain("endereço privado");
    const allowed = alertApp({ alerts: { resolve }, configInput: { alerts: { webhooks: { allowPrivateAddresses: true } } } });
    expect((await alertas(allowed.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: DAY, Webhook: "http://interno.example/hook" } })).status).toBe(201);
  });
});
