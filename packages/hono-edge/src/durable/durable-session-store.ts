import type { Clock } from "../clock.js";
import { durableCalendars } from "./durable-calendar-store.js";
import { createMemorySessionStore } from "../search/memory-session-store.js";
import type { SearchChange } from "../search/search-change.js";
import type { SearchRecord, SessionStore } from "../search/session-store.js";
import type { DurableStorage } from "./workers-types.js";

/** Options of {@link createDurableSessionStore}. */
export interface DurableSessionStoreOptions {
  /** The Durable Object's storage (`state.storage`). */
  readonly storage: DurableStorage;
  readonly clock: Clock;
  /** Searches kept in memory at once (see the memory store). */
  readonly maxSessions: number;
  /** How long a search is kept after completion (one that never completes: after its deadline). */
  readonly ttlMs: number;
  /** Changes kept per search in memory before the oldest are compacted (see the memory store). */
  readonly maxChangesPerSearch?: number | undefined;
}

/** The store of a Durable Object, with what its object calls on wake-up and from its alarm. */
export interface DurableSessionStore {
  readonly store: SessionStore;
  /**
   * Loads the searches and price calendars kept in storage back into memory (call once, before serving: in
   * the object's constructor, under `blockConcurrencyWhile`). Expired ones are deleted instead. A restored
   * search that had not completed holds no lease, so the next poll or stream of it takes it over and runs its
   * pending sources until its original deadline; a calendar likewise (its days not settled run again).
   * Returns how many searches came back.
   */
  restore(): Promise<number>;
  /** Deletes the stored searches past their TTL; the time (epoch ms) the next one expires, if any remains. */
  sweep(): Promise<number | undefined>;
}

/** Changes are stored as JSON text in parts of at most this many characters (2 bytes each at worst: < 128 KiB a value). */
const PART_CHARS = 60_000;
/** Entries one `put` or `delete` may take. */
const BATCH = 128;
/** The lease owner while stored changes are replayed into memory. */
const RESTORER = "restore";

const recordKey = (id: string) => `r:${id}`;
const changePrefix = (id: string) => `c:${id}:`;
const pad = (n: number, width: number) => String(n).padStart(width, "0");
const changeKey = (id: string, version: number, part: number) => `${changePrefix(id)}${pad(version, 10)}:${pad(part, 4)}`;

const expiryOf = (r: SearchRecord, ttlMs: number) => (r.completed ? (r.completedAt ?? r.createdAt) : r.deadlineAt) + ttlMs;

const inBatches = async <T>(items: readonly T[], each: (batch: T[]) => Promise<unknown>) => {
  for (let i = 0; i < items.length; i += BATCH) await each(items.slice(i, i + BATCH));
};

/** The entries of a change: its JSON in parts, under keys that sort by version, then part. */
const changeEntries = (id: string, change: SearchChange): [string, string][] => {
  const text = JSON.stringify(change);
  const entries: [string, string][] = [];
  for (let at = 0, part = 0; at < text.length; at += PART_CHARS, part++) entries.push([changeKey(id, change.version, part), text.slice(at, at + PART_CHARS)]);
  return entries;
};

/** Stored parts back into changes, oldest first; stops at the first that does not parse (a write cut short). */
const changesFrom = (parts: Map<string, string>, id: string): SearchChange[] => {
  const byVersion = new Map<string, string>();
  for (const [key, text] of parts) {
    const version = key.slice(changePrefix(id).length, changePrefix(id).length + 10);
    byVersion.set(version, (byVersion.get(version) ?? "") + text);
  }
  const changes: SearchChange[] = [];
  for (const text of byVersion.values()) {
    try {
      changes.push(JSON.parse(text) as SearchChange);
    } catch {
      break;
    }
  }
  return changes;
};

/**
 * The session store of a Durable Object: the in-memory store, written through to the object's storage so a
 * search (and a price calendar: its record, at every write) outlives the object's eviction from memory. Every new search and every appended change is stored
 * (the record as JSON, each change as JSON split in parts under keys ordered by version), and awaited
 * before `append` answers, so no client sees a version the storage does not have. Leases are not stored:
 * they belong to the object's life in memory. {@link DurableSessionStore.restore} rebuilds memory from
 * storage; {@link DurableSessionStore.sweep} deletes what expired.
 *
 * The search id is whatever the caller minted (a Durable Object routes polls by it; see `search-id.ts`).
 */
