import { StoreUnavailable } from "../errors/service-errors.js";
import { silentLogger, type Logger } from "../logging/logger.js";
import { mergeChanges, type SearchChange } from "../search/search-change.js";
import { SessionCapacityReached, type SearchRecord, type SessionStore } from "../search/session-store.js";
import { openSearch } from "./open-search.js";
import { confirmedWrites } from "./confirmed-writes.js";
import { luaScript } from "./lua-runner.js";
import { ACQUIRE_LEASE, APPEND, CHANGES_AFTER, COMPACT, OPEN_OR_JOIN, RECORD, RELEASE_LEASE, RESTORE } from "./lua-scripts.js";
import { decodeChange, encodeChange, pairsToHash, recordFromHash, recordToFields } from "./record-codec.js";
import { redisKeys, taggedSearchId } from "./redis-keys.js";
import { isRedisConnection, openRedisConnection, type RedisConnection } from "./redis-connection.js";
import { createRedisWatchers } from "./redis-watchers.js";
import { createRedisCalendarStore } from "./redis-calendar-store.js";
import { createRedisAlertStore } from "./redis-alert-store.js";
import { searchPlaces } from "./search-places.js";
import type { RedisClient } from "./topology/open-client.js";
import type { RedisTarget } from "./topology/redis-target.js";

/** Options of {@link createRedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /**
   * The Redis to use: a {@link RedisConnection} (`openRedisConnection`: shared with the rate limiters, one
   * view of Redis's availability for both; the caller closes it), a URL (`redis://127.0.0.1:6379`) or a
   * {@link RedisTarget} (Sentinel, Cluster; the store opens and closes its connections), or an ioredis client
   * (the caller keeps it and closes it; the store only duplicates it). Give the client no ioredis `keyPrefix` of
   * its own: the scripts derive keys from `keyPrefix` below.
   */
  readonly redis: string | RedisTarget | RedisClient | RedisConnection;
  /** How long a search is kept after completion (one that never completes: after its deadline). */
  readonly ttlMs: number;
  /**
   * Prefix of every key and channel; one per deployment (or per test). Default `voar:`. The Node entry puts
   * the deployment's fingerprint under it (`deploymentKeyPrefix`), so deployments that share a Redis with
   * different sources never see each other's searches.
   */
  readonly keyPrefix?: string | undefined;
  /** Changes kept per search before the oldest are folded into one cumulative change. Default 256. */
  readonly maxChangesPerSearch?: number | undefined;
  /**
   * Searches running at once across every instance sharing the store; a new one beyond it is refused
   * ({@link SessionCapacityReached}), a running one is never dropped. Completed searches do not count (Redis
   * expires them after `ttlMs`). Default: no cap.
   */
  readonly maxSessions?: number | undefined;
  /** Searches one tenant may run at once, across every instance. Default: no cap. */
  readonly maxSessionsPerTenant?: number | undefined;
  /**
   * How long the write that completes a search waits for a replica's confirmation (`WAIT`) when its primary has a
   * replica; unconfirmed, the owner keeps the search and writes it again. Default 500.
   */
  readonly confirmTimeoutMs?: number | undefined;
  /** Where connection-level problems are reported. Default: nowhere. */
  readonly logger?: Logger | undefined;
  /**
   * How long one Redis command may wait for its answer before the request gets 503 `INDISPONIVEL`, this
   * process's own event-loop delay apart (see `openRedisConnection`). Default 500. Ignored with a `RedisConnection`.
   */
  readonly commandTimeoutMs?: number | undefined;
  /** Commands in a row without an answer that declare Redis unavailable. Default 1. Ignored with a `RedisConnection`. */
  readonly breakerThreshold?: number | undefined;
  /** The least time Redis stays declared unavailable (probed meanwhile). Default 1000. Ignored with a `RedisConnection`. */
  readonly breakerCooldownMs?: number | undefined;
}


/** The Redis session store: the port, plus `close()` to end its connections. */
export interface RedisSessionStore extends SessionStore {
  /** Closes the connections the store opened (the pub/sub one always; the main one if it came from a URL). */
  close(): Promise<void>;
  /** The Redis the store runs on, with its availability view: give it to `redisRateLimiters` too. */
  readonly connection: RedisConnection;
}


/**
 * A {@link SessionStore} on Redis (one Redis, a Sentinel primary or a Redis Cluster), for several instances
 * serving the same searches: snapshots are shared as a per-search log of changes, a search is opened atomically
 * per query, each append checks the lease and the version in the same Lua script that writes it (so an instance
 * that lost its lease can never write again, and a store that lost writes in a failover is noticed and written
 * back by the search's owner), watchers hear of new versions through pub/sub (sharded on a cluster), and Redis
 * expires everything by itself (`PEXPIRE`). The caps count the places of running searches (`search-places.ts`).
 * While a search's owner has not confirmed it since its primary failed over, other instances answer it with a
 * retryable 503 rather than a state that may lack what a client saw. Node-only: import it from `@voar/hono-edge/redis`.
 *
 * @example
 * const store = createRedisSessionStore({ redis: "redis://127.0.0.1:6379", ttlMs: config.search.ttlMs });
 * const app = createApp({ config, sources, store });
 * // at shutdown, after the app: await store.close();
 */
