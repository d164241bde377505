import type { Clock } from "../clock.js";
import { SessionCapacityReached } from "../search/session-store.js";
import { calendarExpiry, type CalendarRecord } from "./calendar-record.js";
import type { CalendarStore } from "./calendar-store.js";

/** Options of {@link createMemoryCalendarStore}. */
export interface MemoryCalendarStoreOptions {
  readonly clock: Clock;
  /** Calendars kept at once: the least recently used completed one makes room; a running one never does. */
  readonly maxCalendars: number;
  /** Calendars one tenant may keep at once. Default: no cap beyond `maxCalendars`. */
  readonly maxCalendarsPerTenant?: number | undefined;
  /** How long a calendar is kept after completion (one that never completes: after its deadline). */
  readonly ttlMs: number;
}

/**
 * The in-memory calendar store (one process; the memory session store's calendars): bounded like the
 * memory session store (at capacity with only running calendars, a new one is refused with
 * `SessionCapacityReached`), expiring by TTL.
 */
export const createMemoryCalendarStore = (o: MemoryCalendarStoreOptions): CalendarStore => {
  const byId = new Map<string, CalendarRecord>(); // least recently used first
  const byKey = new Map<string, string>();
  const expired = (r: CalendarRecord, now: number) => now >= calendarExpiry(r, o.ttlMs);

  const remove = (id: string) => {
    const r = byId.get(id);
    byId.delete(id);
    if (r && byKey.get(r.key) === id) byKey.delete(r.key);
  };

  const live = (id: string): CalendarRecord | undefined => {
    const r = byId.get(id);
    if (!r) return undefined;
    if (expired(r, o.clock.now())) return void remove(id);
    byId.delete(id);
    byId.set(id, r);
    return r;
  };

  const makeRoom = (tenant: string) => {
    const now = o.clock.now();
    for (const [id, r] of byId) if (expired(r, now)) remove(id);
    const evict = (scope: "tenant" | "instance", among: () => CalendarRecord[], cap: number) => {
      for (let kept = among(); kept.length >= cap; kept = among()) {
        const victim = kept.find((r) => r.completed);
        if (!victim) throw new SessionCapacityReached(scope, Math.max(1, Math.ceil((Math.min(...kept.map((r) => r.deadlineAt)) - now) / 1_000)));
        remove(victim.id);
      }
    };
    evict("tenant", () => [...byId.values()].filter((r) => r.tenant === tenant), o.maxCalendarsPerTenant ?? Infinity);
    evict("instance", () => [...byId.values()], o.maxCalendars);
  };

  const holds = (r: CalendarRecord, owner: string, now: number) => !r.lease || r.lease.owner === owner || r.lease.expiresAt <= now;

  return {
    openOrJoin(candidate) {
      const id = byKey.get(candidate.key);
      const existing = id === undefined ? undefined : live(id);
      const now = o.clock.now();
      if (existing && (!existing.completed || existing.joinableUntil === undefined || now < existing.joinableUntil)) return Promise.resolve({ record: existing, created: false });
      try {
        makeRoom(candidate.tenant);
      } catch (e) {
        return Promise.reject(e as Error);
      }
      byId.set(candidate.id, candidate);
      byKey.set(candidate.key, candidate.id);
      return Promise.resolve({ record: candidate, created: true });
    },
    get(id) {
      return Promise.resolve(live(id));
    },
    save(record, owner, leaseMs) {
      const stored = live(record.id);
      const now = o.clock.now();
      if (!stored || !holds(stored, owner, now)) return Promise.resolve(false);
      byId.set(record.id, { ...record, lease: leaseMs > 0 ? { owner, expiresAt: now + leaseMs } : undefined });
      return Promise.resolve(true);
    },
  };
};
