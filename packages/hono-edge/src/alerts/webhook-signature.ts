/**
 * Webhooks signed as Standard Webhooks signs them (the scheme of Svix, and Stripe's in all but its header
 * names): `webhook-id` (the alert's id: the idempotency key, the same on every try), `webhook-timestamp` (Unix
 * seconds of this try) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret
 * that signs: the current one and, for a while after a rotation, the previous one). Any Standard Webhooks library
 * verifies them (`new Webhook(secret).verify(body, headers)`). The `standardwebhooks` package signs: pure
 * JavaScript, so it runs on every runtime.
 */
import { Webhook } from "standardwebhooks";
import type { TenantSecret } from "./alert-record.js";

/** The headers of one try of a delivery. */
export const signedHeaders = (id: string, at: number, body: string, secret: TenantSecret): Record<string, string> => {
  const when = new Date(at);
  const signers = [secret.current, ...(secret.previous && (secret.previousUntil ?? 0) > at ? [secret.previous] : [])];
  return {
    "content-type": "application/json",
    "user-agent": "Voar-Alertas/1",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at / 1000)),
    "webhook-signature": signers.map((s) => new Webhook(s).sign(id, when, body)).join(" "),
  };
};

/** A new secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks writes them. */
export const newWebhookSecret = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `whsec_${btoa(binary)}`;
};