export const createRedisSessionStore = (options: RedisSessionStoreOptions): RedisSessionStore => {
  const given = options.redis;
  const connection = isRedisConnection(given)
    ? given
    : openRedisConnection(given, { commandTimeoutMs: options.commandTimeoutMs, breakerThreshold: options.breakerThreshold, breakerCooldownMs: options.breakerCooldownMs });
  const closeConnection = isRedisConnection(given) ? () => Promise.resolve() : () => connection.close();
  const { client: redis, guard } = connection;
  const cluster = connection.topology === "cluster";
  const publish = cluster ? "SPUBLISH" : "PUBLISH";
  const logger = options.logger ?? silentLogger;
  const keys = redisKeys(options.keyPrefix ?? "voar:");
  const maxChanges = Math.max(2, options.maxChangesPerSearch ?? 256);
  const caps = { instance: options.maxSessions ?? 0, tenant: options.maxSessionsPerTenant ?? 0 };
  const places = searchPlaces({ connection, keys, maxSessions: caps.instance, maxSessionsPerTenant: caps.tenant, logger });
  const confirmed = confirmedWrites(connection, options.confirmTimeoutMs ?? 500, logger);
  // The subscriber may queue its SUBSCRIBE while it (re)connects: the guard has checked the main connection
  // first, and bounds the wait.
  const watchers = createRedisWatchers(() => connection.subscriber(), logger, cluster);
  // Connected from the start, with the command client: the first stream's SUBSCRIBE then waits for no
  // connection setup, which on a distant or TLS Redis could take most of the command timeout.
  watchers.connect();
  // A Redis declared unavailable (down, or frozen with its connections open) wakes every watcher: each reads
  // the store, learns that it is unavailable and ends its stream with a retryable event, instead of waiting
  // in silence for a message that cannot come. Back, the places of the caps are taken again at once (a
  // promoted replica may lack the last ones).
  guard.onChange((available) => {
    if (!available) watchers.interrupt();
    else void places.renew();
  });
  const scripts = {
    open: luaScript(redis, OPEN_OR_JOIN),
    append: luaScript(redis, APPEND),
    appendConfirmed: luaScript(confirmed.client, APPEND),
    acquire: luaScript(redis, ACQUIRE_LEASE),
    release: luaScript(redis, RELEASE_LEASE),
    record: luaScript(redis, RECORD),
    changesAfter: luaScript(redis, CHANGES_AFTER),
    compact: luaScript(redis, COMPACT),
    restore: luaScript(confirmed.client, RESTORE),
  };
  const { run } = guard;

  /**
   * Folds the oldest changes of a long log into one cumulative change, down to half of `maxChanges` so that
   * it happens once in a while, not at every append. Skipped if the log moved meanwhile (another instance
   * compacted it first).
   */
  const compact = async (id: string, length: number) => {
    const count = length - Math.floor(maxChanges / 2) + 1;
    const oldest = ((await run(() => redis.lrange(keys.changes(id), 0, count - 1))) as string[]).map(decodeChange);
    if (oldest.length < 2) return;
    const folded = oldest.reduce(mergeChanges);
    await run(() => scripts.compact.run([keys.changes(id), keys.search(id)], [oldest.length, oldest[0]!.version, oldest.at(-1)!.version, encodeChange(folded)]));
  };

  /** The tenant and deadline of a stored search (for its places), without the epoch check of `get`. */
  const placeOf = async (id: string) => {
    const rec = await run(() => redis.hget(keys.search(id), "rec"));
    return rec === null ? undefined : (JSON.parse(rec) as Pick<SearchRecord, "tenant" | "deadlineAt">);
  };

  /** After a confirmed write: the search's completion reached a replica, or the store turned out behind. */
  const confirmedOrBehind = async (id: string, replicas: number, version: number) => (await confirmed.confirm(keys.search(id), replicas, version)) === "confirmed";

  return {
    // The price calendars beside the searches, on the same connection and guard.
    calendars: createRedisCalendarStore({ redis, guard, keys, ttlMs: options.ttlMs }),
    // The price watches, their schedule and deliveries, on the same connection, guard and pub/sub.
    alerts: createRedisAlertStore({ redis, guard, watchers, keyPrefix: options.keyPrefix ?? "voar:", cluster }),
    searchIdFor: taggedSearchId,
    openOrJoin: (candidate) => openSearch({ run, open: scripts.open, keys, cluster, places, caps, ttlMs: options.ttlMs }, candidate),
    async get(id) {
      const [flat, epoch, now, noticed] = (await run(() => scripts.record.run([keys.search(id)], []))) as [string[]?, string?, number?, number?];
      const hash = pairsToHash(flat ?? []);
      const record = recordFromHash(hash);
      // Its owner last wrote it on a primary that is gone, and has not confirmed it since: the promoted replica may
      // lack changes a client was shown. The owner confirms it (or writes it back) within a heartbeat; one that died
      // has its lease, and one more from when the store noticed, before another instance takes the search over.
      const waiting = record?.lease && (record.lease.expiresAt > Number(now) || Number(now) < Number(noticed) + Number(hash["ls"] ?? 0));
      const unconfirmed = waiting && epoch !== undefined && hash["ep"] !== epoch && !places.holds(id);
      if (unconfirmed) throw new StoreUnavailable("the search's owner has not confirmed it since the store failed over", 1);
      return record;
    },
    async append(id, change, owner, leaseMs) {
      const script = change.completed ? scripts.appendConfirmed : scripts.append;
      const args = [owner, leaseMs, change.version, change.completed ? "1" : "0", encodeChange(change), options.ttlMs, keys.channel(id), id, change.rejoinMs ?? "", publish];
      const [written, replicas] = (await run(() => script.run([keys.search(id), keys.changes(id)], args))) as [number, number?];
      if (written === -3) return "behind";
      if (written === -2) places.forget(id);
      if (written < 0) return false;
      if (change.completed) {
        if (!(await confirmedOrBehind(id, replicas ?? 0, change.version))) return "behind";
        await places.release(id);
      } else if (written > maxChanges) {
        // The change is recorded either way; a failed compaction only leaves the log longer until the next one.
        await compact(id, written).catch((e: unknown) =>
          logger.log({ level: "warn", msg: "redis.compaction_failed", searchId: id, error: e instanceof Error ? e.message : String(e) }),
        );
      }
      return true;
    },
    async changes(id, afterVersion) {
      const raw = (await run(() => scripts.changesAfter.run([keys.changes(id)], [afterVersion]))) as string[];
      const all = raw.map(decodeChange);
      // The script already cut the log unless it looked irregular; the same rule as the memory store either way.
      const first = all.findIndex((c: SearchChange) => c.version > afterVersion);
      return first < 0 ? [] : all.slice(first);
    },
    async acquireLease(id, owner, leaseMs, written) {
      const takeover = !places.holds(id);
      const of = takeover ? await placeOf(id) : undefined;
      if (takeover) {
        if (!of) return false;
        try {
          await places.take(id, of.tenant, of.deadlineAt, leaseMs);
        } catch (e) {
          if (!(e instanceof SessionCapacityReached)) throw e;
          logger.log({ level: "info", msg: "search.takeover_deferred", searchId: id, scope: e.scope, detail: "no place under the cap: taken over once one frees" });
          return false;
        }
      }
      const code = (await run(() => scripts.acquire.run([keys.search(id)], [owner, leaseMs, written ?? ""]))) as number;
      if (code === -3) return "behind";
      if (code !== 1) {
        places.forget(id);
        return false;
      }
      if (of) places.hold(id, of.tenant, of.deadlineAt, leaseMs);
      return true;
    },
    async releaseLease(id, owner) {
      await run(() => scripts.release.run([keys.search(id)], [owner]));
      await places.release(id);
    },
    watch(id, listener) {
      return run(() => watchers.watch(keys.channel(id), listener));
    },
    async restore(record, change, owner, leaseMs) {
      const f = recordToFields(record);
      const args = [
        record.id, f.rec, owner, leaseMs, change.version, change.completed ? "1" : "0", encodeChange({ ...change, cumulative: true }),
        options.ttlMs, record.deadlineAt + options.ttlMs, keys.channel(record.id), change.rejoinMs ?? "", publish,
      ];
      const [written, replicas] = (await run(() => scripts.restore.run([keys.mapping(record.key), keys.search(record.id), keys.changes(record.id)], args))) as [number, number?];
      if (written === -2) places.forget(record.id);
      if (written !== 1) return false;
      if (!change.completed) {
        places.hold(record.id, record.tenant, record.deadlineAt, leaseMs);
        return true;
      }
      if (!(await confirmedOrBehind(record.id, replicas ?? 0, change.version))) return false;
      await places.release(record.id);
      return true;
    },
    async ready() {
      if (!guard.available()) return false;
      try {
        return (await run(() => redis.ping())) === "PONG";
      } catch {
        return false;
      }
    },
    onAvailability(listener) {
      return guard.onChange(listener);
    },
    async close() {
      places.close();
      await watchers.close();
      await confirmed.close();
      await closeConnection();
    },
    connection,
  };
};
