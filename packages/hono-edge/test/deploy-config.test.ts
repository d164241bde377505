import { createFanOutSources, createUpstreamSource } from "@voar/http-adapter/fetch";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { upstreamSourcesFor } from "../src/sources/upstream-sources.js";
import { upstreamCacheOf } from "../src/config/deploy-schema.js";

const KEY = "a-valid-api-key-0123456789";
const base = { apiKeys: [{ name: "acme", key: KEY }] };

const errorsOf = (file: Record<string, unknown>, env: Record<string, string> = {}) => {
  const r = loadConfig({ file: { ...base, ...file }, env });
  return r.ok ? [] : r.errors;
};

describe("upstream and store settings", () => {
  it("default to the embedded simulator and the in-memory store", () => {
    const r = loadConfig({ file: base });
    expect(r.ok && r.config.upstream).toBeUndefined();
    expect(r.ok && r.config.store).toEqual({ memory: {} });
  });

  it("read the upstream and the Redis store from VOAR_* variables", () => {
    const r = loadConfig({
      file: base,
      env: {
        VOAR_UPSTREAM_URL: "https://up.example/api",
        VOAR_UPSTREAM_USERNAME: "agencia",
        VOAR_UPSTREAM_PASSWORD: "segredo",
        VOAR_UPSTREAM_AIRLINES: "1, 2,3",
        VOAR_UPSTREAM_OTAS: "false",
        VOAR_UPSTREAM_STRATEGY: "fan-out",
        VOAR_UPSTREAM_REQUEST_TIMEOUT_MS: "5000",
        VOAR_STORE_REDIS_URL: "redis://10.0.0.5:6379/2",
        VOAR_STORE_REDIS_KEY_PREFIX: "prod:",
      },
    });
    if (!r.ok) throw new Error(r.errors.join("\n"));
    expect(r.config.upstream).toEqual({
      url: "https://up.example/api",
      username: "agencia",
      password: "segredo",
      airlines: [1, 2, 3],
      otas: false,
      strategy: "fan-out",
      requestTimeoutMs: 5_000,
      breaker: { enabled: true, failureThreshold: 3, cooldownMs: 30_000 },
      budget: { enabled: true, requestsPerSource: 32 },
    });
    expect(r.config.store).toEqual({ redis: { url: "redis://10.0.0.5:6379/2", keyPrefix: "prod:", exitAfterUnavailableMs: 60_000 } });
  });

  it("read the answer cache from VOAR_UPSTREAM_CACHE_* variables, and refuse a freshness window under a second", () => {
    const upstream = { VOAR_UPSTREAM_URL: "https://up.example/api", VOAR_UPSTREAM_TOKEN: "t" };
    const r = loadConfig({
      file: base,
      env: { ...upstream, VOAR_UPSTREAM_CACHE_ENABLED: "false", VOAR_UPSTREAM_CACHE_FRESH_MS: "60000", VOAR_UPSTREAM_CACHE_STALE_MS: "0", VOAR_UPSTREAM_CACHE_MAX_ENTRIES: "500" },
    });
    if (!r.ok) throw new Error(r.errors.join("\n"));
    expect(r.config.upstream?.cache).toEqual({ enabled: false, freshMs: 60_000, staleMs: 0, maxEntries: 500 });
    // Absent: on, with the defaults.
    expect(upstreamCacheOf({})).toEqual({ enabled: true, freshMs: 300_000, staleMs: 300_000, maxEntries: 2_000 });
    expect(errorsOf({}, { ...upstream, VOAR_UPSTREAM_CACHE_FRESH_MS: "10" })[0]).toMatch(/^upstream\.cache\.freshMs: .*\(from VOAR_UPSTREAM_CACHE_FRESH_MS\)$/);
  });

  it("read the upstream's breakers and request budget from VOAR_UPSTREAM_BREAKER_* and VOAR_UPSTREAM_BUDGET_*, and name a bad one", () => {
    const r = loadConfig({
      file: base,
      env: {
        VOAR_UPSTREAM_URL: "https://up.example/api",
        VOAR_UPSTREAM_TOKEN: "t",
        VOAR_UPSTREAM_BREAKER_FAILURE_THRESHOLD: "5",
        VOAR_UPSTREAM_BREAKER_COOLDOWN_MS: "60000",
        VOAR_UPSTREAM_BUDGET_REQUESTS_PER_SEARCH: "120",
        VOAR_UPSTREAM_BUDGET_ENABLED: "on",
      },
    });
    if (!r.ok) throw new Error(r.errors.join("\n"));
    expect(r.config.upstream).toMatchObject({ breaker: { enabled: true, failureThreshold: 5, cooldownMs: 60_000 }, budget: { enabled: true, requestsPerSearch: 120, requestsPerSource: 32 } });
    const off = loadConfig({ file: base, env: { VOAR_UPSTREAM_URL: "https://up.example/api", VOAR_UPSTREAM_TOKEN: "t", VOAR_UPSTREAM_BREAKER_ENABLED: "false" } });
    expect(off.ok && off.config.upstream?.breaker.enabled).toBe(false);
    expect(errorsOf({}, { VOAR_UPSTREAM_URL: "https://up.example/api", VOAR_UPSTREAM_TOKEN: "t", VOAR_UPSTREAM_BREAKER_COOLDOWN_MS: "10" })).toEqual([
      expect.stringMatching(/^upstream\.breaker\.cooldownMs: .*\(from VOAR_UPSTREAM_BREAKER_COOLDOWN_MS\)$/),
    ]);
  });

  it("a Redis URL in the environment replaces a file's in-memory store; VOAR_REDIS_URL is an alias", () => {
    const r = loadConfig({ file: { ...base, store: { memory: {} } }, env: { VOAR_REDIS_URL: "redis://127.0.0.1:6379" } });
    expect(r.ok && r.config.store).toEqual({ redis: { url: "redis://127.0.0.1:6379", exitAfterUnavailableMs: 60_000 } });
  });

  it("refuses an upstream without credentials, with both kinds, or with half a login", () => {
    expect(errorsOf({ upstream: { url: "https://up.example/api" } })).toEqual([
      "upstream.token: give token, or username and password: the upstream needs credentials",
    ]);
    expect(errorsOf({}, { VOAR_UPSTREAM_URL: "https://up.example/api", VOAR_UPSTREAM_TOKEN: "t", VOAR_UPSTREAM_USERNAME: "u", VOAR_UPSTREAM_PASSWORD: "p" })).toEqual([
      "upstream.token: give either token, or username and password, not both (from VOAR_UPSTREAM_TOKEN)",
    ]);
    expect(errorsOf({ upstream: { url: "https://up.example/api", username: "u" } })).toEqual(["upstream.password: an agency login needs both username and password"]);
  });

  it("refuses a URL that is not http(s), unknown or repeated airline ids, and an unreadable list", () => {
    expect(errorsOf({}, { VOAR_UPSTREAM_URL: "ftp://up.example", VOAR_UPSTREAM_TOKEN: "t" })).toEqual([
      "upstream.url: must be an http(s) URL, e.g. https://upstream.example/api (from VOAR_UPSTREAM_URL)",
    ]);
    expect(errorsOf({ upstream: { url: "https://up.example/api", token: "t", airlines: [1, 1300] } })).toEqual([
      "upstream.airlines: must hold only single-airline Companhia ids (1, 2, 3, 11, 13, 22, 26, 34, 1200)",
    ]);
    expect(errorsOf({ upstream: { url: "https://up.example/api", token: "t", airlines: [2, 2] } })).toEqual(["upstream.airlines: names an airline twice"]);
    expect(errorsOf({}, { VOAR_UPSTREAM_AIRLINES: "1,tap" })).toEqual(['VOAR_UPSTREAM_AIRLINES: each item must be a Companhia id (e.g. 1,2,3), got "tap"']);
  });

  it("refuses a store that is both, or a Redis URL that is not redis://", () => {
    expect(errorsOf({ store: { memory: {}, redis: { url: "redis://r:6379" } } })).toEqual(["store: give either memory or redis, not both"]);
    expect(errorsOf({}, { VOAR_STORE_REDIS_URL: "http://r:6379" })).toEqual([
      "store.redis.url: must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379 (from VOAR_STORE_REDIS_URL)",
    ]);
  });
});

