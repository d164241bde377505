import { calendarExpiry, type CalendarRecord } from "../calendar/calendar-record.js";
import type { CalendarStore } from "../calendar/calendar-store.js";
import type { Clock } from "../clock.js";
import type { DurableStorage } from "./workers-types.js";

/** The calendars of a Durable Object's session store, with what its object calls on wake-up and from its alarm. */
export interface DurableCalendars {
  readonly calendars: CalendarStore;
  /** Loads the stored calendars back into memory (oldest first: a key maps to its newest again); deletes the expired. */
  restore(): Promise<void>;
  /** Deletes the stored calendars past their TTL; the time (epoch ms) the next one expires, if any remains. */
  sweep(): Promise<number | undefined>;
}

const storageKey = (id: string) => `k:${id}`;

/**
 * A Durable Object's price calendars: the in-memory calendar store (`inner`), each record written through to
 * the object's storage at every write (a calendar is one small record: its days and their search ids), so a
 * calendar outlives the object's eviction. Leases are not stored: after a restore, the next request of a
 * calendar that was running takes it over (its days not settled run again).
 */
export const durableCalendars = (inner: CalendarStore, storage: DurableStorage, clock: Clock, ttlMs: number): DurableCalendars => {
  const store = async (record: CalendarRecord) => {
    const { lease: _lease, ...kept } = record;
    await storage.put({ [storageKey(record.id)]: JSON.stringify(kept) });
  };
  const stored = async () => {
    const records: CalendarRecord[] = [];
    for (const text of (await storage.list<string>({ prefix: "k:" })).values()) records.push(JSON.parse(text) as CalendarRecord);
    return records.sort((a, b) => a.createdAt - b.createdAt);
  };
  return {
    calendars: {
      async openOrJoin(candidate) {
        const result = await inner.openOrJoin(candidate);
        if (result.created) await store(result.record);
        return result;
      },
      get: (id) => inner.get(id),
      async save(record, owner, leaseMs) {
        const ok = await inner.save(record, owner, leaseMs);
        if (ok) await store(record);
        return ok;
      },
    },
    async restore() {
      for (const record of await stored()) {
        if (clock.now() >= calendarExpiry(record, ttlMs)) await storage.delete([storageKey(record.id)]);
        else await inner.openOrJoin(record);
      }
    },
    async sweep() {
      let next: number | undefined;
      for (const record of await stored()) {
        const expiry = calendarExpiry(record, ttlMs);
        if (clock.now() >= expiry) await storage.delete([storageKey(record.id)]);
        else next = Math.min(next ?? expiry, expiry);
      }
      return next;
    },
  };
};
