import { strict as assert } from "node:assert";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp, defineConfig, priceAlerts, silentLogger } from "@voar/hono-edge";
import { createClient } from "@voar/http-adapter";
import { createSimulator } from "@voar/testing/simulator";
import { firstValueFrom } from "rxjs";
import { startReceiver } from "./receiver.js";

const API_KEY = "example-api-key-0123456789";
const ida = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);

// A Voar service in process, on the simulator: price alerts on, its worker looking for due checks every 100 ms,
// and the receiver on this machine allowed (a real deployment refuses private and loopback webhooks).
const shutdown = new AbortController();
const config = defineConfig({
  apiKeys: [{ name: "example", key: API_KEY }],
  alerts: { schedule: { tickMs: 100 }, webhooks: { allowPrivateAddresses: true } },
});
const app = createApp({ config, sources: createSimulator({ latencyMs: 100 }).sources, logger: silentLogger, signal: shutdown.signal, priceAlerts: priceAlerts() });
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
});
const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, token: API_KEY });

const { Segredo } = await client.webhookSecret();
const receiver = await startReceiver(Segredo);
try {
  // The traveller's ask: GRU to SSA around a day, told at any fare of R$ 5.000 or less (the simulator's are well under).
  const alerts = firstValueFrom(client.alerts$());
  const watch = await client.watch({ Origem: "GRU", Destino: "SSA", Ida: ida, DiasFlexiveis: 1, Tipo: "dinheiro", TetoValor: 5_000, Webhook: receiver.url, Referencia: "viajante-42" });
  console.log(`watch ${watch.Id}: ${watch.Dias.join(", ")}, at or below R$ ${watch.TetoValor}`);

  // The first check of each day is due at once: the alert comes on the stream and to the webhook.
  const streamed = await alerts;
  for (let i = 0; i < 100 && receiver.alerts.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  const [delivered] = receiver.alerts;
  assert.ok(delivered, "the webhook got the alert");
  assert.equal(delivered.data.Id, streamed.event.data.Id, "the stream and the webhook carry the same alert");
  assert.equal(delivered.data.Referencia, "viajante-42");
  assert.ok(delivered.data.Valor!.Atual <= 5_000);
  console.log(`alert: ${delivered.data.Origem} → ${delivered.data.Destino} on ${delivered.data.Dia} at R$ ${delivered.data.Valor!.Atual}, search ${delivered.data.TokenBusca}`);

  // What the service kept of it: the delivery, delivered at the first try (written once the receiver answered).
  let [delivery] = await client.watches.deliveries(watch.Id);
  for (let i = 0; i < 100 && delivery?.Estado !== "entregue"; i++) {
    await new Promise((r) => setTimeout(r, 50));
    [delivery] = await client.watches.deliveries(watch.Id);
  }
  assert.equal(delivery?.Estado, "entregue");
  assert.equal(delivery.Tentativas.length, 1);

  // A forged request (a body the service did not sign) is refused by the receiver.
  const forged = await fetch(receiver.url, { method: "POST", headers: { "webhook-id": "msg_x", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" }, body: "{}" });
  assert.equal(forged.status, 401);
  assert.equal(receiver.refused, 1);
  await client.watches.cancel(watch.Id);
  assert.equal((await client.watches.list()).length, 0);
  console.log("  ✓ alert delivered signed, verified, kept once; a forged request refused; the watch cancelled");
} finally {
  await receiver.close();
  shutdown.abort();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
