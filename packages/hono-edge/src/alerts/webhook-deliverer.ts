import type { AlertSettings } from "../config/alerts-schema.js";
import type { Clock } from "../clock.js";
import type { Logger } from "../logging/logger.js";
import type { DeliveryAttempt, DeliveryRecord } from "./alert-record.js";
import type { AlertMetrics } from "./alert-metrics.js";
import type { AlertStore } from "./alert-store.js";
import { refusedAddress, type AddressResolver } from "./webhook-address.js";
import { newWebhookSecret, signedHeaders } from "./webhook-signature.js";

/** Posts one delivery: the runtime's `fetch` by default (no redirect followed); the Node entry's checks each connection's address. */
export type WebhookPost = (url: string, init: { readonly headers: Record<string, string>; readonly body: string; readonly signal: AbortSignal }) => Promise<{ readonly status: number }>;

/** The runtime's `fetch`, answering the status only (the receiver's body is not read), never following a redirect. */
export const fetchPost: WebhookPost = async (url, init) => {
  const res = await fetch(url, { method: "POST", headers: init.headers, body: init.body, signal: init.signal, redirect: "manual" });
  await res.body?.cancel().catch(() => undefined);
  return { status: res.status };
};

/** What {@link createWebhookDeliverer} needs. */
export interface WebhookDelivererOptions {
  readonly store: AlertStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: AlertMetrics;
  /** This instance's id: the deliveries' lease owner. */
  readonly owner: string;
  readonly leaseMs: number;
  readonly settings: AlertSettings["webhooks"];
  readonly post: WebhookPost;
  readonly resolve?: AddressResolver | undefined;
  /** 0..1; default `Math.random`. */
  readonly random?: (() => number) | undefined;
}

/**
 * The wait before try `attempt + 1` after `attempt` failed ones: exponential from `firstRetryMs`, capped at
 * `maxRetryMs`, with equal jitter (half of it fixed, half random), so receivers that failed together are not
 * retried together.
 */
export const retryDelayMs = (attempt: number, s: Pick<AlertSettings["webhooks"], "firstRetryMs" | "maxRetryMs">, random: number): number => {
  const base = Math.min(s.maxRetryMs, s.firstRetryMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + (base / 2) * random);
};

/** Deliveries at once per instance. */
const PARALLEL = 8;

/** The sentence of a failed try (never the receiver's words). */
const failure = (e: unknown): string =>
  e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError") ? "O receptor não respondeu a tempo." : "Falha de rede ao entregar o aviso.";

/** The webhook deliveries of one instance: `tick()` takes the due ones (leased) and tries each. */
export interface WebhookDeliverer {
  tick(): Promise<void>;
  /** Resolves when the tries in flight end. */
  idle(): Promise<void>;
}

/**
 * Delivers alerts to their webhooks at least once: each try signed anew (Standard Webhooks, the tenant's secret),
 * a 2xx delivers it, a 410 gives it up (the receiver is gone), anything else (another status, no answer within
 * `timeoutMs`, a network failure, a redirect) is tried again after {@link retryDelayMs} until `retryForMs` after
 * the alert. A host that resolves to a non-public address is refused at each try, unless the operator allows it.
 */
export const createWebhookDeliverer = (o: WebhookDelivererOptions): WebhookDeliverer => {
  const running = new Set<Promise<void>>();
  const random = o.random ?? Math.random;

  const attempt = async (d: DeliveryRecord): Promise<void> => {
    const started = o.clock.now();
    const t0 = performance.now();
    const secret = await o.store.secret(d.tenant, newWebhookSecret());
    let result: DeliveryAttempt;
    let refused = false;
    const refusal = await refusedAddress(d.url, { allowPrivate: o.settings.allowPrivateAddresses, resolve: o.resolve });
    if (refusal) {
      refused = true;
      result = { at: started, error: refusal === "private" ? "Endereço do webhook recusado: não é público." : "O nome do webhook não resolve para nenhum endereço.", ms: 0 };
    } else {
      const body = JSON.stringify(d.event);
      try {
        const { status } = await o.post(d.url, { headers: signedHeaders(d.id, started, body, secret), body, signal: AbortSignal.timeout(o.settings.timeoutMs) });
        result = { at: started, status, ms: Math.round(performance.now() - t0), ...(status >= 200 && status < 300 ? {} : { error: status >= 300 && status < 400 ? "O receptor respondeu com um redirecionamento (não é seguido)." : "O receptor respondeu com um erro." }) };
      } catch (e) {
        result = { at: started, error: failure(e), ms: Math.round(performance.now() - t0) };
      }
    }
    const attempts = [...d.attempts, result];
    const now = o.clock.now();
    const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
    const wait = retryDelayMs(attempts.length, o.settings, random());
    const gaveUp = !ok && (result.status === 410 || now + wait > d.createdAt + o.settings.retryForMs);
    const next: DeliveryRecord = ok
      ? { ...d, attempts, state: "delivered", deliveredAt: now, nextAttemptAt: undefined }
      : gaveUp
        ? { ...d, attempts, state: "failed", nextAttemptAt: undefined }
        : { ...d, attempts, nextAttemptAt: now + wait };
    o.metrics.delivery(ok ? "delivered" : gaveUp ? "gave_up" : refused ? "refused" : "retry", result.ms / 1000);
    o.logger.log({
      level: ok ? "info" : "warn",
      msg: ok ? "alert.delivered" : gaveUp ? "alert.delivery_gave_up" : "alert.delivery_failed",
      deliveryId: d.id,
      alertId: d.alertId,
      tenant: d.tenant,
      attempt: attempts.length,
      ...(result.status === undefined ? {} : { status: result.status }),
      ...(ok || gaveUp ? {} : { retryInMs: wait }),
    });
    if (!(await o.store.finishDelivery(next, o.owner))) o.logger.log({ level: "info", msg: "alert.delivery_lease_lost", deliveryId: d.id });
  };

  return {
    async tick() {
      const free = PARALLEL - running.size;
      if (free <= 0) return;
      for (const d of await o.store.claimDeliveries(o.owner, Math.max(o.leaseMs, o.settings.timeoutMs * 2), free)) {
        const p = attempt(d)
          .catch((e: unknown) => o.logger.log({ level: "warn", msg: "alert.delivery_error", deliveryId: d.id, error: e instanceof Error ? e.message : String(e) }))
          .finally(() => running.delete(p));
        running.add(p);
      }
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
};
