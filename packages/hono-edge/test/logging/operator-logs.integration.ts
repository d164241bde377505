import { afterEach, describe, expect, it } from "vitest";
import { freePort, ownRedis } from "../redis/support/own-redis.js";
import { startVoarServer } from "../redis/support/voar-server.js";

/**
 * The log as an operator reads it, from `voar-server` itself: every line is JSON with its time; a Redis URL whose
 * password the server does not need is one named warning, not ioredis's raw lines on stderr; a login attack is a
 * line and a count, not a line per attempt; nothing reaches stderr.
 */

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

describe("voar-server's log", () => {
  it("timestamps every line, names ioredis's password warning instead of printing it, summarises refused logins, writes nothing to stderr", async () => {
    const redis = ownRedis(await freePort());
    await redis.start();
    cleanup.push(() => redis.stop());
    const server = await startVoarServer({
      VOAR_API_KEYS: "ops:ops-api-key-0123456789",
      VOAR_AGENCIES: "agencia1:s3nha-certa-da-agencia",
      VOAR_TOKEN_SECRET: "a-token-signing-secret-of-32-chars-at-least",
      // A password this Redis does not ask for (ioredis warns with console.warn on each connection).
      VOAR_STORE_REDIS_URL: redis.url.replace("redis://", "redis://:not-needed-0123@"),
      VOAR_LOGIN_LIMIT_PER_CLIENT_CAPACITY: "1000",
      VOAR_LOGIN_LIMIT_PER_ACCOUNT_CAPACITY: "1000",
      VOAR_LOGIN_LIMIT_PER_ACCOUNT_SUSTAINED_CAPACITY: "1000",
      VOAR_LOGIN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES_CAPACITY: "1000",
      VOAR_LOGIN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES_SUSTAINED_CAPACITY: "1000",
    });
    cleanup.push(() => server.stop());
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${server.baseUrl}/api/Token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "password", username: "agencia1", password: `errada-${i}` }).toString(),
      });
      expect(res.status).toBe(400);
    }
    expect((await fetch(`${server.baseUrl}/ready`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the log's last batch
    const logs = server.logs();
    for (const line of logs) expect(new Date(line["time"] as string).toISOString()).toBe(line["time"]);
    expect(logs.filter((r) => r.msg === "redis.password_not_needed")).toHaveLength(1);
    expect(logs.filter((r) => r.msg === "login.failed")).toHaveLength(1);
    expect(logs.some((r) => String(r.msg).startsWith("console."))).toBe(false);
    expect(server.stderr()).toBe("");
  }, 60_000);
});
