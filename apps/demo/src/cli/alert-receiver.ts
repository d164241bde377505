/**
 * A local webhook receiver for price alerts (`voar alerta receptor`, and the demo's page): checks each request's
 * Standard Webhooks signature with the tenant's secret (`verifyAlertWebhook` of the SDK), answers 204 (401 to a
 * bad signature), and hands each alert on once per `webhook-id` (a delivery tried again is not a new alert).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AlertEvent } from "@voar/core";
import { verifyAlertWebhook } from "@voar/http-adapter/fetch";

/** What the receiver heard: an alert (first time or again), or a request whose signature did not match. */
export type Received = { readonly kind: "alert"; readonly event: AlertEvent; readonly repeated: boolean } | { readonly kind: "refused"; readonly reason: string };

/** A receiver listening on loopback. */
export interface AlertReceiver {
  /** Its URL, to give a watch as `Webhook`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a receiver on `127.0.0.1:<port>` (0: a free one), path `/alertas`. */
export const startAlertReceiver = async (o: { readonly port: number; readonly secret: () => Promise<string>; readonly onReceived: (r: Received) => void; readonly host?: string }): Promise<AlertReceiver> => {
  const seen = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk.length + body.length > 262_144 ? "" : chunk));
    req.on("end", () => {
      void (async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
        try {
          const event = verifyAlertWebhook(body, headers, await o.secret());
          const repeated = seen.has(event.data.Id);
          seen.add(event.data.Id);
          o.onReceived({ kind: "alert", event, repeated });
          res.writeHead(204).end();
        } catch (e) {
          o.onReceived({ kind: "refused", reason: e instanceof Error ? e.message : String(e) });
          res.writeHead(401).end();
        }
      })();
    });
  });
  const host = o.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, host, resolve);
  });
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/alertas`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
