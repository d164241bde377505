import type { Redis } from "ioredis";
import { silentLogger, type Logger } from "../logging/logger.js";
import { mergeChanges, type SearchChange } from "../search/search-change.js";
import { SessionCapacityReached, type SearchRecord, type SessionStore } from "../search/session-store.js";
import { luaScript } from "./lua-runner.js";
import { ACQUIRE_LEASE, APPEND, CHANGES_AFTER, COMPACT, OPEN_OR_JOIN, RELEASE_LEASE, RESTORE } from "./lua-scripts.js";
import { decodeChange, encodeChange, pairsToHash, recordFromHash, recordToFields } from "./record-codec.js";
import { redisKeys } from "./redis-keys.js";
import { isRedisConnection, openRedisConnection, type RedisConnection } from "./redis-connection.js";
import { createRedisWatchers } from "./redis-watchers.js";
import { createRedisCalendarStore } from "./redis-calendar-store.js";

/** Options of {@link createRedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /**
   * The Redis to use: a {@link RedisConnection} (`openRedisConnection`: shared with the rate limiters, one
   * view of Redis's availability for both; the caller closes it), a URL (`redis://127.0.0.1:6379`; the store
   * opens and closes its connections) or an ioredis client (the caller keeps it and closes it; the store only
   * duplicates it for pub/sub). Give the client no ioredis `keyPrefix` of its own: the scripts derive keys
   * from `keyPrefix` below.
   */
  readonly redis: string | Redis | RedisConnection;
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
 * A {@link SessionStore} on Redis, for several instances serving the same searches: snapshots are shared as
 * a per-search log of changes, a search is opened atomically per query, each append checks the lease in
 * the same Lua script that writes it (so an instance that lost its lease can never write again), watchers
 * hear of new versions through pub/sub, and Redis expires everything by itself (`PEXPIRE`). Node-only:
 * import it from `@voar/hono-edge/redis`.
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
  const logger = options.logger ?? silentLogger;
  const keys = redisKeys(options.keyPrefix ?? "voar:");
  const maxChanges = Math.max(2, options.maxChangesPerSearch ?? 256);
  // The subscriber may queue its SUBSCRIBE while it (re)connects: the guard has checked the main connection
  // first, and bounds the wait.
  const watchers = createRedisWatchers(() => connection.duplicate({ enableOfflineQueue: true }), logger);
  // Connected from the start, with the command client: the first stream's SUBSCRIBE then waits for no
  // connection setup, which on a distant or TLS Redis could take most of the command timeout.
  watchers.connect();
  // A Redis declared unavailable (down, or frozen with its connections open) wakes every watcher: each reads
  // the store, learns that it is unavailable and ends its stream with a retryable event, instead of waiting
  // in silence for a message that cannot come.
  guard.onChange((available) => {
    if (!available) watchers.interrupt();
  });
  const scripts = {
    open: luaScript(redis, OPEN_OR_JOIN),
    append: luaScript(redis, APPEND),
    acquire: luaScript(redis, ACQUIRE_LEASE),
    release: luaScript(redis, RELEASE_LEASE),
    changesAfter: luaScript(redis, CHANGES_AFTER),
    compact: luaScript(redis, COMPACT),
    restore: luaScript(redis, RESTORE),
  };
  const { run } = guard;

  /** Expiry of a new search: completed ones `ttl` after completion, the others `ttl` after their deadline. */
  const expiresAt = (r: SearchRecord) => (r.completed ? (r.completedAt ?? r.createdAt) : r.deadlineAt) + options.ttlMs;

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

  return {
    // The price calendars beside the searches, on the same connection and guard.
    calendars: createRedisCalendarStore({ redis, guard, keys, ttlMs: options.ttlMs }),
    async openOrJoin(candidate) {
      const f = recordToFields(candidate);
      const reply = (await run(() =>
        scripts.open.run(
          [keys.mapping(candidate.key), keys.search(candidate.id), keys.changes(candidate.id), keys.running, keys.runningOf(candidate.tenant)],
          [
            candidate.id,
            f.rec,
            f.owner,
            f.exp,
            f.done,
            f.doneAt,
            expiresAt(candidate),
            keys.searchPrefix,
            options.maxSessions ?? 0,
            options.maxSessionsPerTenant ?? 0,
            candidate.deadlineAt,
          ],
        ),
      )) as [number, string?, (string[] | number)?];
      if (reply[0] === 1) return { record: candidate, created: true };
      if (reply[0] === 2) {
        const scope = reply[1] === "tenant" ? "tenant" : "instance";
        throw new SessionCapacityReached(scope, Math.max(1, Math.ceil(Number(reply[2]) / 1_000)));
      }
      const record = recordFromHash(pairsToHash((reply[2] as string[] | undefined) ?? []));
      if (!record) throw new Error(`redis session store: search ${reply[1] ?? "?"} has no record`);
      return { record, created: false };
    },
    async get(id) {
      return recordFromHash(await run(() => redis.hgetall(keys.search(id))));
    },
    async append(id, change, owner, leaseMs) {
      const length = (await run(() =>
        scripts.append.run(
          [keys.search(id), keys.changes(id)],
          [owner, leaseMs, change.version, change.completed ? "1" : "0", encodeChange(change), options.ttlMs, keys.channel(id), id, change.rejoinMs ?? ""],
        ),
      )) as number;
      if (length < 0) return false;
      if (length > maxChanges && !change.completed) {
        // The change is recorded either way; a failed compaction only leaves the log longer until the next one.
        await compact(id, length).catch((e: unknown) =>
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
    async acquireLease(id, owner, leaseMs) {
      return (await run(() => scripts.acquire.run([keys.search(id)], [owner, leaseMs]))) === 1;
    },
    async releaseLease(id, owner) {
      await run(() => scripts.release.run([keys.search(id)], [owner]));
    },
    watch(id, listener) {
      return run(() => watchers.watch(keys.channel(id), listener));
    },
    async restore(record, change, owner, leaseMs) {
      const f = recordToFields(record);
      const reply = await run(() =>
        scripts.restore.run(
          [keys.mapping(record.key), keys.search(record.id), keys.changes(record.id)],
          [
            record.id,
            f.rec,
            owner,
            leaseMs,
            change.version,
            change.completed ? "1" : "0",
            encodeChange({ ...change, cumulative: true }),
            options.ttlMs,
            record.deadlineAt + options.ttlMs,
            keys.channel(record.id),
            change.rejoinMs ?? "",
          ],
        ),
      );
      return reply === 1;
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
      await watchers.close();
      await closeConnection();
    },
    connection,
  };
};
