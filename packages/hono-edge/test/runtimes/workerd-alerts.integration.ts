import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { daysAhead } from "../contract/contract-target.js";
import { startWorkerd, type WorkerdServer } from "./support/workerd-miniflare.js";

// Price watches on Cloudflare Workers: the Worker of wrangler.toml in miniflare 3 (workerd), the watches kept by
// the deployment's alerts object (a search object) and checked from its alarm, with a webhook receiver on
// 127.0.0.1 (allowed by VOAR_ALERTS_WEBHOOK_ALLOW_PRIVATE, as an operator would for a receiver of its own).

const ACME = "acme-api-key-0123456789";
const SLOT_MS = 1_500;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A webhook receiver on 127.0.0.1 that takes every delivery (200), keeping each. */
const startReceiver = async () => {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/voar` };
};

const start = async (): Promise<WorkerdServer> => {
  const server = await startWorkerd({
    VOAR_API_KEYS: `acme:${ACME}`,
    VOAR_RATE_LIMIT_CAPACITY: "100000",
    VOAR_RATE_LIMIT_REFILL_PER_SECOND: "100000",
    VOAR_SIMULATOR_LATENCY_MS: "50",
    VOAR_ALERTS_BASE_INTERVAL_MS: String(SLOT_MS),
    VOAR_ALERTS_MIN_INTERVAL_MS: String(SLOT_MS),
    VOAR_ALERTS_MAX_INTERVAL_MS: String(SLOT_MS),
    VOAR_ALERTS_TICK_MS: "200",
    VOAR_ALERTS_WEBHOOK_ALLOW_PRIVATE: "true",
  });
  cleanup.push(() => server.mf.dispose());
  return server;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read the members they expect
const call = async (server: WorkerdServer, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const res = await fetch(`${server.baseUrl}/api/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${ACME}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
};

describe("price watches on workerd (a Durable Object with alarms)", () => {
  it("the alarm checks a new watch; a price under its ceiling delivers one signed webhook; later slots check again and deliver nothing new", async () => {
    const [server, receiver] = await Promise.all([start(), startReceiver()]);
    const secret = (await call(server, "Alertas/Segredo")).body.Data[0].Segredo as string;
    const day = daysAhead(20);
    const created = await call(server, "Alertas", { Origem: "CNF", Destino: "GRU", Ida: day, TetoValor: 100_000, Tipo: "dinheiro", Webhook: receiver.url });
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    const id = created.body.Data[0].Id as string;

    // No request comes after the creation: only the object's alarm can check the watch and deliver its alert.
    for (let i = 0; i < 100 && receiver.received.length === 0; i++) await sleep(100);
    expect(receiver.received).toHaveLength(1);
    const [hit] = receiver.received;
    const headers = Object.fromEntries(Object.entries(hit!.headers).map(([k, v]) => [k, String(v)]));
    const event = new Webhook(secret).verify(hit!.body, headers) as { data: { AlertaId: string; Dia: string; TokenBusca: string | null } };
    expect(event.data).toMatchObject({ AlertaId: id, Dia: day });
    expect(() => new Webhook(secret).verify(hit!.body.replace(id, "0".repeat(id.length)), headers)).toThrow(WebhookVerificationError);
    // The alert's search is the alerts object's own: its TokenBusca opens it through the Worker.
    const opened = await call(server, "ConsultaAereo/Consultar", { Token: event.data.TokenBusca });
    expect(opened.status).toBe(200);

    // Three more slots at the same prices: the day checked again each time, no second delivery.
    let checks = 0;
    for (let i = 0; i < 100 && checks < 4; i++) {
      await sleep(100);
      checks = (await call(server, `Alertas/${id}`)).body.Data[0].Verificacoes as number;
    }
    expect(checks).toBeGreaterThanOrEqual(4);
    await sleep(500); // a delivery a later check might have queued has time to arrive
    expect((await call(server, `Alertas/${id}`)).body.Data[0]).toMatchObject({ Avisos: 1 });
    expect(receiver.received).toHaveLength(1);
    expect((await call(server, `Alertas/${id}/Entregas`)).body.Data).toMatchObject([{ Estado: "entregue", Tentativas: [{ Status: 200 }] }]);
    expect((await call(server, "Alertas")).body.Data.map((w: { Id: string }) => w.Id)).toEqual([id]);

    // The tenant's stream, through the Worker, replays the alert; the Worker's OpenAPI document describes the routes.
    const stream = await fetch(`${server.baseUrl}/api/Alertas/Stream`, { headers: { Authorization: `Bearer ${ACME}`, "Last-Event-ID": "0" } });
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const reader = stream.body!.getReader();
    let text = "";
    for (let i = 0; i < 50 && !text.includes(event.data.TokenBusca ?? id); i++) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toContain("event: alerta");
    expect(text).toContain(`"AlertaId":"${id}"`);
    const doc = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/Alertas", "/api/Alertas/{id}", "/api/Alertas/{id}/Entregas", "/api/Alertas/Stream"]));
  });
});
