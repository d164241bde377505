import { parseAlertRequest, type AirportDirectory } from "@voar/core";
import type { AlertSettings } from "../config/alerts-schema.js";
import type { Clock } from "../clock.js";
import { AlertQuotaReached, UnknownAlert } from "../errors/alert-errors.js";
import { InvalidRequest } from "../errors/service-errors.js";
import type { Logger } from "../logging/logger.js";
import { dayQueryOf, endOfDaySaoPaulo, unitKeyOf, type AlertRecord, type DeliveryRecord, type EventRecord, type TenantSecret } from "./alert-record.js";
import type { AlertStore } from "./alert-store.js";
import { refusedAddress, type AddressResolver } from "./webhook-address.js";
import { newWebhookSecret } from "./webhook-signature.js";

/** What {@link AlertService} needs. */
export interface AlertServiceOptions {
  readonly store: AlertStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly airports: AirportDirectory;
  readonly settings: AlertSettings;
  readonly newId: () => string;
  readonly resolve?: AddressResolver | undefined;
}

/** One step of a tenant's alert stream: an alert, or a keep-alive after a quiet while. */
export type AlertUpdate = { readonly kind: "event"; readonly record: EventRecord } | { readonly kind: "keep-alive" };

/**
 * The tenant's quotas: `alerts.quota`, with its own line of `alerts.tenants` over it, named by the tenant's id
 * (`apikey:<name>`, `agency:<username>`) or by the name or username alone.
 */
export const quotaOf = (settings: AlertSettings, tenant: string): { readonly watches: number; readonly checksPerHour: number } => {
  const own = settings.tenants[tenant] ?? settings.tenants[tenant.slice(tenant.indexOf(":") + 1)];
  return { watches: own?.watches ?? settings.quota.watches, checksPerHour: own?.checksPerHour ?? settings.quota.checksPerHour };
};

/** What the `/Alertas` routes do, per tenant: a watch's life, its deliveries, the tenant's secret and stream. */
export class AlertService {
  constructor(private readonly o: AlertServiceOptions) {}

  /** Validates and stores a new watch; its days are due for a check at once. Throws the service's tagged errors. */
  async create(tenant: string, body: unknown): Promise<AlertRecord> {
    const now = this.o.clock.now();
    const parsed = parseAlertRequest(body, { airports: this.o.airports, now: new Date(now) });
    if (parsed.kind === "invalid") throw new InvalidRequest(parsed.campos);
    const { spec } = parsed;
    if (spec.webhook) {
      const refusal = await refusedAddress(spec.webhook, { allowPrivate: this.o.settings.webhooks.allowPrivateAddresses, resolve: this.o.resolve });
      if (refusal) {
        this.o.logger.log({ level: "info", msg: "alert.webhook_refused", tenant, reason: refusal });
        throw new InvalidRequest([
          {
            Campo: "Webhook",
            Mensagem:
              refusal === "private"
                ? "Webhook aponta para um endereço privado, de loopback ou reservado: use um endereço público (ou peça ao operador que permita a sua rede)."
                : "O nome do host do Webhook não resolve para nenhum endereço.",
          },
        ]);
      }
    }
    const record: AlertRecord = { id: `alr_${this.o.newId()}`, tenant, createdAt: now, expiresAt: endOfDaySaoPaulo(spec.expiresOn), spec, rev: 0, checks: 0, fired: 0 };
    const units = spec.days.map((day) => {
      const query = dayQueryOf(spec, day);
      return { key: unitKeyOf(query), query };
    });
    const limit = quotaOf(this.o.settings, tenant).watches;
    if (!(await this.o.store.create(record, units, limit))) throw new AlertQuotaReached(limit);
    this.o.logger.log({ level: "info", msg: "alert.created", alertId: record.id, tenant, days: spec.days.length, webhook: spec.webhook !== undefined });
    return record;
  }

  list(tenant: string): Promise<readonly AlertRecord[]> {
    return this.o.store.list(tenant);
  }

  /** The tenant's watch; throws {@link UnknownAlert}. */
  async get(tenant: string, id: string): Promise<AlertRecord> {
    const w = await this.o.store.get(id);
    if (!w || w.tenant !== tenant) throw new UnknownAlert(id);
    return w;
  }

  /** Removes the tenant's watch and answers it as it was; throws {@link UnknownAlert}. */
  async remove(tenant: string, id: string): Promise<AlertRecord> {
    const w = await this.get(tenant, id);
    if (!(await this.o.store.remove(tenant, id))) throw new UnknownAlert(id);
    this.o.logger.log({ level: "info", msg: "alert.removed", alertId: id, tenant });
    return w;
  }

  async deliveries(tenant: string, id: string): Promise<readonly DeliveryRecord[]> {
    await this.get(tenant, id);
    return this.o.store.deliveries(id);
  }

  secret(tenant: string): Promise<TenantSecret> {
    return this.o.store.secret(tenant, newWebhookSecret());
  }

  async rotate(tenant: string): Promise<TenantSecret> {
    const s = await this.o.store.rotateSecret(tenant, newWebhookSecret(), this.o.settings.webhooks.secretGraceMs);
    this.o.logger.log({ level: "info", msg: "alert.secret_rotated", tenant });
    return s;
  }

  /** The tenant's alerts after `afterSeq` as they come, on any instance; a keep-alive after `keepAliveMs` of quiet. */
  async *updates(tenant: string, afterSeq: number, keepAliveMs: number, signal: AbortSignal): AsyncGenerator<AlertUpdate> {
    let wake: (() => void) | undefined;
    let pending = true;
    const unwatch = await this.o.store.onEvent(tenant, () => {
      pending = true;
      wake?.();
    });
    const stop = () => wake?.();
    signal.addEventListener("abort", stop, { once: true });
    let last = afterSeq;
    try {
      while (!signal.aborted) {
        if (pending) {
          pending = false;
          for (const record of await this.o.store.events(tenant, last)) {
            last = record.seq;
            yield { kind: "event", record };
          }
          continue;
        }
        const timer = new Promise<boolean>((resolve) => {
          const t = setTimeout(() => resolve(false), keepAliveMs);
          wake = () => (clearTimeout(t), resolve(true));
        });
        const woken = await timer;
        wake = undefined;
        // A quiet while: a keep-alive, and a look at the store (an announcement lost on the way is not a lost alert).
        if (!woken && !signal.aborted) {
          pending = true;
          yield { kind: "keep-alive" };
        }
      }
    } finally {
      signal.removeEventListener("abort", stop);
      unwatch();
    }
  }
}
