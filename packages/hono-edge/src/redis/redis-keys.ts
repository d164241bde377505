import { createHash } from "node:crypto";

/**
 * Names of everything the Redis session store keeps, under one prefix (so tests and deployments of one Redis
 * stay apart, and `SCAN prefix*` finds it all). Every key of a search (its query mapping, hash, change log and
 * channel) carries one hash tag, derived from its search key and put in its id, so that on a Redis Cluster a
 * search's scripts run in one slot while different searches spread over every primary. The running sets (the
 * caps) are keys of their own, each in its own slot.
 */
export interface RedisKeys {
  /** The query mapping: search key -> search id. */
  readonly mapping: (searchKey: string) => string;
  /** The search's hash (record fields and lease). */
  readonly search: (id: string) => string;
  /** The search's change log (a list of JSON changes). */
  readonly changes: (id: string) => string;
  /** The pub/sub channel announcing each new version (sharded on a cluster: in the search's slot). */
  readonly channel: (id: string) => string;
  /** The running searches, each until its reservation lapses (the `maxSessions` cap). */
  readonly running: string;
  /** A tenant's running searches (the `maxSessionsPerTenant` cap). */
  readonly runningOf: (tenant: string) => string;
  /** What `search(id)` starts with, for scripts that find a hash from an id they read (see `SEARCH_KEY` in `lua-scripts.ts`). */
  readonly searchPrefix: string;
  /** A price calendar's hash (its record and lease), in the slot of the tag its id carries (as a search's). */
  readonly calendar: (id: string) => string;
  /** The calendar mapping: calendar key -> calendar id, in the slot of the key's tag. */
  readonly calendarMapping: (calendarKey: string) => string;
  /** What `calendar(id)` puts before the `{tag}:` and the id. */
  readonly calendarPrefix: string;
}

/** A search id that carries its slot's tag: 4 hex digits, a dot, then the id proper. */
const TAGGED = /^[0-9a-f]{4}\./;

/** The hash tag of a search key: the first 4 hex digits of its SHA-1 (65,536 tags over the 16,384 slots). */
export const slotTag = (searchKey: string): string => createHash("sha1").update(searchKey).digest("hex").slice(0, 4);

/** The tag of a search's keys: the one its id carries; an id minted elsewhere is its own tag. */
export const tagOfId = (id: string): string => (TAGGED.test(id) ? id.slice(0, 4) : id);

/** Whether `id` carries the tag of `searchKey` (so its keys share a slot with the query mapping). */
export const carriesTag = (id: string, searchKey: string): boolean => TAGGED.test(id) && id.slice(0, 4) === slotTag(searchKey);

/** The id a new search of `searchKey` gets from `id`: the key's tag, a dot, then `id`. */
export const taggedSearchId = (searchKey: string, id: string): string => `${slotTag(searchKey)}.${id}`;

/** The key names under `prefix` (e.g. `voar:<fingerprint>:`). On a cluster the prefix must hold no `{` or `}`. */
export const redisKeys = (prefix: string): RedisKeys => ({
  mapping: (searchKey) => `${prefix}key:{${slotTag(searchKey)}}:${searchKey}`,
  search: (id) => `${prefix}search:{${tagOfId(id)}}:${id}`,
  changes: (id) => `${prefix}changes:{${tagOfId(id)}}:${id}`,
  channel: (id) => `${prefix}watch:{${tagOfId(id)}}:${id}`,
  running: `${prefix}running`,
  runningOf: (tenant) => `${prefix}running:${tenant}`,
  searchPrefix: `${prefix}search:`,
  calendar: (id) => `${prefix}calendar:{${tagOfId(id)}}:${id}`,
  calendarMapping: (calendarKey) => `${prefix}calendar-key:{${slotTag(calendarKey)}}:${calendarKey}`,
  calendarPrefix: `${prefix}calendar:`,
});