describe("the Redis topologies", () => {
  it("read a cluster's nodes and a Sentinel primary from VOAR_* variables, with their credentials", () => {
    const cluster = loadConfig({
      file: { ...base, store: { memory: {} } },
      env: { VOAR_STORE_REDIS_CLUSTER: "10.0.0.1:7000, 10.0.0.2:7000", VOAR_STORE_REDIS_PASSWORD: "s3cret", VOAR_STORE_REDIS_TLS: "true", VOAR_STORE_REDIS_KEY_PREFIX: "prod:" },
    });
    expect(cluster.ok && cluster.config.store).toEqual({ redis: { cluster: ["10.0.0.1:7000", "10.0.0.2:7000"], password: "s3cret", tls: true, keyPrefix: "prod:", exitAfterUnavailableMs: 60_000 } });
    const sentinel = loadConfig({ file: base, env: { VOAR_STORE_REDIS_SENTINELS: "s1:26379,s2:26379,s3:26379", VOAR_STORE_REDIS_SENTINEL_NAME: "voar" } });
    expect(sentinel.ok && sentinel.config.store).toEqual({ redis: { sentinels: ["s1:26379", "s2:26379", "s3:26379"], sentinelName: "voar", exitAfterUnavailableMs: 60_000 } });
    // The same in the JSON configuration.
    const file = loadConfig({ file: { ...base, store: { redis: { sentinels: ["s1:26379"], sentinelName: "voar", sentinelPassword: "x" } } } });
    expect(file.ok).toBe(true);
  });

  it("refuses two topologies at once, a Sentinel without its primary's name, credentials beside a URL, and a hash tag in a cluster's prefix", () => {
    expect(errorsOf({}, { VOAR_STORE_REDIS_URL: "redis://r:6379", VOAR_STORE_REDIS_CLUSTER: "r:7000" })).toEqual([
      "store.redis: give one of url, cluster or sentinels, not url and cluster (from VOAR_STORE_REDIS_URL or VOAR_STORE_REDIS_CLUSTER)",
    ]);
    expect(errorsOf({}, { VOAR_STORE_REDIS_SENTINELS: "s1:26379" })).toEqual([
      "store.redis.sentinelName: Sentinel needs the name of the primary the sentinels monitor (from VOAR_STORE_REDIS_SENTINELS)",
    ]);
    expect(errorsOf({ store: { redis: { url: "redis://r:6379", password: "p" } } })).toEqual(["store.redis.password: with url, put it in the URL (redis://user:password@host:6379)"]);
    expect(errorsOf({ store: { redis: { cluster: ["r:7000"], keyPrefix: "{voar}:" } } })).toEqual([
      "store.redis.keyPrefix: must not hold { or } on a cluster: each search gets a hash tag of its own",
    ]);
    expect(errorsOf({}, { VOAR_STORE_REDIS_CLUSTER: "r:7000,redis://r:7001" })).toEqual([
      "store.redis.cluster.1: must be host:port, e.g. 10.0.0.5:6379 (from VOAR_STORE_REDIS_CLUSTER)",
    ]);
  });
});