export const createDurableSessionStore = (o: DurableSessionStoreOptions): DurableSessionStore => {
  // Replaying a completed search sets its completion time to "now" in memory: the clock is pinned to the
  // stored time while it replays, so its TTL still counts from the real completion.
  let pinned: number | undefined;
  const clock: Clock = { now: () => pinned ?? o.clock.now() };
  const inner = createMemorySessionStore({ clock, maxSessions: o.maxSessions, ttlMs: o.ttlMs, maxChangesPerSearch: o.maxChangesPerSearch });
  const { storage } = o;

  const saveRecord = async (id: string, change?: SearchChange) => {
    const record = await inner.get(id);
    if (!record) return;
    const { lease: _lease, ...kept } = record;
    // The record goes last: a restore never finds a record ahead of its changes.
    const entries = [...(change ? changeEntries(id, change) : []), [recordKey(id), JSON.stringify(kept)] as [string, string]];
    await inBatches(entries, (batch) => storage.put(Object.fromEntries(batch)));
  };

  const drop = async (id: string) => {
    const parts = await storage.list({ prefix: changePrefix(id) });
    await inBatches([...parts.keys(), recordKey(id)], (keys) => storage.delete(keys));
  };

  const storedRecords = async () => {
    const records: SearchRecord[] = [];
    for (const text of (await storage.list<string>({ prefix: "r:" })).values()) records.push(JSON.parse(text) as SearchRecord);
    return records.sort((a, b) => a.createdAt - b.createdAt);
  };

  const calendars = durableCalendars(inner.calendars!, storage, o.clock, o.ttlMs);

  const store: SessionStore = {
    calendars: calendars.calendars,
    async openOrJoin(candidate) {
      const result = await inner.openOrJoin(candidate);
      if (result.created) await saveRecord(result.record.id);
      return result;
    },
    get: (id) => inner.get(id),
    async append(id, change, owner, leaseMs) {
      const ok = await inner.append(id, change, owner, leaseMs);
      if (ok === true) await saveRecord(id, change);
      return ok;
    },
    changes: (id, afterVersion) => inner.changes(id, afterVersion),
    acquireLease: (id, owner, leaseMs) => inner.acquireLease(id, owner, leaseMs),
    releaseLease: (id, owner) => inner.releaseLease(id, owner),
    watch: (id, listener) => inner.watch(id, listener),
  };

  return {
    store,
    async restore() {
      let restored = 0;
      for (const record of await storedRecords()) {
        if (o.clock.now() >= expiryOf(record, o.ttlMs)) {
          await drop(record.id);
          continue;
        }
        const changes = changesFrom(await storage.list<string>({ prefix: changePrefix(record.id) }), record.id);
        try {
          pinned = record.createdAt;
          const fresh: SearchRecord = { ...record, version: 0, completed: false, completedAt: undefined, lease: { owner: RESTORER, expiresAt: record.deadlineAt } };
          const { created } = await inner.openOrJoin(fresh);
          if (!created) continue; // another search of the same key came back first (should not happen: one lives per key)
          for (const change of changes) {
            pinned = change.completed ? (record.completedAt ?? record.createdAt) : record.createdAt;
            if ((await inner.append(record.id, change, RESTORER, 0)) !== true) break;
          }
          await inner.releaseLease(record.id, RESTORER);
          restored++;
        } finally {
          pinned = undefined;
        }
      }
      await calendars.restore();
      return restored;
    },
    async sweep() {
      let next: number | undefined;
      const now = o.clock.now();
      for (const record of await storedRecords()) {
        const expiry = expiryOf(record, o.ttlMs);
        if (now >= expiry) await drop(record.id);
        else next = Math.min(next ?? expiry, expiry);
      }
      const calendar = await calendars.sweep();
      return calendar === undefined ? next : Math.min(next ?? calendar, calendar);
    },
  };
};
