import type { AlertRecord, ClaimedUnit, DeliveryRecord, EventRecord } from "../alerts/alert-record.js";
import type { AlertStore } from "../alerts/alert-store.js";
import { DELIVERIES_KEPT, DELIVERY_TTL_MS, EVENTS_KEPT, nextAverage } from "../alerts/store-limits.js";
import type { Clock } from "../clock.js";
import { deliverySteps } from "./durable-alert-deliveries.js";
import { D, enc, eventKey, eventPrefix, oneAtATime, STATS, storageSteps, tenantKey, U, W, type DeliveryEntry, type Lease, type Stats, type UnitEntry } from "./durable-alert-keys.js";
import type { DurableStorage } from "./workers-types.js";

/**
 * The alerts' store of a Worker deployment: the storage of its alerts object (one search object, named
 * `<deployment>\u0000alertas`: see `search-object.ts`). Each method is storage reads and writes only, with no other I/O between them (the runtime's input
 * gate holds other requests and the alarm off meanwhile), and the methods run one at a time (a queue: the object's
 * own checks, deliveries and requests interleave at every `await` otherwise), so each step is atomic as the Redis
 * scripts are; the leases (kept in storage, with the store's clock) let the object's checks and deliveries, and the
 * object after an eviction, take each slot once. The layout: `durable-alert-keys.ts`.
 */

/** The durable store, with what its object needs beside the interface. */
export interface DurableAlertStore extends AlertStore {
  /** The earliest time (epoch ms) something is due: a day check, a delivery's try, or a lease lapsing; undefined when nothing waits. */
  nextDue(): Promise<number | undefined>;
}

/** Options of {@link durableAlertStore}. */
export interface DurableAlertStoreOptions {
  readonly storage: DurableStorage;
  readonly clock: Clock;
}

/**
 * The alerts' store on a Durable Object's storage.
 *
 * @example
 * const alerts = durableAlertStore({ storage: state.storage, clock: systemClock });
 */
