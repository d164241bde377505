import type { DayUnit, DeliveryRecord } from "../alerts/alert-record.js";
import type { DurableStorage } from "./workers-types.js";

/**
 * How the alerts object's storage lays the price watches out (see `durable-alert-store.ts`), one entry per thing, each
 * far under a value's size limit: `al/w:<id>` a watch · `al/t:<tenant>/<id>` a tenant's watch · `al/u:<key>` a day check
 * and its lease · `al/d:<id>` a delivery and its lease · `al/a:<watch>` the watch's delivery ids, newest first ·
 * `al/e:<tenant>/<seq>` an alert of the tenant's stream · `al/n:<tenant>` its last sequence number · `al/s:<tenant>` its
 * webhook secret · `al/stats` the average cost of a check. Tenants are URI-encoded in keys (no `/` in them); `al/` keeps
 * them apart from the searches' entries.
 */

export interface Lease {
  readonly owner: string;
  readonly expiresAt: number;
}
export interface UnitEntry {
  readonly unit: DayUnit;
  readonly due: number;
  readonly lease?: Lease | undefined;
}
export interface DeliveryEntry {
  readonly record: DeliveryRecord;
  readonly lease?: Lease | undefined;
}
export interface Stats {
  readonly avg: number;
  readonly seen: number;
}

export const enc = (tenant: string) => encodeURIComponent(tenant);
export const W = "al/w:";
export const U = "al/u:";
export const D = "al/d:";
export const tenantKey = (tenant: string, id: string) => `al/t:${enc(tenant)}/${id}`;
export const eventPrefix = (tenant: string) => `al/e:${enc(tenant)}/`;
/** Sequence numbers padded, so that a tenant's alerts list in order. */
export const eventKey = (tenant: string, seq: number) => `${eventPrefix(tenant)}${String(seq).padStart(12, "0")}`;
export const STATS = "al/stats";
/** Entries per batch write or delete (the runtime's limit). */
export const BATCH = 128;

/** A storage's steps as the store takes them: batched writes and deletes, and one entry by its key. */
export const storageSteps = (storage: DurableStorage) => ({
  async put(entries: Record<string, unknown>) {
    const list = Object.entries(entries);
    for (let i = 0; i < list.length; i += BATCH) await storage.put(Object.fromEntries(list.slice(i, i + BATCH)));
  },
  async del(keys: readonly string[]) {
    for (let i = 0; i < keys.length; i += BATCH) await storage.delete(keys.slice(i, i + BATCH));
  },
  one: async <T>(key: string): Promise<T | undefined> => (await storage.list<T>({ prefix: key })).get(key),
});

/** Runs each of an object's async methods after the ones before it (one at a time), but those named in `apart`. */
export const oneAtATime = <T extends object>(steps: T, apart: readonly string[]): T => {
  let queue: Promise<unknown> = Promise.resolve();
  const serial =
    (step: (...args: unknown[]) => Promise<unknown>) =>
    (...args: unknown[]): Promise<unknown> => {
      const p = queue.then(() => step(...args));
      queue = p.catch(() => undefined);
      return p;
    };
  return Object.fromEntries(Object.entries(steps).map(([name, step]) => [name, apart.includes(name) ? step : serial(step as (...args: unknown[]) => Promise<unknown>)])) as T;
};