describe("upstreamSourcesFor", () => {
  const adapter = { createFanOutSources, createUpstreamSource };
  const upstream = (more: Record<string, unknown> = {}) => {
    const r = loadConfig({ file: { ...base, upstream: { url: "https://up.example/api", token: "t", ...more } } });
    if (!r.ok || !r.config.upstream) throw new Error("unreachable");
    return r.config.upstream;
  };

  it("fans out to every airline and asks the upstream's OTA comparison for Mode B", async () => {
    const { sources, close } = upstreamSourcesFor(upstream(), adapter);
    expect(sources.map((s) => s.id)).toEqual([
      "upstream:latam",
      "upstream:gol",
      "upstream:azul",
      "upstream:tap",
      "upstream:copa",
      "upstream:american-airlines",
      "upstream:iberia",
      "upstream:livelo",
      "upstream:interline",
      "upstream:otas",
    ]);
    expect(sources.at(-1)?.kind).toBe("ota");
    await close();
  });

  it("fans out only to the allowed airlines, and leaves Mode B out when asked", async () => {
    const { sources, close } = upstreamSourcesFor(upstream({ airlines: [2, 1], otas: false }), adapter);
    expect(sources.map((s) => [s.id, s.airlineId])).toEqual([
      ["upstream:gol", 2],
      ["upstream:latam", 1],
    ]);
    await close();
  });
});