export const durableAlertStore = (o: DurableAlertStoreOptions): DurableAlertStore => {
  const { storage } = o;
  const now = () => o.clock.now();
  const free = (lease: Lease | undefined) => !lease || lease.expiresAt <= now();
  const listeners = new Map<string, Set<(seq: number) => void>>();

  const { put, del, one } = storageSteps(storage);

  /** Removes a watch, its tenant's entry and its place in the day checks (a day no other watch needs goes). */
  const removeWatch = async (record: AlertRecord) => {
    const units = await storage.list<UnitEntry>({ prefix: U });
    const changed: Record<string, UnitEntry> = {};
    const gone: string[] = [`${W}${record.id}`, tenantKey(record.tenant, record.id)];
    for (const [k, e] of units) {
      if (!(record.id in e.unit.watchers)) continue;
      const { [record.id]: _gone, ...rest } = e.unit.watchers;
      if (Object.keys(rest).length === 0) gone.push(k);
      else changed[k] = { ...e, unit: { ...e.unit, watchers: rest } };
    }
    await put(changed);
    await del(gone);
  };

  const appendEvent = async (tenant: string, record: EventRecord) => {
    await put({ [eventKey(tenant, record.seq)]: record, [`al/n:${enc(tenant)}`]: record.seq });
    if (record.seq > EVENTS_KEPT) await del([eventKey(tenant, record.seq - EVENTS_KEPT)]);
  };

  const store: DurableAlertStore = {
    ...deliverySteps(storage, now),
    async create(record, dayUnits, maxWatches) {
      const mine = await storage.list({ prefix: tenantKey(record.tenant, "") });
      if (mine.size >= maxWatches) return false;
      const entries: Record<string, unknown> = { [`${W}${record.id}`]: record, [tenantKey(record.tenant, record.id)]: record.createdAt };
      const t = now();
      for (const u of dayUnits) {
        const e = await one<UnitEntry>(`${U}${u.key}`);
        entries[`${U}${u.key}`] = e
          ? { ...e, unit: { ...e.unit, watchers: { ...e.unit.watchers, [record.id]: record.tenant } } }
          : ({ unit: { key: u.key, query: u.query, watchers: { [record.id]: record.tenant }, slot: 0, stable: 0 }, due: t } satisfies UnitEntry);
      }
      await put(entries);
      return true;
    },
    get: (id) => one<AlertRecord>(`${W}${id}`),
    async list(tenant) {
      const ids = [...(await storage.list({ prefix: tenantKey(tenant, "") })).keys()].map((k) => k.slice(k.lastIndexOf("/") + 1));
      const records: AlertRecord[] = [];
      for (const id of ids) {
        const r = await one<AlertRecord>(`${W}${id}`);
        if (r) records.push(r);
      }
      return records.sort((a, b) => a.createdAt - b.createdAt);
    },
    async remove(tenant, id) {
      const record = await one<AlertRecord>(`${W}${id}`);
      if (!record || record.tenant !== tenant) return false;
      await removeWatch(record);
      return true;
    },
    async update(record, rev, fired) {
      const stored = await one<AlertRecord>(`${W}${record.id}`);
      if (!stored || stored.rev !== rev) return false;
      await put({ [`${W}${record.id}`]: { ...record, rev: rev + 1 } });
      let seq = (await one<number>(`al/n:${enc(record.tenant)}`)) ?? 0;
      const seqs: number[] = [];
      let ids = (await one<string[]>(`al/a:${record.id}`)) ?? [];
      for (const f of fired) {
        seqs.push(++seq);
        await appendEvent(record.tenant, { seq, alertId: record.id, event: f.event });
        if (f.webhook) {
          const id = f.event.data.Id;
          const delivery: DeliveryRecord = { id, alertId: record.id, tenant: record.tenant, url: f.webhook, event: f.event, createdAt: now(), state: "pending", attempts: [], nextAttemptAt: now() };
          await put({ [`${D}${id}`]: { record: delivery } satisfies DeliveryEntry });
          ids = [id, ...ids];
          await del(ids.splice(DELIVERIES_KEPT).map((old) => `${D}${old}`));
          await put({ [`al/a:${record.id}`]: ids });
        }
      }
      for (const s of seqs) for (const listener of [...(listeners.get(record.tenant) ?? [])]) listener(s);
      return true;
    },

    async claim(owner, leaseMs, max) {
      const t = now();
      const due = [...(await storage.list<UnitEntry>({ prefix: U }))].filter(([, e]) => e.due <= t && free(e.lease)).sort(([, a], [, b]) => a.due - b.due).slice(0, max);
      await put(Object.fromEntries(due.map(([k, e]) => [k, { ...e, lease: { owner, expiresAt: t + leaseMs } }])));
      return due.map(([, e]): ClaimedUnit => ({ ...e.unit, claimed: e.unit.slot + 1 }));
    },
    async renew(key, owner, leaseMs) {
      const e = await one<UnitEntry>(`${U}${key}`);
      if (!e || e.lease?.owner !== owner || free(e.lease)) return false;
      await put({ [`${U}${key}`]: { ...e, lease: { owner, expiresAt: now() + leaseMs } } });
      return true;
    },
    async complete(key, owner, claimed, result, stable, nextInMs) {
      const e = await one<UnitEntry>(`${U}${key}`);
      if (!e || e.lease?.owner !== owner || e.unit.slot + 1 !== claimed) return false;
      const stats = (await one<Stats>(STATS)) ?? { avg: 0, seen: 0 };
      await put({
        [`${U}${key}`]: { unit: { ...e.unit, slot: claimed, stable, last: result }, due: now() + nextInMs } satisfies UnitEntry,
        [STATS]: { avg: nextAverage(stats.avg, result.requests, stats.seen === 0), seen: stats.seen + 1 } satisfies Stats,
      });
      return true;
    },
    async release(key, owner, delayMs) {
      const e = await one<UnitEntry>(`${U}${key}`);
      if (e && e.lease?.owner === owner) await put({ [`${U}${key}`]: { unit: e.unit, due: now() + delayMs } satisfies UnitEntry });
    },
    async drop(key) {
      await del([`${U}${key}`]);
    },
    async expire() {
      const t = now();
      const gone = [...(await storage.list<AlertRecord>({ prefix: W })).values()].filter((w) => w.expiresAt <= t);
      for (const w of gone) await removeWatch(w);
      const old = [...(await storage.list<DeliveryEntry>({ prefix: D }))].filter(([, d]) => d.record.state !== "pending" && d.record.createdAt + DELIVERY_TTL_MS <= t);
      await del(old.map(([k]) => k));
      return gone.length;
    },
    async stats() {
      const [watches, units, stats] = [await storage.list({ prefix: W }), await storage.list({ prefix: U }), await one<Stats>(STATS)];
      return { watches: watches.size, units: units.size, requestsPerCheck: stats?.avg ?? 0 };
    },


    async events(tenant, afterSeq) {
      return [...(await storage.list<EventRecord>({ prefix: eventPrefix(tenant) })).values()].filter((e) => e.seq > afterSeq);
    },
    onEvent(tenant, listener) {
      const set = listeners.get(tenant) ?? new Set();
      set.add(listener);
      listeners.set(tenant, set);
      return Promise.resolve(() => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(tenant);
      });
    },


    async nextDue() {
      let next = Infinity;
      for (const e of (await storage.list<UnitEntry>({ prefix: U })).values()) next = Math.min(next, free(e.lease) ? e.due : Math.max(e.due, e.lease!.expiresAt));
      for (const d of (await storage.list<DeliveryEntry>({ prefix: D })).values()) {
        if (d.record.state !== "pending") continue;
        const at = d.record.nextAttemptAt ?? 0;
        next = Math.min(next, free(d.lease) ? at : Math.max(at, d.lease!.expiresAt));
      }
      return Number.isFinite(next) ? next : undefined;
    },
  };
  // One step at a time: each is atomic only if no other step runs between its reads and writes.
  return oneAtATime(store, ["onEvent"]);
};
