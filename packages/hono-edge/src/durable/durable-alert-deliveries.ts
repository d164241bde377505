import type { DeliveryRecord, TenantSecret } from "../alerts/alert-record.js";
import type { AlertStore } from "../alerts/alert-store.js";
import { D, enc, storageSteps, type DeliveryEntry, type Lease } from "./durable-alert-keys.js";
import type { DurableStorage } from "./workers-types.js";

/**
 * The deliveries and webhook secrets of the alerts object's store (`durable-alert-store.ts`, which runs them one
 * at a time with its other steps): a delivery leased to one owner at a time, a tenant's secret made at first use.
 */
export const deliverySteps = (storage: DurableStorage, now: () => number): Pick<AlertStore, "claimDeliveries" | "finishDelivery" | "deliveries" | "secret" | "rotateSecret"> => {
  const { put, one } = storageSteps(storage);
  const free = (lease: Lease | undefined) => !lease || lease.expiresAt <= now();
  return {
    async claimDeliveries(owner, leaseMs, max) {
      const t = now();
      const due = [...(await storage.list<DeliveryEntry>({ prefix: D }))]
        .filter(([, d]) => d.record.state === "pending" && (d.record.nextAttemptAt ?? 0) <= t && free(d.lease))
        .sort(([, a], [, b]) => (a.record.nextAttemptAt ?? 0) - (b.record.nextAttemptAt ?? 0))
        .slice(0, max);
      await put(Object.fromEntries(due.map(([k, d]) => [k, { ...d, lease: { owner, expiresAt: t + leaseMs } }])));
      return due.map(([, d]) => d.record);
    },
    async finishDelivery(record, owner) {
      const d = await one<DeliveryEntry>(`${D}${record.id}`);
      if (!d || d.lease?.owner !== owner) return false;
      await put({ [`${D}${record.id}`]: { record } satisfies DeliveryEntry });
      return true;
    },
    async deliveries(alertId) {
      const records: DeliveryRecord[] = [];
      for (const id of (await one<string[]>(`al/a:${alertId}`)) ?? []) {
        const d = await one<DeliveryEntry>(`${D}${id}`);
        if (d) records.push(d.record);
      }
      return records;
    },

    async secret(tenant, fresh) {
      const known = await one<TenantSecret>(`al/s:${enc(tenant)}`);
      if (known) return known;
      const created: TenantSecret = { current: fresh };
      await put({ [`al/s:${enc(tenant)}`]: created });
      return created;
    },
    async rotateSecret(tenant, fresh, graceMs) {
      const before = await one<TenantSecret>(`al/s:${enc(tenant)}`);
      const next: TenantSecret = before ? { current: fresh, previous: before.current, previousUntil: now() + graceMs } : { current: fresh };
      await put({ [`al/s:${enc(tenant)}`]: next });
      return next;
    },
  };
};
