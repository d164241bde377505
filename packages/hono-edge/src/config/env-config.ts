import { deepMerge, isPlainObject } from "./deep-merge.js";
import { boolean, ids, LEGACY, list, number, pagante, pairs, redisStore } from "./env-parsers.js";

/**
 * Environment variables of the configuration: one per setting, named `VOAR_*`, read from a plain record
 * (`process.env`, a Worker's bindings, `Deno.env.toObject()`), so that reading them needs no runtime API.
 */

/** How one variable is read: where it goes in the configuration, and how its text becomes a value. */
interface EnvVar {
  readonly path: readonly string[];
  readonly parse: (text: string) => { readonly value: unknown } | { readonly error: string };
  /** The value is a list added to what another variable put at the same path (instead of replacing it). */
  readonly append?: true;
  /** The value is an object merged into what another variable put at the same path (instead of replacing it). */
  readonly merge?: true;
}

/** Every variable the configuration reads, by name. Values that are lists are comma-separated. */
export const ENV_VARS: Readonly<Record<string, EnvVar>> = {
  VOAR_BASE_PATH: { path: ["basePath"], parse: (t) => ({ value: t.trim() }) },
  VOAR_API_KEYS: { path: ["apiKeys"], parse: pairs("name", "key", "<tenant>:<key>") },
  VOAR_AGENCIES: { path: ["agencies"], parse: pairs("username", "password", "<username>:<password>") },
  // Clients of the legacy API (compat "legacy"): a separate list, since a key or password may hold any character.
  VOAR_LEGACY_API_KEYS: { path: ["apiKeys"], parse: pairs("name", "key", "<tenant>:<key>", LEGACY), append: true },
  VOAR_LEGACY_AGENCIES: { path: ["agencies"], parse: pairs("username", "password", "<username>:<password>", LEGACY), append: true },
  VOAR_ADMIN_KEYS: { path: ["adminKeys"], parse: (t) => ({ value: list(t) }) },
  // Admin keys with the name the audit log gives their holder: a list of their own, since a key may hold ':'.
  VOAR_NAMED_ADMIN_KEYS: { path: ["adminKeys"], parse: pairs("name", "key", "<name>:<key>"), append: true },
  VOAR_TOKEN_SECRET: { path: ["tokens", "secret"], parse: (t) => ({ value: t }) },
  VOAR_TOKEN_TTL_SECONDS: { path: ["tokens", "ttlSeconds"], parse: number },
  VOAR_PAGANTE: { path: ["pagante"], parse: pagante },
  VOAR_BODY_LIMIT_BYTES: { path: ["limits", "bodyBytes"], parse: number },
  VOAR_RATE_LIMIT_CAPACITY: { path: ["limits", "rateLimit", "capacity"], parse: number },
  VOAR_RATE_LIMIT_REFILL_PER_SECOND: { path: ["limits", "rateLimit", "refillPerSecond"], parse: number },
  VOAR_MAX_SESSIONS: { path: ["limits", "maxSessions"], parse: number },
  VOAR_MAX_SESSIONS_PER_TENANT: { path: ["limits", "maxSessionsPerTenant"], parse: number },
  VOAR_ADMISSION_MAX_LOOP_DELAY_MS: { path: ["limits", "admission", "maxLoopDelayMs"], parse: number },
  VOAR_ADMISSION_RETRY_AFTER_SECONDS: { path: ["limits", "admission", "retryAfterSeconds"], parse: number },
  VOAR_ADMISSION_MAX_QUEUE_MS: { path: ["limits", "admission", "maxQueueMs"], parse: number },
  VOAR_ADMISSION_MAX_RUNNING_SEARCHES: { path: ["limits", "admission", "maxRunningSearches"], parse: number },
  VOAR_ADMISSION_MAX_STREAMS: { path: ["limits", "admission", "maxStreams"], parse: number },
  VOAR_LOGIN_LIMIT_PER_CLIENT_CAPACITY: { path: ["limits", "login", "perClient", "capacity"], parse: number },
  VOAR_LOGIN_LIMIT_PER_CLIENT_REFILL_PER_SECOND: { path: ["limits", "login", "perClient", "refillPerSecond"], parse: number },
  VOAR_LOGIN_LIMIT_PER_ACCOUNT_CAPACITY: { path: ["limits", "login", "perAccount", "capacity"], parse: number },
  VOAR_LOGIN_LIMIT_PER_ACCOUNT_REFILL_PER_SECOND: { path: ["limits", "login", "perAccount", "refillPerSecond"], parse: number },
  VOAR_LOGIN_LIMIT_PER_ACCOUNT_SUSTAINED_CAPACITY: { path: ["limits", "login", "perAccountSustained", "capacity"], parse: number },
  VOAR_LOGIN_LIMIT_PER_ACCOUNT_SUSTAINED_REFILL_PER_SECOND: { path: ["limits", "login", "perAccountSustained", "refillPerSecond"], parse: number },
  VOAR_LOGIN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES_CAPACITY: { path: ["limits", "login", "perAccountAllAddresses", "capacity"], parse: number },
  VOAR_LOGIN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES_REFILL_PER_SECOND: { path: ["limits", "login", "perAccountAllAddresses", "refillPerSecond"], parse: number },
  VOAR_LOGIN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES_SUSTAINED_CAPACITY: { path: ["limits", "login", "perAccountAllAddressesSustained", "capacity"], parse: number },
  VOAR_LOGIN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES_SUSTAINED_REFILL_PER_SECOND: { path: ["limits", "login", "perAccountAllAddressesSustained", "refillPerSecond"], parse: number },
  VOAR_LOGIN_LIMIT_SUCCESSES_CAPACITY: { path: ["limits", "login", "successes", "capacity"], parse: number },
  VOAR_LOGIN_LIMIT_SUCCESSES_REFILL_PER_SECOND: { path: ["limits", "login", "successes", "refillPerSecond"], parse: number },
  VOAR_LOGIN_REMEMBER_ADDRESS_SECONDS: { path: ["limits", "login", "rememberAddressSeconds"], parse: number },
  VOAR_TRUSTED_PROXY_HEADER: { path: ["http", "trustedProxyHeader"], parse: (t) => ({ value: t.trim() }) },
  VOAR_HEADERS_TIMEOUT_MS: { path: ["http", "headersTimeoutMs"], parse: number },
  VOAR_REQUEST_TIMEOUT_MS: { path: ["http", "requestTimeoutMs"], parse: number },
  VOAR_KEEP_ALIVE_TIMEOUT_MS: { path: ["http", "keepAliveTimeoutMs"], parse: number },
  VOAR_MAX_CONNECTIONS: { path: ["http", "maxConnections"], parse: number },
  VOAR_MAX_CONNECTIONS_PER_ADDRESS: { path: ["http", "maxConnectionsPerAddress"], parse: number },
  VOAR_SSE_MAX_BUFFERED_BYTES: { path: ["http", "sseMaxBufferedBytes"], parse: number },
  VOAR_SSE_STALLED_MS: { path: ["http", "sseStalledMs"], parse: number },
  VOAR_REFUSED_KEYS_CAPACITY: { path: ["limits", "refusedKeys", "capacity"], parse: number },
  VOAR_REFUSED_KEYS_REFILL_PER_SECOND: { path: ["limits", "refusedKeys", "refillPerSecond"], parse: number },
  VOAR_SEARCH_DEADLINE_MS: { path: ["search", "deadlineMs"], parse: number },
  VOAR_SEARCH_DEADLINE_HOLD_MS: { path: ["search", "deadlineHoldMs"], parse: number },
  VOAR_SEARCH_TTL_MS: { path: ["search", "ttlMs"], parse: number },
  VOAR_SEARCH_FAILED_TTL_MS: { path: ["search", "failedTtlMs"], parse: number },
  VOAR_SEARCH_LEASE_MS: { path: ["search", "leaseMs"], parse: number },
  VOAR_POLL_HINT_MS: { path: ["search", "pollHintMs"], parse: number },
  VOAR_SOURCE_TIMEOUT_MS: { path: ["search", "sourceTimeoutMs"], parse: number },
  VOAR_SOURCE_MAX_ATTEMPTS: { path: ["search", "maxAttempts"], parse: number },
  VOAR_SOURCES: { path: ["search", "sources"], parse: (t) => ({ value: t.trim() === "all" ? undefined : list(t) }) },
  VOAR_CALENDAR_CONCURRENCY: { path: ["calendar", "concurrency"], parse: number },
  VOAR_CALENDAR_SEARCHES_PER_DAY: { path: ["calendar", "searchesPerDay"], parse: number },
  VOAR_CALENDAR_REQUESTS_PER_DAY: { path: ["calendar", "requestsPerDay"], parse: number },
  VOAR_ALERTS_QUOTA_WATCHES: { path: ["alerts", "quota", "watches"], parse: number },
  VOAR_ALERTS_QUOTA_CHECKS_PER_HOUR: { path: ["alerts", "quota", "checksPerHour"], parse: number },
  VOAR_ALERTS_UPSTREAM_REQUESTS_PER_HOUR: { path: ["alerts", "budget", "upstreamRequestsPerHour"], parse: number },
  VOAR_ALERTS_BUDGET_SHARE: { path: ["alerts", "budget", "share"], parse: number },
  VOAR_ALERTS_BASE_INTERVAL_MS: { path: ["alerts", "schedule", "baseIntervalMs"], parse: number },
  VOAR_ALERTS_MIN_INTERVAL_MS: { path: ["alerts", "schedule", "minIntervalMs"], parse: number },
  VOAR_ALERTS_MAX_INTERVAL_MS: { path: ["alerts", "schedule", "maxIntervalMs"], parse: number },
  VOAR_ALERTS_TICK_MS: { path: ["alerts", "schedule", "tickMs"], parse: number },
  VOAR_ALERTS_LEASE_MS: { path: ["alerts", "schedule", "leaseMs"], parse: number },
  VOAR_ALERTS_CONCURRENCY: { path: ["alerts", "schedule", "concurrency"], parse: number },
  VOAR_ALERTS_WEBHOOK_ALLOW_PRIVATE: { path: ["alerts", "webhooks", "allowPrivateAddresses"], parse: boolean },
  VOAR_ALERTS_WEBHOOK_TIMEOUT_MS: { path: ["alerts", "webhooks", "timeoutMs"], parse: number },
  VOAR_ALERTS_WEBHOOK_RETRY_FOR_MS: { path: ["alerts", "webhooks", "retryForMs"], parse: number },
  VOAR_ALERTS_WEBHOOK_FIRST_RETRY_MS: { path: ["alerts", "webhooks", "firstRetryMs"], parse: number },
  VOAR_ALERTS_WEBHOOK_MAX_RETRY_MS: { path: ["alerts", "webhooks", "maxRetryMs"], parse: number },
  VOAR_ALERTS_WEBHOOK_SECRET_GRACE_MS: { path: ["alerts", "webhooks", "secretGraceMs"], parse: number },
  VOAR_SSE_KEEPALIVE_MS: { path: ["sse", "keepAliveMs"], parse: number },
  VOAR_SSE_RETRY_MS: { path: ["sse", "retryMs"], parse: number },
  VOAR_CORS_ORIGINS: { path: ["cors", "origins"], parse: (t) => ({ value: t.trim() === "*" ? "*" : list(t) }) },
  VOAR_CORS_MAX_AGE_SECONDS: { path: ["cors", "maxAgeSeconds"], parse: number },
  VOAR_METRICS_ENABLED: { path: ["metrics", "enabled"], parse: boolean },
  VOAR_METRICS_PORT: { path: ["metrics", "port"], parse: number },
  VOAR_UPSTREAM_URL: { path: ["upstream", "url"], parse: (t) => ({ value: t.trim() }) },
  VOAR_UPSTREAM_TOKEN: { path: ["upstream", "token"], parse: (t) => ({ value: t.trim() }) },
  VOAR_UPSTREAM_USERNAME: { path: ["upstream", "username"], parse: (t) => ({ value: t.trim() }) },
  VOAR_UPSTREAM_PASSWORD: { path: ["upstream", "password"], parse: (t) => ({ value: t }) },
  VOAR_UPSTREAM_STRATEGY: { path: ["upstream", "strategy"], parse: (t) => ({ value: t.trim() }) },
  VOAR_UPSTREAM_BREAKER_ENABLED: { path: ["upstream", "breaker", "enabled"], parse: boolean },
  VOAR_UPSTREAM_BREAKER_FAILURE_THRESHOLD: { path: ["upstream", "breaker", "failureThreshold"], parse: number },
  VOAR_UPSTREAM_BREAKER_COOLDOWN_MS: { path: ["upstream", "breaker", "cooldownMs"], parse: number },
  VOAR_UPSTREAM_BUDGET_ENABLED: { path: ["upstream", "budget", "enabled"], parse: boolean },
  VOAR_UPSTREAM_BUDGET_REQUESTS_PER_SEARCH: { path: ["upstream", "budget", "requestsPerSearch"], parse: number },
  VOAR_UPSTREAM_BUDGET_REQUESTS_PER_SOURCE: { path: ["upstream", "budget", "requestsPerSource"], parse: number },
  VOAR_UPSTREAM_AIRLINES: { path: ["upstream", "airlines"], parse: ids },
  VOAR_UPSTREAM_OTAS: { path: ["upstream", "otas"], parse: boolean },
  VOAR_UPSTREAM_REQUEST_TIMEOUT_MS: { path: ["upstream", "requestTimeoutMs"], parse: number },
  VOAR_UPSTREAM_CACHE_ENABLED: { path: ["upstream", "cache", "enabled"], parse: boolean },
  VOAR_UPSTREAM_CACHE_FRESH_MS: { path: ["upstream", "cache", "freshMs"], parse: number },
  VOAR_UPSTREAM_CACHE_STALE_MS: { path: ["upstream", "cache", "staleMs"], parse: number },
  VOAR_UPSTREAM_CACHE_MAX_ENTRIES: { path: ["upstream", "cache", "maxEntries"], parse: number },
  // VOAR_REDIS_URL is an alias; VOAR_STORE_REDIS_URL, read after it, wins when both are set.
  VOAR_REDIS_URL: { path: ["store"], parse: redisStore("url"), merge: true },
  VOAR_STORE_REDIS_URL: { path: ["store"], parse: redisStore("url"), merge: true },
  VOAR_STORE_REDIS_CLUSTER: { path: ["store"], parse: redisStore("cluster"), merge: true },
  VOAR_STORE_REDIS_SENTINELS: { path: ["store"], parse: redisStore("sentinels"), merge: true },
  VOAR_STORE_REDIS_SENTINEL_NAME: { path: ["store", "redis", "sentinelName"], parse: (t) => ({ value: t.trim() }) },
  VOAR_STORE_REDIS_USERNAME: { path: ["store", "redis", "username"], parse: (t) => ({ value: t.trim() }) },
  VOAR_STORE_REDIS_PASSWORD: { path: ["store", "redis", "password"], parse: (t) => ({ value: t }) },
  VOAR_STORE_REDIS_SENTINEL_PASSWORD: { path: ["store", "redis", "sentinelPassword"], parse: (t) => ({ value: t }) },
  VOAR_STORE_REDIS_TLS: { path: ["store", "redis", "tls"], parse: boolean },
  VOAR_STORE_REDIS_KEY_PREFIX: { path: ["store", "redis", "keyPrefix"], parse: (t) => ({ value: t.trim() }) },
  VOAR_STORE_REDIS_EXIT_AFTER_UNAVAILABLE_MS: { path: ["store", "redis", "exitAfterUnavailableMs"], parse: number },
};

