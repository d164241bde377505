/**
 * `voar-server`, the Node entry: reads the configuration (`VOAR_CONFIG_FILE`, then `VOAR_*` variables),
 * searches the configured upstream (`upstream`, through undici) or the embedded simulator (the default),
 * keeps searches in memory or in Redis (`store`), serves the app with `@hono/node-server` on `VOAR_PORT`
 * (or `PORT`, default 8787) and `VOAR_HOSTNAME` (default 0.0.0.0, see `entry-vars.ts`) with the timeouts
 * and connection caps of `http` (see `serveNode`), and stops
 * gracefully on SIGINT/SIGTERM. Logs are JSON lines on stdout. Rate limits live in Redis when it is the
 * store (shared by every instance, on the store's own connection and availability view), in memory
 * otherwise; client addresses come from the socket (or the trusted proxy header of `http`). Redis keys sit
 * under the deployment's fingerprint (what answers its searches). The event loop's delay is measured apart
 * (`nodeLoadSignal`) for admission control, and so that a busy loop is never read as a Redis outage.
 *
 * The simulator (`@voar/testing`) and the Redis store (`ioredis`) are loaded only when configured, so a
 * deployment on an upstream with the in-memory store needs neither package.
 *
 * Run it with `voar-server` (the built package) or `pnpm --filter @voar/hono-edge start` (sources, tsx).
 */
import { readFile } from "node:fs/promises";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { SearchSource } from "@voar/core";
import { createApp } from "./app/create-app.js";
import { priceCalendar } from "./calendar/price-calendar.js";
import { priceAlerts } from "./alerts/price-alerts.js";
import { promAlertMetrics } from "./entries/node-alert-metrics.js";
import { nodeResolver, nodeWebhookPost } from "./entries/node-webhooks.js";
import { nodeDocsAssets } from "./docs/node-docs-assets.js";
import { batchedLineWriter } from "./entries/node-log-writer.js";
import { serveNode } from "./entries/node-server.js";
import type { ServiceConfig } from "./config/config-schema.js";
import { ConfigError, loadConfig } from "./config/load-config.js";
import { memoryRateLimiters, type RateLimiterFactory } from "./limits/token-bucket.js";
import { jsonLinesLogger, type Logger } from "./logging/logger.js";
import { nodeLoadSignal } from "./entries/node-load-signal.js";
import { deploymentFingerprint, deploymentKeyPrefix } from "./config/deployment-fingerprint.js";
import { systemClock } from "./clock.js";
import type { SessionStore } from "./search/session-store.js";
import type { PaganteSettings } from "./settings/pagante-settings.js";
import { upstreamSourcesFor } from "./sources/upstream-sources.js";
import { cachedUpstreamSources } from "./sources/cached-upstream.js";
import { upstreamCacheOf } from "./config/deploy-schema.js";
import type { AnswerStore } from "./sources/answer-store.js";
import { createPromMetrics, serveMetrics, type PromMetrics } from "./entries/node-metrics.js";
import { startNodeTracing } from "./entries/node-tracing.js";
import { captureConsole } from "./entries/node-console.js";
import { summarizingLogger } from "./logging/repeat-summary.js";
import { logLoginState } from "./sources/upstream-login.js";
import type { LoginState, PaceState } from "@voar/http-adapter/fetch";
import { checkVariables, exitWhenCannotListen } from "./entries/node-start-checks.js";
import { exitWhenStoreGone, type WatchedStore } from "./entries/exit-when-store-gone.js";

const env = process.env;
// First, so that every span of the service is recorded (only when OTEL_EXPORTER_OTLP_ENDPOINT is set).
const tracing = await startNodeTracing(env);
// JSON lines on stdout, each with its time; repeated lines (a login attack, an airline down for every search)
// summarised; what libraries print (ioredis's warnings) and Node's warnings become lines of the same log.
const lines = jsonLinesLogger(batchedLineWriter());
const logger = summarizingLogger(lines, { clock: systemClock });
captureConsole(logger);

const fail = (errors: readonly string[]): never => {
  // For the log pipeline, a JSON line; for the operator at the terminal, the same in one readable block on stderr.
  lines.log({ level: "error", msg: "config.invalid", detail: "voar: invalid configuration", errors });
  process.stderr.write(`voar: invalid configuration\n  - ${errors.join("\n  - ")}\n`);
  process.exit(1);
};

