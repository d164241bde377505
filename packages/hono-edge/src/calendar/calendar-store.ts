import type { CalendarRecord } from "./calendar-record.js";

/**
 * Where price calendars live between requests: part of the session store (`SessionStore.calendars`), so a
 * calendar's `Token` works on every instance that shares it, as a search's does. A calendar is small (its
 * days and their search ids); its results are its days' searches. Plain data crosses the port.
 *
 * What an implementation must guarantee:
 * - `openOrJoin` is atomic per `key`: two instances never both create a calendar;
 * - `save` checks the lease and writes the whole record with the lease renewed, atomically: an instance that
 *   lost the lease never writes again;
 * - a calendar expires `ttlMs` after completion, or after its deadline while it runs.
 */
export interface CalendarStore {
  /**
   * The live calendar of `candidate.key` (running, or completed before its `joinableUntil`), or `candidate`
   * stored, its lease the caller's. Throws `SessionCapacityReached` when a store with a cap is full of running calendars.
   */
  openOrJoin(candidate: CalendarRecord): Promise<{ readonly record: CalendarRecord; readonly created: boolean }>;
  /** The id a new calendar of `key` gets from `id` (a store that places a calendar's keys by its id, as a Redis Cluster does). Absent: `id`. */
  idFor?(key: string, id: string): string;
  /** A live calendar by id; undefined when unknown or expired. */
  get(id: string): Promise<CalendarRecord | undefined>;
  /**
   * Writes `record` (its days, budget, completion) if `owner` holds its lease or the lease is free or lapsed,
   * with the lease `owner`'s for `leaseMs` more (0 gives it up). False, writing nothing, when another instance
   * holds it or the calendar is gone: the caller must stop running it.
   */
  save(record: CalendarRecord, owner: string, leaseMs: number): Promise<boolean>;
}
