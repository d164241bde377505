import { describe, expect, it } from "vitest";
import { createApp } from "../src/app/create-app.js";
import { ENV_VARS } from "../src/config/env-config.js";
import { ConfigError, defineConfig, loadConfig } from "../src/config/load-config.js";
import { silentLogger } from "../src/logging/logger.js";
import { fastSources } from "./support/app.js";

const KEY = "a-valid-api-key-0123456789";

describe("loadConfig", () => {
  it("fills every default from a minimal file", () => {
    const result = loadConfig({ file: { apiKeys: [{ name: "acme", key: KEY }] } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      basePath: "/api",
      limits: { bodyBytes: 16_384, maxSessions: 1_000, rateLimit: { capacity: 60, refillPerSecond: 5 } },
      search: { deadlineMs: 60_000, ttlMs: 600_000, pollHintMs: 500 },
      tokens: { ttlSeconds: 3_600 },
      cors: { origins: [] },
      pagante: {},
    });
  });

  it("reads every setting from VOAR_* variables, over the file", () => {
    const result = loadConfig({
      file: { basePath: "/file", limits: { bodyBytes: 2_048, maxSessions: 5 } },
      env: {
        VOAR_BASE_PATH: "/env",
        VOAR_API_KEYS: `acme:${KEY},beta:another-key:with-colon-123`,
        VOAR_AGENCIES: "agencia1:password:1234",
        VOAR_ADMIN_KEYS: "admin-key-0123456789abc",
        VOAR_TOKEN_SECRET: "x".repeat(32),
        VOAR_LEGACY_API_KEYS: "old-app:a-legacy-client-key-0123",
        VOAR_LEGACY_AGENCIES: "agencia2:legacy:pass",
        VOAR_TOKEN_TTL_SECONDS: "900",
        VOAR_PAGANTE: "1=off,2=on",
        VOAR_BODY_LIMIT_BYTES: "4096",
        VOAR_RATE_LIMIT_CAPACITY: "10",
        VOAR_RATE_LIMIT_REFILL_PER_SECOND: "0.5",
        VOAR_MAX_SESSIONS_PER_TENANT: "3",
        VOAR_SEARCH_DEADLINE_MS: "30000",
        VOAR_SEARCH_TTL_MS: "1000",
        VOAR_SOURCES: "latam, gol",
        VOAR_CORS_ORIGINS: "*",
        VOAR_SSE_KEEPALIVE_MS: "5000",
      },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const c = result.config;
    expect(c.basePath).toBe("/env");
    expect(c.apiKeys).toEqual([
      { name: "acme", key: KEY, compat: "spec" },
      { name: "beta", key: "another-key:with-colon-123", compat: "spec" },
      { name: "old-app", key: "a-legacy-client-key-0123", compat: "legacy" },
    ]);
    expect(c.agencies).toEqual([
      { username: "agencia1", password: "password:1234", compat: "spec" },
      { username: "agencia2", password: "legacy:pass", compat: "legacy" },
    ]);
    expect(c.pagante).toEqual({ "1": false, "2": true });
    expect(c.limits).toMatchObject({ bodyBytes: 4_096, maxSessions: 5, maxSessionsPerTenant: 3, rateLimit: { capacity: 10, refillPerSecond: 0.5 } });
    expect(c.search).toMatchObject({ deadlineMs: 30_000, ttlMs: 1_000, sources: ["latam", "gol"] });
    expect(c.cors.origins).toBe("*");
    expect(c.sse.keepAliveMs).toBe(5_000);
    expect(c.tokens.ttlSeconds).toBe(900);
  });

  it("compat is per API key and per agency, \"spec\" unless set; the legacy lists alone configure only legacy clients", () => {
    const file = loadConfig({
      file: { apiKeys: [{ name: "acme", key: KEY }, { name: "old", key: `${KEY}-old`, compat: "legacy" }], agencies: [{ username: "ag", password: "password-1", compat: "legacy" }] },
    });
    expect(file.ok && file.config.apiKeys.map((k) => k.compat)).toEqual(["spec", "legacy"]);
    expect(file.ok && file.config.agencies.map((a) => a.compat)).toEqual(["legacy"]);
    const env = loadConfig({ env: { VOAR_LEGACY_API_KEYS: `old:${KEY}` } });
    expect(env.ok && env.config.apiKeys).toEqual([{ name: "old", key: KEY, compat: "legacy" }]);
    const bad = loadConfig({ file: { apiKeys: [{ name: "acme", key: KEY, compat: "v1" }] } });
    expect(!bad.ok && bad.errors[0]).toMatch(/^apiKeys\.0\.compat: /);
    const short = loadConfig({ env: { VOAR_API_KEYS: `acme:${KEY}`, VOAR_LEGACY_API_KEYS: "old:short" } });
    expect(!short.ok && short.errors).toEqual(["apiKeys.1.key: must have at least 16 characters (from VOAR_API_KEYS or VOAR_LEGACY_API_KEYS)"]);
  });

  it("refuses a token lifetime a client renewing 10 min early could not use (under 900 s), saying why", () => {
    const result = loadConfig({ env: { VOAR_API_KEYS: `acme:${KEY}`, VOAR_TOKEN_TTL_SECONDS: "600" } });
    expect(!result.ok && result.errors).toEqual([
      "tokens.ttlSeconds: must be at least 900 s: clients renew a token 10 min (600 s) before it expires (from VOAR_TOKEN_TTL_SECONDS)",
    ]);
    expect(loadConfig({ env: { VOAR_API_KEYS: `acme:${KEY}`, VOAR_TOKEN_TTL_SECONDS: "900" } }).ok).toBe(true);
  });

  it("every VOAR_* variable names a setting of the schema", () => {
    const result = loadConfig({
      file: { apiKeys: [{ name: "acme", key: KEY }], upstream: { url: "https://up.example/api", token: "t", cache: {} }, store: { redis: { url: "redis://r:6379" } } },
    });
    if (!result.ok) throw new Error("unreachable");
    for (const [name, v] of Object.entries(ENV_VARS)) {
      expect(name).toMatch(/^VOAR_[A-Z_]+$/);
      const parent = v.path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], result.config);
      expect(typeof parent, name).toBe("object");
    }
  });

  it("reads the login limits from VOAR_* variables", () => {
    const result = loadConfig({
      env: {
        VOAR_API_KEYS: `acme:${KEY}`,
        VOAR_LOGIN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES_CAPACITY: "7",
        VOAR_LOGIN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES_SUSTAINED_REFILL_PER_SECOND: "0.001",
        VOAR_LOGIN_LIMIT_SUCCESSES_CAPACITY: "1000",
        VOAR_LOGIN_REMEMBER_ADDRESS_SECONDS: "86400",
      },
    });
    expect(result.ok && result.config.limits.login).toMatchObject({
      perAccountAllAddresses: { capacity: 7, refillPerSecond: 1 / 60 },
      perAccountAllAddressesSustained: { capacity: 50, refillPerSecond: 0.001 },
      successes: { capacity: 1_000, refillPerSecond: 5 },
      rememberAddressSeconds: 86_400,
    });
  });

  it("reports every problem on its own line, naming the setting and its variable, never the secret", () => {
    const result = loadConfig({
      file: { limits: { bodyBytes: 10 }, cors: { origins: ["not a url"] }, pagante: { "999": false }, unknown: 1 },
      env: { VOAR_API_KEYS: "acme:short-secret", VOAR_SEARCH_DEADLINE_MS: "soon" },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual(["VOAR_SEARCH_DEADLINE_MS: \"soon\" is not a number"]);
    const second = loadConfig({
      file: { limits: { bodyBytes: 10 }, cors: { origins: ["not a url"] }, pagante: { "999": false }, unknown: 1 },
      env: { VOAR_API_KEYS: "acme:short-secret" },
    });
    expect(second.ok).toBe(false);
    if (second.ok) return;
    const text = second.errors.join("\n");
    expect(text).toMatch(/^apiKeys\.0\.key: must have at least 16 characters \(from VOAR_API_KEYS\)$/m);
    expect(text).toMatch(/^limits\.bodyBytes: /m);
    expect(text).toMatch(/^cors\.origins\.0: /m);
    expect(text).toMatch(/^pagante: Unrecognized key: "999"$/m);
    expect(text).toMatch(/^\(root\): Unrecognized key: "unknown"$/m);
    expect(text).not.toContain("short-secret");
  });

  it("refuses a configuration with no credentials, duplicate keys, or an admin key that is also an API key", () => {
    const none = loadConfig({ env: {} });
    expect(!none.ok && none.errors[0]).toMatch(/^apiKeys: configure at least one API key or one agency/);
    expect(() => defineConfig({ apiKeys: [{ name: "a", key: KEY }, { name: "a", key: `${KEY}x` }] })).toThrow(/duplicate API key name "a"/);
    expect(() => defineConfig({ apiKeys: [{ name: "a", key: KEY }], adminKeys: [KEY] })).toThrow(ConfigError);
    expect(() => defineConfig({ apiKeys: [{ name: "a", key: KEY }], adminKeys: [{ name: "ops", key: KEY }] })).toThrow(/an admin key must not also be an API key/);
    const admin = (n: number) => ({ name: "ops", key: `an-admin-key-0123456789-${n}` });
    expect(() => defineConfig({ apiKeys: [{ name: "a", key: KEY }], adminKeys: [admin(1), admin(2)] })).toThrow(/duplicate admin key name "ops"/);
    expect(() => defineConfig({ apiKeys: [{ name: "a", key: KEY }], basePath: "/api/" })).toThrow(/basePath/);
  });

  it("admin keys come alone (VOAR_ADMIN_KEYS) or with the name the audit log gives their holder (VOAR_NAMED_ADMIN_KEYS)", () => {
    const r = loadConfig({ env: { VOAR_API_KEYS: `a:${KEY}`, VOAR_ADMIN_KEYS: "plain-admin-key-0123456789", VOAR_NAMED_ADMIN_KEYS: "ana:named:admin-key-0123456789" } });
    expect(r.ok && r.config.adminKeys).toEqual([
      { name: undefined, key: "plain-admin-key-0123456789" },
      { name: "ana", key: "named:admin-key-0123456789" },
    ]);
  });

  it("a file that is not an object is refused", () => {
    expect(loadConfig({ file: [1, 2] })).toEqual({ ok: false, errors: ["configuration file: must hold a JSON object"] });
  });

  it("createApp refuses sources the configuration names but nobody gave", () => {
    const config = defineConfig({ apiKeys: [{ name: "a", key: KEY }], search: { sources: ["latam", "nope"] } });
    expect(() => createApp({ config, sources: fastSources(), logger: silentLogger })).toThrow(/unknown source id\(s\) nope; available: latam, gol/);
  });
});
