/**
 * Verifies an alert's webhook as the service signs it (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, HMAC-SHA256 over `id.timestamp.body`), with the `standardwebhooks` package, and reads its
 * body against core's schema. Runs on every runtime (pure JavaScript).
 */
import { AlertEventSchema, MalformedPayload, type AlertEvent } from "@voar/core";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

export { WebhookVerificationError };

/**
 * The alert a webhook request carries, once its signature is checked with the tenant's secret (`whsec_...`, from
 * `GET /Alertas/Segredo`). Throws `WebhookVerificationError` when the signature does not match (a forged or
 * altered body, another secret) or the timestamp is more than 5 minutes off; `MalformedPayload` when a signed body
 * is not an alert. Pass the body exactly as received (the raw text, not a re-serialized object).
 *
 * @example
 * const event = verifyAlertWebhook(await request.text(), Object.fromEntries(request.headers), process.env.VOAR_WEBHOOK_SECRET!);
 * // event.data.Id is the idempotency key: an alert may arrive more than once.
 */
export const verifyAlertWebhook = (body: string, headers: Readonly<Record<string, string>>, secret: string): AlertEvent => {
  const json: unknown = new Webhook(secret).verify(body, headers);
  const parsed = AlertEventSchema.safeParse(json);
  if (!parsed.success) throw new MalformedPayload({ detail: "o corpo assinado não é um aviso de alerta" });
  return parsed.data;
};
