import { createHash } from "node:crypto";
import type { RedisClient } from "./topology/open-client.js";

/** A Lua script bound to a client: `run(keys, args)` evaluates it by its SHA-1, loading it when Redis lacks it. */
export interface LuaScript {
  run(keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

/**
 * Binds a Lua script to a client. The script travels once per server (after a restart or `SCRIPT FLUSH`,
 * Redis answers `NOSCRIPT` and the text is sent again); every other call sends only its SHA-1. The error is
 * recognised by its Redis error code, the first word of the reply, as the protocol defines it. On a cluster each
 * primary keeps its own scripts (a promoted replica has none yet): the same fallback loads them there.
 */
export const luaScript = (redis: RedisClient, lua: string): LuaScript => {
  const sha = createHash("sha1").update(lua).digest("hex");
  return {
    async run(keys, args) {
      try {
        return await redis.evalsha(sha, keys.length, ...keys, ...args);
      } catch (e) {
        if (!(e instanceof Error && e.message.startsWith("NOSCRIPT"))) throw e;
        return redis.eval(lua, keys.length, ...keys, ...args);
      }
    },
  };
};
