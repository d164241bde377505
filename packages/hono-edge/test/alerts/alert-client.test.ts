/**
 * The typed client's price watches against the service in process: `client.watch`, the list, a watch's
 * deliveries, the secret, the tenant's alerts as an Observable, and `verifyAlertWebhook` on what a receiver gets.
 */
import { addDays, todayInSaoPaulo } from "@voar/core";
import { createClient, verifyAlertWebhook, WebhookVerificationError } from "@voar/http-adapter/fetch";
import { firstValueFrom, take, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { API_KEY } from "../support/app.js";
import { alertApp, fakeReceiver, priceLever } from "./support.js";

const DAY = addDays(todayInSaoPaulo(new Date()), 25);

describe("the client's price watches", () => {
  it("creates, lists and cancels watches; follows the tenant's alerts; verifies a delivered webhook", async () => {
    const lever = priceLever();
    lever.cash.set(DAY, 380_00);
    const receiver = fakeReceiver();
    const { app, alerts } = alertApp({ alerts: { prices: () => lever.prices, post: receiver.post, resolve: () => Promise.resolve(["93.184.216.34"]) } });
    const client = createClient({ baseUrl: "http://voar.test/api", token: API_KEY, fetch: (input, init) => Promise.resolve(app.request(String(input), init)) });
    const watch = await client.watch({ Origem: "CNF", Destino: "GRU", Ida: DAY, TetoValor: 400, Webhook: "https://agencia.example/voar", Referencia: "cliente-9" });
    expect(watch).toMatchObject({ Origem: "CNF", Destino: "GRU", TetoValor: 400, Referencia: "cliente-9" });
    expect((await client.watches.list()).map((w) => w.Id)).toEqual([watch.Id]);
    const { Segredo } = await client.webhookSecret();

    const next = firstValueFrom(client.alerts$().pipe(take(1), toArray()));
    for (let i = 0; i < 2; i++) {
      await alerts().tick();
      await alerts().idle();
    }
    const [alert] = await next;
    expect(alert!.event.data).toMatchObject({ AlertaId: watch.Id, Referencia: "cliente-9", Dia: DAY, Valor: { Atual: 380, Teto: 400, AnteriorMinimo: null } });
    const [delivery] = await client.watches.deliveries(watch.Id);
    expect(delivery).toMatchObject({ Estado: "entregue", Id: alert!.event.data.Id });

    const got = receiver.received[0]!;
    expect(verifyAlertWebhook(got.body, got.headers, Segredo).data.Id).toBe(alert!.event.data.Id);
    expect(() => verifyAlertWebhook(got.body.replace("cliente-9", "cliente-0"), got.headers, Segredo)).toThrow(WebhookVerificationError);
    const rotated = await client.rotateWebhookSecret();
    expect(rotated.Anterior).toBe(Segredo);

    expect((await client.watches.cancel(watch.Id)).Id).toBe(watch.Id);
    await expect(client.watches.get(watch.Id)).rejects.toMatchObject({ _tag: "BusinessError" });
    await expect(client.watch({ Origem: "CNF", Destino: "CNF", Ida: DAY })).rejects.toMatchObject({ _tag: "BusinessError" });
  });
});
