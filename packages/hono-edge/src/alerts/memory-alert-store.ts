import type { Clock } from "../clock.js";
import type { AlertRecord, ClaimedUnit, DayUnit, DeliveryRecord, EventRecord, TenantSecret } from "./alert-record.js";
import type { AlertStore } from "./alert-store.js";
import { DELIVERIES_KEPT, DELIVERY_TTL_MS, EVENTS_KEPT, nextAverage } from "./store-limits.js";

/** Options of {@link createMemoryAlertStore}. */
export interface MemoryAlertStoreOptions {
  readonly clock: Clock;
}

interface UnitEntry {
  unit: DayUnit;
  due: number;
  lease?: { readonly owner: string; readonly expiresAt: number } | undefined;
}

interface DeliveryEntry {
  record: DeliveryRecord;
  lease?: { readonly owner: string; readonly expiresAt: number } | undefined;
}

/**
 * The alerts' store in this instance's memory (one instance; lost at restart): the same steps as the Redis
 * store's scripts, each one synchronous, so each is atomic. Two apps given the same store behave as two
 * instances sharing one.
 *
 * @example
 * const alerts = createMemoryAlertStore({ clock: systemClock });
 */
export const createMemoryAlertStore = (o: MemoryAlertStoreOptions): AlertStore => {
  const watches = new Map<string, AlertRecord>();
  const byTenant = new Map<string, Set<string>>();
  const units = new Map<string, UnitEntry>();
  const deliveries = new Map<string, DeliveryEntry>();
  const byAlert = new Map<string, string[]>();
  const events = new Map<string, { seq: number; list: EventRecord[] }>();
  const listeners = new Map<string, Set<(seq: number) => void>>();
  const secrets = new Map<string, TenantSecret>();
  let requestsPerCheck = 0;
  let checksSeen = 0;
  const now = () => o.clock.now();
  const free = (lease: { readonly expiresAt: number } | undefined) => !lease || lease.expiresAt <= now();

  const unsubscribe = (record: AlertRecord) => {
    for (const [key, entry] of units) {
      if (!(record.id in entry.unit.watchers)) continue;
      const { [record.id]: _gone, ...rest } = entry.unit.watchers;
      if (Object.keys(rest).length === 0) units.delete(key);
      else entry.unit = { ...entry.unit, watchers: rest };
    }
  };

  const removeWatch = (record: AlertRecord) => {
    watches.delete(record.id);
    byTenant.get(record.tenant)?.delete(record.id);
    unsubscribe(record);
  };

  return {
    create(record, dayUnits, maxWatches) {
      const mine = byTenant.get(record.tenant) ?? new Set<string>();
      if (mine.size >= maxWatches) return Promise.resolve(false);
      mine.add(record.id);
      byTenant.set(record.tenant, mine);
      watches.set(record.id, record);
      for (const u of dayUnits) {
        const entry = units.get(u.key);
        if (entry) entry.unit = { ...entry.unit, watchers: { ...entry.unit.watchers, [record.id]: record.tenant } };
        else units.set(u.key, { unit: { key: u.key, query: u.query, watchers: { [record.id]: record.tenant }, slot: 0, stable: 0 }, due: now() });
      }
      return Promise.resolve(true);
    },
    get: (id) => Promise.resolve(watches.get(id)),
    list: (tenant) => Promise.resolve([...(byTenant.get(tenant) ?? [])].flatMap((id) => watches.get(id) ?? [])),
    remove(tenant, id) {
      const record = watches.get(id);
      if (!record || record.tenant !== tenant) return Promise.resolve(false);
      removeWatch(record);
      return Promise.resolve(true);
    },
    update(record, rev, fired) {
      const stored = watches.get(record.id);
      if (!stored || stored.rev !== rev) return Promise.resolve(false);
      watches.set(record.id, { ...record, rev: rev + 1 });
      for (const f of fired) {
        const log = events.get(record.tenant) ?? { seq: 0, list: [] };
        log.seq++;
        log.list.push({ seq: log.seq, alertId: record.id, event: f.event });
        if (log.list.length > EVENTS_KEPT) log.list.splice(0, log.list.length - EVENTS_KEPT);
        events.set(record.tenant, log);
        if (f.webhook) {
          const id = f.event.data.Id;
          deliveries.set(id, { record: { id, alertId: record.id, tenant: record.tenant, url: f.webhook, event: f.event, createdAt: now(), state: "pending", attempts: [], nextAttemptAt: now() } });
          const ids = [id, ...(byAlert.get(record.id) ?? [])];
          for (const old of ids.splice(DELIVERIES_KEPT)) deliveries.delete(old);
          byAlert.set(record.id, ids);
        }
        for (const listener of [...(listeners.get(record.tenant) ?? [])]) listener(log.seq);
      }
      return Promise.resolve(true);
    },

    claim(owner, leaseMs, max) {
      const t = now();
      const due = [...units.values()].filter((e) => e.due <= t && free(e.lease)).sort((a, b) => a.due - b.due).slice(0, max);
      return Promise.resolve(
        due.map((e): ClaimedUnit => {
          e.lease = { owner, expiresAt: t + leaseMs };
          return { ...e.unit, claimed: e.unit.slot + 1 };
        }),
      );
    },
    renew(key, owner, leaseMs) {
      const e = units.get(key);
      if (!e || e.lease?.owner !== owner || free(e.lease)) return Promise.resolve(false);
      e.lease = { owner, expiresAt: now() + leaseMs };
      return Promise.resolve(true);
    },
    complete(key, owner, claimed, result, stable, nextInMs) {
      const e = units.get(key);
      if (!e || e.lease?.owner !== owner || e.unit.slot + 1 !== claimed) return Promise.resolve(false);
      e.unit = { ...e.unit, slot: claimed, stable, last: result };
      e.due = now() + nextInMs;
      e.lease = undefined;
      requestsPerCheck = nextAverage(requestsPerCheck, result.requests, checksSeen++ === 0);
      return Promise.resolve(true);
    },
    release(key, owner, delayMs) {
      const e = units.get(key);
      if (e && e.lease?.owner === owner) {
        e.lease = undefined;
        e.due = now() + delayMs;
      }
      return Promise.resolve();
    },
    drop(key) {
      units.delete(key);
      return Promise.resolve();
    },
    expire() {
      const t = now();
      const gone = [...watches.values()].filter((w) => w.expiresAt <= t);
      for (const w of gone) removeWatch(w);
      for (const [id, d] of deliveries) if (d.record.state !== "pending" && d.record.createdAt + DELIVERY_TTL_MS <= t) deliveries.delete(id);
      return Promise.resolve(gone.length);
    },
    stats: () => Promise.resolve({ watches: watches.size, units: units.size, requestsPerCheck }),

    claimDeliveries(owner, leaseMs, max) {
      const t = now();
      const due = [...deliveries.values()]
        .filter((d) => d.record.state === "pending" && (d.record.nextAttemptAt ?? 0) <= t && free(d.lease))
        .sort((a, b) => (a.record.nextAttemptAt ?? 0) - (b.record.nextAttemptAt ?? 0))
        .slice(0, max);
      return Promise.resolve(
        due.map((d) => {
          d.lease = { owner, expiresAt: t + leaseMs };
          return d.record;
        }),
      );
    },
    finishDelivery(record, owner) {
      const d = deliveries.get(record.id);
      if (!d || d.lease?.owner !== owner) return Promise.resolve(false);
      d.record = record;
      d.lease = undefined;
      return Promise.resolve(true);
    },
    deliveries: (alertId) => Promise.resolve((byAlert.get(alertId) ?? []).flatMap((id) => deliveries.get(id)?.record ?? [])),

    events: (tenant, afterSeq) => Promise.resolve((events.get(tenant)?.list ?? []).filter((e) => e.seq > afterSeq)),
    onEvent(tenant, listener) {
      const set = listeners.get(tenant) ?? new Set();
      set.add(listener);
      listeners.set(tenant, set);
      return Promise.resolve(() => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(tenant);
      });
    },

    secret(tenant, fresh) {
      const known = secrets.get(tenant);
      if (known) return Promise.resolve(known);
      const created = { current: fresh };
      secrets.set(tenant, created);
      return Promise.resolve(created);
    },
    rotateSecret(tenant, fresh, graceMs) {
      const before = secrets.get(tenant);
      const next: TenantSecret = before ? { current: fresh, previous: before.current, previousUntil: now() + graceMs } : { current: fresh };
      secrets.set(tenant, next);
      return Promise.resolve(next);
    },
  };
};
