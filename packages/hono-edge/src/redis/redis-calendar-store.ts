import type { RedisClient } from "./topology/open-client.js";
import { calendarExpiry, type CalendarRecord } from "../calendar/calendar-record.js";
import type { CalendarStore } from "../calendar/calendar-store.js";
import { OPEN_CALENDAR, SAVE_CALENDAR } from "./calendar-scripts.js";
import { luaScript } from "./lua-runner.js";
import { taggedSearchId, type RedisKeys } from "./redis-keys.js";
import type { StoreGuard } from "./store-guard.js";

/** What {@link createRedisCalendarStore} needs: the session store's Redis, guard and keys. */
export interface RedisCalendarStoreOptions {
  readonly redis: RedisClient;
  readonly guard: StoreGuard;
  readonly keys: RedisKeys;
  /** How long a calendar is kept after completion (one that never completes: after its deadline). */
  readonly ttlMs: number;
}

const encode = (r: CalendarRecord): string => {
  const { lease: _lease, ...kept } = r;
  return JSON.stringify(kept);
};

const decode = (rec: string, owner: string | undefined | null, exp: string | undefined | null): CalendarRecord => {
  const record = JSON.parse(rec) as CalendarRecord;
  return owner ? { ...record, lease: { owner, expiresAt: Number(exp) } } : record;
};

/**
 * The calendars of the Redis session store (its `calendars`): every instance sharing the store serves
 * every calendar; the scripts make opening atomic per key and a write conditional on the lease. A calendar's id
 * carries the hash tag of its key, so its hash and its key's mapping share a slot on a Redis Cluster. Redis
 * expires a calendar `ttlMs` after completion (after its deadline while it runs). No cap of its own: its
 * days are searches, under the store's caps.
 */
export const createRedisCalendarStore = (o: RedisCalendarStoreOptions): CalendarStore => {
  const { redis, keys } = o;
  const { run } = o.guard;
  const scripts = { open: luaScript(redis, OPEN_CALENDAR), save: luaScript(redis, SAVE_CALENDAR) };
  return {
    // A calendar's keys share its key's hash tag (one slot on a Redis Cluster), as a search's do.
    idFor: taggedSearchId,
    async openOrJoin(candidate) {
      const reply = (await run(() =>
        scripts.open.run(
          [keys.calendarMapping(candidate.key), keys.calendar(candidate.id)],
          // The hash of the calendar the key maps to is found from its id (in the key's slot: its id carries the key's tag).
          [candidate.id, encode(candidate), candidate.lease?.owner ?? "", Math.max(0, (candidate.lease?.expiresAt ?? 0) - candidate.createdAt), calendarExpiry(candidate, o.ttlMs), keys.calendarPrefix],
        ),
      )) as [number, string?, string?, string?];
      if (reply[0] === 1) return { record: candidate, created: true };
      return { record: decode(reply[1]!, reply[2], reply[3]), created: false };
    },
    async get(id) {
      const [rec, owner, exp] = await run(() => redis.hmget(keys.calendar(id), "rec", "owner", "exp"));
      return rec ? decode(rec, owner, exp) : undefined;
    },
    async save(record, owner, leaseMs) {
      const reply = await run(() =>
        scripts.save.run(
          [keys.calendar(record.id), keys.calendarMapping(record.key)],
          [owner, leaseMs, encode(record), calendarExpiry(record, o.ttlMs), record.completed && record.joinableUntil !== undefined ? record.joinableUntil : "", record.id],
        ),
      );
      return reply === 1;
    },
  };
};