/** What the environment says: a partial configuration, the variable behind each path, and unreadable values. */
export interface EnvConfig {
  readonly value: Record<string, unknown>;
  /** `limits.bodyBytes` -> `VOAR_BODY_LIMIT_BYTES`, for the variables that were set. */
  readonly origins: ReadonlyMap<string, string>;
  readonly errors: readonly string[];
}

const setPath = (target: Record<string, unknown>, path: readonly string[], value: unknown, append: boolean, merge = false): void => {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = typeof next === "object" && next !== null ? (next as Record<string, unknown>) : (node[key] = {});
  }
  const last = path.at(-1)!;
  const before = node[last];
  if (merge && isPlainObject(before) && isPlainObject(value)) node[last] = deepMerge(before, value);
  else node[last] = append && Array.isArray(before) && Array.isArray(value) ? [...(before as unknown[]), ...(value as unknown[])] : value;
};

/** Reads the `VOAR_*` variables that are set (blank values count as unset). */
export const configFromEnv = (env: Readonly<Record<string, string | undefined>>): EnvConfig => {
  const value: Record<string, unknown> = {};
  const origins = new Map<string, string>();
  const errors: string[] = [];
  for (const [name, v] of Object.entries(ENV_VARS)) {
    const text = env[name];
    if (text === undefined || text.trim() === "") continue;
    const parsed = v.parse(text);
    if ("error" in parsed) {
      errors.push(`${name}: ${parsed.error}`);
      continue;
    }
    setPath(value, v.path, parsed.value, v.append === true, v.merge === true);
    const path = v.path.join(".");
    const before = origins.get(path);
    origins.set(path, before === undefined ? name : `${before} or ${name}`);
  }
  return { value, origins, errors };
};
