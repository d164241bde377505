import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AlertEvent } from "@voar/core";
import { verifyAlertWebhook, WebhookVerificationError } from "@voar/http-adapter";

/** A webhook receiver of price alerts: what it got, and where it listens. */
export interface Receiver {
  readonly url: string;
  /** Each alert once, however many times it was delivered (its `webhook-id` is the idempotency key). */
  readonly alerts: AlertEvent[];
  /** Requests refused: their signature did not match the secret. */
  readonly refused: number;
  close(): Promise<void>;
}

/**
 * Receives Voar's price alerts: checks each request's signature (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`, HMAC-SHA256 with the tenant's `whsec_` secret) on the body exactly as it
 * came, answers 401 to a bad one, keeps each alert once by its id, and answers 204 fast (work goes elsewhere).
 */
export const startReceiver = async (secret: string): Promise<Receiver> => {
  const alerts: AlertEvent[] = [];
  const seen = new Set<string>();
  let refused = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
      try {
        const event = verifyAlertWebhook(body, headers, secret);
        if (!seen.has(event.data.Id)) {
          seen.add(event.data.Id);
          alerts.push(event);
        }
        res.writeHead(204).end();
      } catch (e) {
        if (!(e instanceof WebhookVerificationError)) throw e;
        refused++;
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/voar/alertas`,
    alerts,
    get refused() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
