import { AIRLINES } from "@voar/core";
import { silentLogger, type Logger } from "../logging/logger.js";
import { paganteList, paganteOffIn, type PaganteSettings } from "../settings/pagante-settings.js";
import { luaScript } from "./lua-runner.js";
import type { RedisConnection } from "./redis-connection.js";
import { createRedisWatchers } from "./redis-watchers.js";

/**
 * Seeds the switch from an instance's configuration where the store has none (`HSETNX`: the first instance to
 * start decides, so instances with different `VOAR_PAGANTE` still agree), and reads it. KEYS: the hash. ARGV:
 * pairs of airline id and `1`/`0`. Returns `HGETALL`.
 */
const SEED = `for i = 1, #ARGV, 2 do redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end
return redis.call('HGETALL', KEYS[1])`;

/**
 * Sets one airline's switch and announces the change. KEYS: the hash. ARGV: airline id, `1`/`0`, the channel,
 * `PUBLISH` or `SPUBLISH`. Returns the value before (nil when none was stored).
 */
const SET = `local before = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call(ARGV[4], ARGV[3], ARGV[1])
return before`;

/** Options of {@link redisPaganteSettings}. */
export interface RedisPaganteSettingsOptions {
  /** The Redis the searches live on (`openRedisConnection`). */
  readonly redis: RedisConnection;
  /** The deployment's prefix (its fingerprint in it): the switch is the deployment's. Default `voar:`. */
  readonly keyPrefix?: string | undefined;
  /** The configuration's switch (`pagante`), for airlines the store has none of yet. */
  readonly initial: Readonly<Partial<Record<string, boolean>>>;
  /** Where a switch that could not be read is reported. Default: nowhere. */
  readonly logger?: Logger | undefined;
  /** How often the switch is read again, whatever was announced (a change missed in an outage). Default 5,000 ms. */
  readonly refreshMs?: number | undefined;
}

/** The switch in Redis: the port, `ready()` to wait for the first read (asked again for up to 5 s while Redis does not answer), and `close()`. */
export interface RedisPaganteSettings extends PaganteSettings {
  /** Resolves once the switch was read from Redis (or could not be: the configuration's stands until it is). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The Pagante switch shared by every instance of a deployment: a Redis hash (`<prefix>settings:{pagante}`, airline
 * id -> `1`/`0`) that a `PUT /admin/pagante` on any instance changes, with the change announced on a channel in the
 * same slot (sharded on a cluster) so that every instance reads it again at once, and read again every few seconds
 * in case an announcement was lost. Requests read the instance's copy (no round trip per search). An instance
 * that starts reads it (`ready()`); the first one seeds it from its configuration. While Redis cannot answer, a
 * change answers 503 `INDISPONIVEL` and the instances keep the switch they last read.
 *
 * @example
 * const pagante = redisPaganteSettings({ redis: connection, keyPrefix, initial: config.pagante });
 * await pagante.ready();
 * const app = createApp({ config, sources, store, pagante });
 */
export const redisPaganteSettings = (o: RedisPaganteSettingsOptions): RedisPaganteSettings => {
  const { client, guard, topology } = o.redis;
  const logger = o.logger ?? silentLogger;
  const prefix = o.keyPrefix ?? "voar:";
  const hash = `${prefix}settings:{pagante}`;
  const channel = `${prefix}settings:{pagante}:changed`;
  const publish = topology === "cluster" ? "SPUBLISH" : "PUBLISH";
  const seed = luaScript(client, SEED);
  const setScript = luaScript(client, SET);
  const initial = paganteOffIn(o.initial);
  let off = new Set(initial);
  let failing = false;

  const apply = (flat: readonly string[]) => {
    const stored = new Map<number, boolean>();
    for (let i = 0; i + 1 < flat.length; i += 2) stored.set(Number(flat[i]), flat[i + 1] === "1");
    off = new Set(AIRLINES.filter((a) => (stored.has(a.id) ? !stored.get(a.id) : initial.has(a.id))).map((a) => a.id));
  };
  const read = async () => {
    try {
      const seedArgs = AIRLINES.flatMap((a) => [a.id, initial.has(a.id) ? "0" : "1"]);
      apply((await guard.run(() => seed.run([hash], seedArgs))) as string[]);
      if (failing) logger.log({ level: "info", msg: "pagante.shared" });
      failing = false;
    } catch (e) {
      // `info`: the outage itself is the store's `store.down` (once per instance).
      if (!failing) logger.log({ level: "info", msg: "pagante.unread", error: e instanceof Error ? e.message : String(e), detail: "the switch last read stands until Redis answers" });
      failing = true;
    }
  };

  const watchers = createRedisWatchers(() => o.redis.subscriber(), logger, topology === "cluster");
  // Subscribed once (the client subscribes again by itself after a reconnection); tried again when Redis is back
  // if it could not be at first.
  let subscribed: Promise<boolean> | undefined;
  const subscribe = () =>
    (subscribed ??= guard.run(() => watchers.watch(channel, () => void read())).then(
      () => true,
      () => ((subscribed = undefined), false),
    ));
  const watching = subscribe();
  const unwatchGuard = guard.onChange((available) => {
    if (!available) return;
    void subscribe();
    void read();
  });
  const timer = setInterval(() => void read(), o.refreshMs ?? 5_000);
  timer.unref?.();
  const first = read();

  return {
    list: () => Promise.resolve(paganteList(off)),
    hiddenCashAirlines: () => Promise.resolve([...off].sort((a, b) => a - b)),
    async set(airlineId, enabled) {
      const before = (await guard.run(() => setScript.run([hash], [airlineId, enabled ? "1" : "0", channel, publish]))) as string | null;
      // This instance at once; the others when the announcement reaches them.
      if (enabled) off.delete(airlineId);
      else off.add(airlineId);
      return before === null ? !initial.has(airlineId) : before === "1";
    },
    ready: async () => {
      await Promise.all([first, watching]);
      // A store not answering yet (a cluster client still connecting): asked again for a few seconds, so an
      // instance that starts serves the shared switch rather than its own configuration's.
      for (let tries = 0; failing && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await read();
      }
    },
    async close() {
      clearInterval(timer);
      unwatchGuard();
      await watchers.close();
    },
  };
};
