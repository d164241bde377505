/**
 * Names of everything the Redis session store keeps, under one prefix (so tests and tenants of one Redis
 * stay apart, and `SCAN prefix*` finds it all). On a Redis cluster, give the prefix a hash tag (`{voar}:`).
 */
export interface RedisKeys {
  /** The query mapping: search key -> search id. */
  readonly mapping: (searchKey: string) => string;
  /** The search's hash (record fields and lease). */
  readonly search: (id: string) => string;
  /** The search's change log (a list of JSON changes). */
  readonly changes: (id: string) => string;
  /** The pub/sub channel announcing each new version. */
  readonly channel: (id: string) => string;
  /** The ids of the running searches, sorted by deadline (the `maxSessions` cap). */
  readonly running: string;
  /** The ids of a tenant's running searches, sorted by deadline (the `maxSessionsPerTenant` cap). */
  readonly runningOf: (tenant: string) => string;
  /** What `search(id)` puts before the id, for scripts that find a hash from an id they read. */
  readonly searchPrefix: string;
  /** A price calendar's hash (its record and lease). */
  readonly calendar: (id: string) => string;
  /** The calendar mapping: calendar key -> calendar id. */
  readonly calendarMapping: (calendarKey: string) => string;
  /** What `calendar(id)` puts before the id. */
  readonly calendarPrefix: string;
}

/** The key names under `prefix` (e.g. `voar:`). */
export const redisKeys = (prefix: string): RedisKeys => ({
  mapping: (searchKey) => `${prefix}key:${searchKey}`,
  search: (id) => `${prefix}search:${id}`,
  changes: (id) => `${prefix}changes:${id}`,
  channel: (id) => `${prefix}watch:${id}`,
  running: `${prefix}running`,
  runningOf: (tenant) => `${prefix}running:${tenant}`,
  searchPrefix: `${prefix}search:`,
  calendar: (id) => `${prefix}calendar:${id}`,
  calendarMapping: (calendarKey) => `${prefix}calendar-key:${calendarKey}`,
  calendarPrefix: `${prefix}calendar:`,
});
