import type { Redis } from "ioredis";
import { memoryLoginStore, type HeldToken, type LoginStore } from "@voar/http-adapter/fetch";
import { isStoreUnavailable } from "../errors/service-errors.js";
import { silentLogger, type Logger } from "../logging/logger.js";
import { isRedisConnection, openRedisConnection, type RedisConnection } from "./redis-connection.js";

/** Options of {@link redisLoginStore}. */
export interface RedisLoginStoreOptions {
  /** The Redis: the {@link RedisConnection} the session store runs on (one availability view), or an ioredis client. */
  readonly redis: Redis | RedisConnection;
  /** Prefix of the keys (the deployment's, its fingerprint in it): `<prefix>upstream-login:token` and `:claim`. */
  readonly keyPrefix?: string | undefined;
  /** Where the token lives while Redis cannot answer. Default: this process's memory. */
  readonly fallback?: LoginStore | undefined;
  /** Where the switches to and from the fallback are reported. Default: nowhere. */
  readonly logger?: Logger | undefined;
}

/** Deletes the token only when it is the one refused (another instance may have put a new one meanwhile). */
const DROP = `if redis.call('GET', KEYS[1]) and string.find(redis.call('GET', KEYS[1]), ARGV[1], 1, true) then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * The upstream's token and the claim on its next login, on Redis, shared by every instance of the deployment:
 * one of them logs in (`SET claim NX PX`), the others take the token it keeps (until it expires), so the
 * account logs in once for all of them, and a refused token is dropped for all. The token is a credential of
 * the upstream account: it sits on the deployment's Redis for its lifetime, as the searches do; give that
 * Redis a password and keep it private.
 *
 * Every call goes through the Redis's availability view: while Redis is down or frozen each instance keeps
 * its own token and logins (the `fallback`); the switch is logged once (`login.fallback`, warn) and so is the
 * way back (`login.shared`, info).
 *
 * @example
 * const login = redisLoginStore({ redis: connection, keyPrefix });
 * const upstream = upstreamSourcesFor(config.upstream, await import("@voar/http-adapter"), { loginStore: login });
 */
export const redisLoginStore = (options: RedisLoginStoreOptions): LoginStore => {
  const connection = isRedisConnection(options.redis) ? options.redis : openRedisConnection(options.redis);
  const redis = connection.client;
  const token = `${options.keyPrefix ?? "voar:"}upstream-login:token`;
  const claim = `${options.keyPrefix ?? "voar:"}upstream-login:claim`;
  const fallback = options.fallback ?? memoryLoginStore();
  const logger = options.logger ?? silentLogger;
  let fallingBack = false;

  const onRedis = async <T>(call: () => Promise<T>, instead: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await connection.guard.run(call);
    } catch (e) {
      if (!isStoreUnavailable(e)) throw e;
      if (!fallingBack) {
        fallingBack = true;
        logger.log({ level: "warn", msg: "login.fallback", error: e.message, detail: "each instance logs in to the upstream on its own until Redis answers" });
      }
      return instead();
    }
    if (fallingBack) {
      fallingBack = false;
      logger.log({ level: "info", msg: "login.shared" });
    }
    return result;
  };

  const read = (text: string | null): HeldToken | undefined => {
    if (!text) return undefined;
    try {
      const held = JSON.parse(text) as Partial<HeldToken>;
      return typeof held.token === "string" && typeof held.refreshAt === "number" ? { token: held.token, refreshAt: held.refreshAt } : undefined;
    } catch {
      return undefined; // not ours: a login replaces it
    }
  };

  return {
    get: () => onRedis(async () => read(await redis.get(token)), () => fallback.get()),
    set: (held, ttlMs) =>
      onRedis(
        async () => void (await redis.set(token, JSON.stringify(held), "PX", Math.max(1, Math.round(ttlMs)))),
        () => fallback.set(held, ttlMs),
      ),
    drop: (refused) => onRedis(async () => void (await redis.eval(DROP, 1, token, JSON.stringify(refused))), () => fallback.drop(refused)),
    claim: (ms) => onRedis(async () => (await redis.set(claim, "1", "PX", Math.max(1, Math.round(ms)), "NX")) === "OK", () => fallback.claim(ms)),
    release: () => onRedis(async () => void (await redis.del(claim)), () => fallback.release()),
  };
};
