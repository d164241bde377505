import { createMemoryAlertStore } from "../alerts/memory-alert-store.js";
import { createMemoryCalendarStore } from "../calendar/memory-calendar-store.js";
import type { Clock } from "../clock.js";
import { mergeChanges, type SearchChange } from "./search-change.js";
import { SessionCapacityReached, type OpenResult, type SearchRecord, type SessionStore, type Unwatch } from "./session-store.js";
import { sweepPeriodOf, sweepTimer } from "../expiry/sweep-timer.js";

/** Options of {@link createMemorySessionStore}. */
export interface MemorySessionStoreOptions {
  readonly clock: Clock;
  /**
   * Searches kept at once. To make room the least recently used completed search is evicted; a running search
   * never is: when every kept search is running, a new one is refused ({@link SessionCapacityReached}).
   */
  readonly maxSessions: number;
  /**
   * Searches one tenant may keep at once (its own least recently used completed one makes room first), so
   * one tenant cannot take the whole store. Default: no cap beyond `maxSessions`.
   */
  readonly maxSessionsPerTenant?: number | undefined;
  /** How long a search is kept after completion (one that never completes: after its deadline). */
  readonly ttlMs: number;
  /** Changes kept per search before the oldest are compacted into one cumulative change. Default 256. */
  readonly maxChangesPerSearch?: number | undefined;
}

interface Entry {
  record: SearchRecord;
  /** Store clock after which a new request for the same key no longer joins this (completed) search. */
  joinableUntil?: number | undefined;
  log: SearchChange[];
  readonly listeners: Set<(version: number) => void>;
}

/**
 * The in-memory session store: one process, bounded (`maxSessions` in all and `maxSessionsPerTenant` per
 * tenant; the least recently used completed search makes room, a running one never does: at capacity a new
 * search is refused with {@link SessionCapacityReached}), with TTL eviction after completion, and a change log per search compacted
 * past `maxChangesPerSearch`. A completed search is shared with new requests for its key only within the
 * change's `rejoinMs` (when given); after that it still answers polls by id until its TTL. Two apps given the same instance behave like two instances sharing a store.
 *
 * @example
 * const store = createMemorySessionStore({ clock: systemClock, maxSessions: 1_000, ttlMs: 600_000 });
 */
