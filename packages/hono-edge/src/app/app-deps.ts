import type { AirportDirectory, SearchSource } from "@voar/core";
import type { LoginState, PaceState } from "@voar/http-adapter/fetch";
import { airports as coreAirports } from "@voar/core/airports";
import { systemClock, type Clock } from "../clock.js";
import { ConfigError } from "../config/load-config.js";
import type { ServiceConfig } from "../config/config-schema.js";
import type { Context } from "hono";
import type { LoadSignal } from "../limits/load-signal.js";
import { memoryRateLimiters, type RateLimiter, type RateLimiterFactory } from "../limits/token-bucket.js";
import { jsonLinesLogger, redactingLogger, type Logger } from "../logging/logger.js";
import { createMemorySessionStore } from "../search/memory-session-store.js";
import type { SessionStore } from "../search/session-store.js";
import { createMemoryPaganteSettings, type PaganteSettings } from "../settings/pagante-settings.js";
import type { DocsAssets } from "../docs/docs-page.js";
import type { PriceCalendarFeature } from "../calendar/price-calendar.js";
import type { PriceAlertsFeature } from "../alerts/price-alerts.js";
import { noopMetrics, type MetricsExposition, type ServiceMetrics } from "../telemetry/service-metrics.js";

/** What {@link createApp} is made of. Only the configuration and the sources are required. */
export interface AppDeps {
  /** The validated configuration (`loadConfig` or `defineConfig`). */
  readonly config: ServiceConfig;
  /** The engine's sources (e.g. `createSimulator().sources`); `config.search.sources` picks among them. */
  readonly sources: readonly SearchSource[];
  /** Where searches live between requests. Default: the in-memory store, sized by the configuration. */
  readonly store?: SessionStore | undefined;
  /** Time for expiry, limits, TTLs, "today" and log durations. Default: the system clock. */
  readonly clock?: Clock | undefined;
  /** Structured logs, each record redacted of secrets first (`redactingLogger`). Default: JSON lines on `console.log`. */
  readonly logger?: Logger | undefined;
  /** Known airports. Default: core's directory. */
  readonly airports?: AirportDirectory | undefined;
  /** The per-airline Pagante switch. Default: in memory, starting from `config.pagante`. */
  readonly pagante?: PaganteSettings | undefined;
  /**
   * Makes the limiters of the request budgets (per tenant, login attempts per client and per account).
   * Default: in-memory token buckets (this instance only); the Node entry uses Redis when it is configured,
   * so that every instance shares them.
   */
  readonly rateLimiters?: RateLimiterFactory | undefined;
  /** Request budget per tenant. Default: `rateLimiters("tenant", config.limits.rateLimit)`. */
  readonly rateLimiter?: RateLimiter | undefined;
  /**
   * The address of the client of a request, from the runtime (the Node entry: the socket's remote
   * address). Used when `config.http.trustedProxyHeader` is not set. Default: unknown (every client
   * shares one login budget per client).
   */
  readonly clientAddress?: ((c: Context) => string | undefined) | undefined;
  /** This instance's id (lease owner). Default: a random UUID. */
  readonly instanceId?: string | undefined;
  /**
   * Mints the id of each new search (the envelope's `Token` / `LeaseId`). Default: a random UUID. An entry
   * that routes polls by id (a Durable Object per search on Workers) puts its routing key in it.
   */
  readonly newSearchId?: (() => string) | undefined;
  /**
   * The files of the interactive reference at `{base}/docs` (Swagger UI's script and stylesheet), served by
   * the service itself: `nodeDocsAssets()` of `@voar/hono-edge/node-docs` on Node. Default: none, and
   * `{base}/docs` says where the reference is served instead (the Worker's bundle leaves the files out).
   */
  readonly docsAssets?: DocsAssets | undefined;
  /**
   * Price calendars (`POST {base}/ConsultaAereo/Calendario` and its stream): `priceCalendar()`. They are kept in
   * the session store (`SessionStore.calendars`: the memory and Redis stores have them). Default: none (the
   * routes answer 404): the Worker's bundle, with a size budget, goes without; the Node, Deno and Bun entries give it.
   */
  readonly priceCalendar?: PriceCalendarFeature | undefined;
  /**
   * Price watches (`/Alertas`: a tenant asks once, its webhook or stream is told when a route gets cheaper):
   * `priceAlerts()`. Kept in the session store (`SessionStore.alerts`: the memory and Redis stores have them).
   * Default: none (the routes answer 404). The Node entry gives it.
   */
  readonly priceAlerts?: PriceAlertsFeature | undefined;
  /** Aborting it stops the searches this instance runs and releases their leases (graceful shutdown). */
  readonly signal?: AbortSignal | undefined;
  /**
   * How busy the instance is (its event loop's delay; the Node entry measures it with `nodeLoadSignal`).
   * With it, admission control (`config.limits.admission`) refuses new searches while the instance is
   * overloaded, and `/ready` says so. Default: none (never judged overloaded).
   */
  readonly load?: LoadSignal | undefined;
  /**
   * Where the service counts and times what it does (requests, searches, sources, refusals, streams): the
   * Node entry gives `prom-client` metrics. Default: {@link noopMetrics}.
   */
  readonly metrics?: ServiceMetrics | undefined;
  /**
   * The metrics' text, served at `GET /metrics` (root, beside `/health`) to the holders of an admin key.
   * Default: none, and no such route (the Node entry serves it here, or on `metrics.port` without a key).
   */
  readonly metricsExposition?: MetricsExposition | undefined;
  /**
   * Where the upstream's logins stand (`upstreamSourcesFor(...).login`): `/ready` says so, and answers 503
   * while the upstream refuses the configured credentials. Default: none (no upstream).
   */
  readonly upstreamLogin?: (() => LoginState) | undefined;
  /** How long the upstream's answers take lately (`upstreamSourcesFor(...).pace`): `/ready` says when slower than the plain client's pace. */
  readonly upstreamPace?: (() => PaceState) | undefined;
}