const readConfigFile = async (path: string | undefined): Promise<unknown> => {
  if (!path) return undefined;
  try {
    return JSON.parse(await readFile(path, "utf8")) as unknown;
  } catch (e) {
    // A parser message may quote the file (and its secrets): say only that it is not JSON.
    const why = e instanceof SyntaxError ? "is not valid JSON" : e instanceof Error ? e.message : String(e);
    return fail([`VOAR_CONFIG_FILE (${path}): ${why}`]);
  }
};

/**
 * Loads an optional package only when the configuration needs it; when it is not installed, says which
 * setting needs which package and how to add it, instead of a module-resolution stack trace.
 */
const loadOptional = async <T>(load: () => Promise<T>, pkg: string, neededBy: string): Promise<T> => {
  try {
    return await load();
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code;
    if (code === "ERR_MODULE_NOT_FOUND" && e instanceof Error && e.message.includes(`'${pkg}'`)) {
      lines.log({ level: "error", msg: "config.missing_package", detail: `voar: ${neededBy} needs the optional package ${pkg}, which is not installed: add it (npm install ${pkg}) or change the configuration`, package: pkg });
      process.exit(1);
    }
    throw e;
  }
};

/** What the service runs on, and how to let it go after the app stopped. */
interface Backend {
  readonly sources: readonly SearchSource[];
  readonly store: SessionStore | undefined;
  /** Rate limiters shared through Redis when it is configured; in memory otherwise. */
  readonly rateLimiters: RateLimiterFactory;
  readonly backend: "upstream" | "simulator";
  readonly storeKind: "memory" | "redis";
  /** The Redis keys' prefix, the deployment's fingerprint in it (with `store.redis`). */
  readonly keyPrefix: string | undefined;
  /** The Pagante switch shared by every instance through Redis (with `store.redis`; read before the instance listens). */
  readonly pagante: PaganteSettings | undefined;
  /** Where the store is, for the `listening` line: one Redis, Sentinel or Cluster (never a password). */
  readonly storeTarget: Record<string, unknown> | undefined;
  /** The Redis's availability (with `store.redis`): an instance that cannot reach it for long exits (`exitWhenStoreGone`). */
  readonly storeGuard: WatchedStore | undefined;
  /** Where the upstream's logins stand (`/ready`), with an upstream. */
  readonly upstreamLogin: (() => LoginState) | undefined;
  /** How long the upstream's answers take lately (`/ready`), with an upstream. */
  readonly upstreamPace: (() => PaceState) | undefined;
  /** Logs in to the upstream at start (its state then in `/ready`). */
  warmUp(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

const wholeNumber = (name: string): number | undefined => {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : fail([`${name}: "${text}" is not a whole number`]);
};

const backendOf = async (config: ServiceConfig, log: Logger, metrics: PromMetrics | undefined): Promise<Backend> => {
  const closers: (() => Promise<void>)[] = [];
  let sources: readonly SearchSource[];
  let upstreamLogin: Backend["upstreamLogin"];
  let upstreamPace: Backend["upstreamPace"];
  let warmUp: Backend["warmUp"] = () => Promise.resolve();
  const simulator = { latencyMs: wholeNumber("VOAR_SIMULATOR_LATENCY_MS"), seed: wholeNumber("VOAR_SIMULATOR_SEED") };
  const redis = config.store.redis;
  const redisModule = redis ? await loadOptional(() => import("./redis/index.js"), "ioredis", "store.redis") : undefined;
  // Every key under the deployment's fingerprint (what answers its searches): deployments with other
  // sources on the same Redis never see these searches, whatever prefix they were given.
  const keyPrefix = redis ? deploymentKeyPrefix(redis.keyPrefix, await deploymentFingerprint(config, simulator)) : undefined;
  // One connection and one view of Redis's availability for the store, its pub/sub, the rate limits and the upstream's breakers.
  // One Redis (a URL), a Sentinel primary or a Redis Cluster (`store.redis`), judged by its own probes.
  const target = redis && redisModule ? redisModule.redisTargetOf(redis) : undefined;
  const connection = target && redisModule ? redisModule.openRedisConnection(target, { metrics, logger: log }) : undefined;
  if (config.upstream) {
    // An airline one instance found down is not asked by the others either (per instance while Redis cannot answer).
    const breakerStore = connection && redisModule?.redisBreakerStore({ redis: connection, keyPrefix, logger: log });
    const upstream = upstreamSourcesFor(config.upstream, await import("@voar/http-adapter"), {
      breakerStore,
      // One login for every instance (the token and the claim on the next login in Redis), each change of its state logged once.
      loginStore: connection && redisModule?.redisLoginStore({ redis: connection, keyPrefix, logger: log }),
      onLoginStateChange: logLoginState(log),
      // What one instance learns of the upstream's pace (each airline's times per route) paces every instance's searches.
      pacingStore: connection && redisModule?.redisPacingStore({ redis: connection, keyPrefix, logger: log }),
      // An upstream slower than the plain client's pace is the operator's news, once per change.
      onPaceChange: (state) =>
        log.log(
          state.slow
            ? { level: "warn", msg: "upstream.slow", answerMs: state.answerMs, detail: "o fornecedor leva mais de 10 s para responder: as buscas esperam cada resposta (até o limite do pedido) e o prazo da busca aguarda a resposta em curso" }
            : { level: "info", msg: "upstream.pace_ok", answerMs: state.answerMs },
        ),
      sourceTimeoutMs: config.search.sourceTimeoutMs,
      // An airline's breaker opening (or closing again) is the operator's news, once per change seen by this instance.
      onBreakerStateChange: (sourceId, state) => log.log({ level: state === "open" ? "warn" : "info", msg: "upstream.breaker", sourceId, state }),
      // Upstream exchanges counted and timed, and each airline's breaker state as a gauge.
      metrics,
    });
    closers.push(() => upstream.close());
    sources = upstream.sources;
    upstreamLogin = upstream.login;
    upstreamPace = upstream.pace;
    warmUp = upstream.warmUp;
  } else {
    const { createSimulator } = await loadOptional(() => import("@voar/testing/simulator"), "@voar/testing", "the embedded simulator (no upstream configured)");
    const { latencyMs, seed } = simulator;
    sources = createSimulator({ ...(latencyMs === undefined ? {} : { latencyMs }), ...(seed === undefined ? {} : { seed }) }).sources;
  }
  let store: SessionStore | undefined;
  let rateLimiters = memoryRateLimiters(systemClock);
  let answers: AnswerStore | undefined;
  let pagante: PaganteSettings | undefined;
  if (connection && redisModule) {
    const { createRedisSessionStore, createRedisAnswerStore, redisRateLimiters } = redisModule;
    const redisStore = createRedisSessionStore({
      redis: connection,
      keyPrefix,
      ttlMs: config.search.ttlMs,
      maxSessions: config.limits.maxSessions,
      maxSessionsPerTenant: config.limits.maxSessionsPerTenant,
      logger: log,
    });
    // One Pagante switch for every instance: a change on one applies to all, and a new instance reads it first.
    const shared = redisModule.redisPaganteSettings({ redis: connection, keyPrefix, initial: config.pagante, logger: log });
    pagante = shared;
    await shared.ready();
    closers.push(async () => {
      await shared.close();
      await redisStore.close();
      await connection.close();
    });
    store = redisStore;
    rateLimiters = redisRateLimiters({ redis: connection, keyPrefix, fallback: rateLimiters, logger: log, metrics });
    const cache = config.upstream ? upstreamCacheOf(config.upstream) : undefined;
    if (cache?.enabled) answers = createRedisAnswerStore({ redis: connection, keyPrefix, maxEntries: cache.maxEntries });
  }
  if (config.upstream) {
    // The upstream's answers shared by every tenant (and, through Redis, every instance); stopped before the connections close.
    const cached = cachedUpstreamSources(sources, config.upstream, { clock: systemClock, logger: log, store: answers, onCacheLookup: metrics ? (result) => metrics.cacheLookup(result) : undefined });
    sources = cached.sources;
    const cache = cached.cache;
    if (cache) closers.unshift(() => Promise.resolve(cache.close()));
  }
  return {
    sources,
    store,
    rateLimiters,
    backend: config.upstream ? "upstream" : "simulator",
    storeKind: redis ? "redis" : "memory",
    keyPrefix,
    pagante,
    storeTarget: target && redisModule ? redisModule.describeTarget(target) : undefined,
    storeGuard: connection?.guard,
    upstreamLogin,
    upstreamPace,
    warmUp,
    close: async () => {
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
};

// A VOAR_* variable that nothing reads (misspelled?): a warning naming the closest known one, an error when strict.
const envErrors = checkVariables(env, logger);
if (envErrors.length > 0) fail(envErrors);
const result = loadConfig({ file: await readConfigFile(env["VOAR_CONFIG_FILE"]), env });
const config = result.ok ? result.config : fail(result.errors);
const load = nodeLoadSignal();
// The metrics (prom-client, Node's own included): at GET /metrics behind the admin key, or on metrics.port.
const metrics = config.metrics.enabled ? createPromMetrics() : undefined;
const metricsApart = metrics !== undefined && config.metrics.port !== undefined;
if (metrics) tracing?.observe(metrics);
const backend = await backendOf(config, logger, metrics);
const instanceId = crypto.randomUUID();
const shutdown = new AbortController();
const app = (() => {
  try {
    return createApp({
      config,
      sources: backend.sources,
      store: backend.store,
      pagante: backend.pagante,
      rateLimiters: backend.rateLimiters,
      clientAddress: (c) => getConnInfo(c).remote.address,
      instanceId,
      logger,
      docsAssets: nodeDocsAssets(),
      priceCalendar: priceCalendar(),
      // Price watches: hosts of webhooks resolved and every connection's address checked (SSRF), their metrics beside the service's.
      priceAlerts: priceAlerts({
        resolve: nodeResolver,
        post: nodeWebhookPost(config.alerts.webhooks.allowPrivateAddresses),
        metrics: metrics && promAlertMetrics(metrics.registry),
      }),
      signal: shutdown.signal,
      load,
      metrics,
      metricsExposition: metricsApart ? undefined : metrics,
      upstreamLogin: backend.upstreamLogin,
      upstreamPace: backend.upstreamPace,
    });
  } catch (e) {
    if (e instanceof ConfigError) return fail(e.errors);
    throw e;
  }
})();
const port = wholeNumber("VOAR_PORT") ?? wholeNumber("PORT") ?? 8787;
const hostname = env["VOAR_HOSTNAME"] ?? "0.0.0.0";
const server = serveNode({ fetch: app.fetch, port, hostname, http: config.http, logger }, (info) =>
  logger.log({
    level: "info",
    msg: "listening",
    port: info.port,
    basePath: config.basePath,
    backend: backend.backend,
    sources: backend.sources.map((s) => s.id),
    store: backend.storeKind,
    ...(backend.storeTarget === undefined ? {} : { redis: backend.storeTarget }),
    ...(backend.keyPrefix === undefined ? {} : { keyPrefix: backend.keyPrefix }),
    instanceId,
  }),
);
// A refused credential shows in /ready from the start, not only after the first search.
void backend.warmUp(shutdown.signal);
const metricsServer =
  metrics && config.metrics.port !== undefined
    ? serveMetrics({ port: config.metrics.port, hostname, metrics }, (info) => logger.log({ level: "info", msg: "metrics.listening", port: info.port }))
    : undefined;
// A port already taken (or not ours to take) stops the instance with one line and exit code 98, no stack trace.
exitWhenCannotListen(server, { what: "the service's address", variable: "VOAR_PORT", port, hostname });
if (metricsServer) exitWhenCannotListen(metricsServer, { what: "the metrics address", variable: "VOAR_METRICS_PORT", port: config.metrics.port!, hostname });
if (metrics && !metricsApart && config.adminKeys.length === 0) {
  logger.log({ level: "warn", msg: "metrics.unreachable", detail: "GET /metrics needs an admin key and none is configured: set adminKeys or metrics.port" });
}
let stopping = false;
/** Stops the instance: `signal` (SIGINT, SIGTERM; exit code 0) or a store unreachable for too long (its own code). */
const stop = (reason: { readonly signal: string } | { readonly exitCode: number }) => {
  if (stopping) return;
  stopping = true;
  const code = "exitCode" in reason ? reason.exitCode : 0;
  logger.log({ level: "info", msg: "stopping", ...reason });
  // Ends running searches (leases released) and open SSE streams, lets the server drain, then closes
  // the upstream's connections and the store's.
  shutdown.abort();
  metricsServer?.close();
  server.close(() => {
    void Promise.allSettled([backend.close(), tracing?.shutdown()]).finally(() => process.exit(code));
  });
  // Leaving because the store is gone: what cannot drain within 10 s is cut, the supervisor restarts the instance.
  if (code !== 0) setTimeout(() => process.exit(code), 10_000).unref();
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop({ signal }));
// An instance that cannot reach its Redis for `store.redis.exitAfterUnavailableMs` exits, for its supervisor to restart it.
if (backend.storeGuard && config.store.redis) {
  exitWhenStoreGone(backend.storeGuard, { afterMs: config.store.redis.exitAfterUnavailableMs, logger, stop: (exitCode) => stop({ exitCode }) });
}