export const createMemorySessionStore = (options: MemorySessionStoreOptions): SessionStore => {
  const byId = new Map<string, Entry>(); // in least-recently-used order
  const byKey = new Map<string, string>();
  const maxChanges = Math.max(2, options.maxChangesPerSearch ?? 256);

  const expired = (r: SearchRecord, now: number) => now >= (r.completed ? (r.completedAt ?? r.createdAt) : r.deadlineAt) + options.ttlMs;

  const remove = (id: string) => {
    const entry = byId.get(id);
    if (!entry) return;
    byId.delete(id);
    if (byKey.get(entry.record.key) === id) byKey.delete(entry.record.key);
  };

  /** The live entry of an id, marked as just used; an expired one is removed. */
  const live = (id: string): Entry | undefined => {
    const entry = byId.get(id);
    if (!entry) return undefined;
    if (expired(entry.record, options.clock.now())) {
      remove(id);
      return undefined;
    }
    byId.delete(id);
    byId.set(id, entry);
    return entry;
  };

  // Expired searches leave on a timer too, not only when a new one needs room: an idle store keeps nothing past its TTL.
  const sweeper = sweepTimer({
    everyMs: sweepPeriodOf(options.ttlMs),
    sweep: () => {
      const now = options.clock.now();
      for (const [id, e] of byId) if (expired(e.record, now)) remove(id);
      return byId.size > 0;
    },
  });

  /** Whole seconds until a running search among `entries` reaches its deadline (and so completes), at least 1. */
  const retryAfter = (entries: Iterable<Entry>, now: number) => {
    let soonest = Infinity;
    for (const e of entries) if (!e.record.completed) soonest = Math.min(soonest, e.record.deadlineAt);
    return Math.max(1, Math.ceil((Number.isFinite(soonest) ? soonest - now : 1_000) / 1_000));
  };

  /** The least recently used completed search among `entries`, if any. */
  const oldestCompleted = (entries: Iterable<[string, Entry]>): string | undefined => {
    for (const [id, e] of entries) if (e.record.completed) return id;
    return undefined;
  };

  /**
   * Makes room for one more search of `tenant`: drops expired searches, then evicts least recently used
   * completed ones (the tenant's own first when the tenant is at its cap). Never a running search: throws
   * {@link SessionCapacityReached} instead.
   */
  const makeRoom = (tenant: string) => {
    const now = options.clock.now();
    for (const [id, e] of byId) if (expired(e.record, now)) remove(id);
    const perTenant = options.maxSessionsPerTenant ?? Infinity;
    const own = () => [...byId].filter(([, e]) => e.record.tenant === tenant);
    let mine = perTenant === Infinity ? [] : own();
    while (mine.length >= perTenant) {
      const victim = oldestCompleted(mine);
      if (victim === undefined) throw new SessionCapacityReached("tenant", retryAfter(mine.map(([, e]) => e), now));
      remove(victim);
      mine = own();
    }
    while (byId.size >= options.maxSessions) {
      const victim = oldestCompleted(byId);
      if (victim === undefined) throw new SessionCapacityReached("instance", retryAfter(byId.values(), now));
      remove(victim);
    }
  };

  const holds = (r: SearchRecord, owner: string, now: number) => !r.lease || r.lease.owner === owner || r.lease.expiresAt <= now;

  /** Whether a new request for the search's key may join it: running, or completed within its rejoin window. */
  const joinable = (entry: Entry, now: number) => !entry.record.completed || entry.joinableUntil === undefined || now < entry.joinableUntil;

  return {
    // The calendars beside the searches, bounded by the same caps (they are far smaller).
    calendars: createMemoryCalendarStore({ clock: options.clock, maxCalendars: options.maxSessions, maxCalendarsPerTenant: options.maxSessionsPerTenant, ttlMs: options.ttlMs }),
    alerts: createMemoryAlertStore({ clock: options.clock }),
    openOrJoin(candidate) {
      const id = byKey.get(candidate.key);
      const existing = id === undefined ? undefined : live(id);
      // A search past its rejoin window stays readable by id (polls) but is no longer shared: the candidate
      // takes the key over.
      if (existing && joinable(existing, options.clock.now())) return Promise.resolve<OpenResult>({ record: existing.record, created: false });
      try {
        makeRoom(candidate.tenant);
      } catch (e) {
        return Promise.reject(e as Error);
      }
      byId.set(candidate.id, { record: candidate, log: [], listeners: new Set() });
      byKey.set(candidate.key, candidate.id);
      sweeper.arm();
      return Promise.resolve<OpenResult>({ record: candidate, created: true });
    },
    get(id) {
      return Promise.resolve(live(id)?.record);
    },
    append(id, change, owner, leaseMs) {
      const entry = live(id);
      const now = options.clock.now();
      if (!entry || !holds(entry.record, owner, now) || entry.record.completed) return Promise.resolve(false);
      entry.log.push(change);
      if (entry.log.length > maxChanges) {
        const drop = entry.log.length - maxChanges + 1;
        const folded = entry.log.slice(0, drop).reduce(mergeChanges);
        entry.log = [folded, ...entry.log.slice(drop)];
      }
      entry.record = {
        ...entry.record,
        version: change.version,
        completed: change.completed,
        completedAt: change.completed ? now : undefined,
        lease: { owner, expiresAt: now + leaseMs },
      };
      if (change.completed && change.rejoinMs !== undefined) entry.joinableUntil = now + change.rejoinMs;
      for (const listener of [...entry.listeners]) listener(change.version);
      return Promise.resolve(true);
    },
    changes(id, afterVersion) {
      const entry = live(id);
      if (!entry) return Promise.resolve([]);
      const first = entry.log.findIndex((c) => c.version > afterVersion);
      return Promise.resolve(first < 0 ? [] : entry.log.slice(first));
    },
    acquireLease(id, owner, leaseMs) {
      const entry = live(id);
      const now = options.clock.now();
      if (!entry || !holds(entry.record, owner, now)) return Promise.resolve(false);
      entry.record = { ...entry.record, lease: { owner, expiresAt: now + leaseMs } };
      return Promise.resolve(true);
    },
    releaseLease(id, owner) {
      const entry = byId.get(id);
      if (entry?.record.lease?.owner === owner) entry.record = { ...entry.record, lease: undefined };
      return Promise.resolve();
    },
    watch(id, listener) {
      const entry = byId.get(id);
      if (!entry) return Promise.resolve<Unwatch>(() => undefined);
      entry.listeners.add(listener);
      return Promise.resolve<Unwatch>(() => entry.listeners.delete(listener));
    },
  };
};