/** {@link AppDeps} with every default filled in. */
export type ResolvedDeps = { readonly [K in Exclude<keyof AppDeps, "signal" | "clientAddress" | "docsAssets" | "load" | "metricsExposition" | "upstreamLogin" | "upstreamPace" | "priceCalendar" | "priceAlerts">]-?: NonNullable<AppDeps[K]> } & {
  readonly upstreamLogin: (() => LoginState) | undefined;
  readonly upstreamPace: (() => PaceState) | undefined;
  readonly priceCalendar: PriceCalendarFeature | undefined;
  readonly priceAlerts: PriceAlertsFeature | undefined;
  readonly metricsExposition: MetricsExposition | undefined;
  readonly signal: AbortSignal | undefined;
  readonly load: LoadSignal | undefined;
  readonly clientAddress: ((c: Context) => string | undefined) | undefined;
  readonly docsAssets: DocsAssets | undefined;
};

/**
 * Fills in the defaults and checks what the schema alone cannot: that the configured source ids exist.
 * Throws {@link ConfigError}.
 */
export const resolveDeps = (deps: AppDeps): ResolvedDeps => {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const wanted = config.search.sources;
  if (wanted) {
    const known = new Set(deps.sources.map((s) => s.id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new ConfigError([`search.sources: unknown source id(s) ${unknown.join(", ")}; available: ${[...known].join(", ")}`]);
    }
  }
  return {
    config,
    sources: wanted ? deps.sources.filter((s) => wanted.includes(s.id)) : deps.sources,
    clock,
    store: deps.store ?? createMemorySessionStore({
        clock,
        maxSessions: config.limits.maxSessions,
        maxSessionsPerTenant: config.limits.maxSessionsPerTenant,
        ttlMs: config.search.ttlMs,
      }),
    logger: deps.logger ? redactingLogger(deps.logger) : jsonLinesLogger(),
    airports: deps.airports ?? coreAirports,
    pagante: deps.pagante ?? createMemoryPaganteSettings(config.pagante),
    rateLimiters: deps.rateLimiters ?? memoryRateLimiters(clock),
    rateLimiter: deps.rateLimiter ?? (deps.rateLimiters ?? memoryRateLimiters(clock))("tenant", config.limits.rateLimit),
    clientAddress: deps.clientAddress,
    instanceId: deps.instanceId ?? crypto.randomUUID(),
    newSearchId: deps.newSearchId ?? (() => crypto.randomUUID()),
    signal: deps.signal,
    docsAssets: deps.docsAssets,
    priceCalendar: deps.priceCalendar,
    priceAlerts: deps.priceAlerts,
    load: deps.load,
    metrics: deps.metrics ?? noopMetrics,
    metricsExposition: deps.metricsExposition,
    upstreamLogin: deps.upstreamLogin,
    upstreamPace: deps.upstreamPace,
  };
};
