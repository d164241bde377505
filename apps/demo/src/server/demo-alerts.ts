/**
 * The demo's webhook receiver for price alerts, on the demo's own origin: `POST /demo/alertas/webhook` checks each
 * delivery's signature with the demo tenant's secret (asked of the service, `GET /Alertas/Segredo`) and keeps the
 * last ones; `GET /demo/alertas/entregas` lists them for the page's "me avise" panel, newest first. The service is
 * configured to allow this loopback receiver (`alerts.webhooks.allowPrivateAddresses`): the demo runs on the
 * person's own machine.
 */
import type { AlertEvent } from "@voar/core";
import { verifyAlertWebhook } from "@voar/http-adapter/fetch";
import type { Hono } from "hono";

/** What the page shows of one received alert. */
export interface ReceivedAlert {
  readonly receivedAt: string;
  /** Whether the signature matched (a forged or altered body is shown refused). */
  readonly verified: boolean;
  /** The same alert again (a delivery tried again): at-least-once. */
  readonly repeated: boolean;
  readonly event?: AlertEvent | undefined;
  readonly error?: string | undefined;
}

/** Path of the receiver, and of the list the page polls. */
export const ALERT_WEBHOOK_PATH = "/demo/alertas/webhook";
export const ALERT_DELIVERIES_PATH = "/demo/alertas/entregas";

const KEPT = 50;

/** Adds the receiver's routes to the demo app; `secret` reads the demo tenant's webhook secret. */
export const mountAlertReceiver = (app: Hono, secret: () => Promise<string>): void => {
  const received: ReceivedAlert[] = [];
  const seen = new Set<string>();
  app.post(ALERT_WEBHOOK_PATH, async (c) => {
    const body = await c.req.text();
    const headers = Object.fromEntries(c.req.raw.headers.entries());
    const at = new Date().toISOString();
    try {
      const event = verifyAlertWebhook(body, headers, await secret());
      received.unshift({ receivedAt: at, verified: true, repeated: seen.has(event.data.Id), event });
      seen.add(event.data.Id);
      received.splice(KEPT);
      return c.body(null, 204);
    } catch (e) {
      received.unshift({ receivedAt: at, verified: false, repeated: false, error: e instanceof Error ? e.message : String(e) });
      received.splice(KEPT);
      return c.body(null, 401);
    }
  });
  app.get(ALERT_DELIVERIES_PATH, (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(received);
  });
};
