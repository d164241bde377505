/**
 * @voar/hono-edge: the Voar HTTP service as a Hono app on Web-standard APIs: progressive ConsultaAereo
 * search by polling and by SSE, bearer and OAuth2 password-grant auth, limits, the operator's Pagante
 * switch, OpenAPI 3.1 from the zod schemas. One tiny entry per runtime wires it (`src/node.ts` for Node).
 */

// The app
export { createApp } from "./app/create-app.js";
export { priceCalendar, type PriceCalendarFeature } from "./calendar/price-calendar.js";
export type { CalendarStore } from "./calendar/calendar-store.js";
export type { CalendarRecord, CalendarDayRecord, SettledDay } from "./calendar/calendar-record.js";
export { priceAlerts, type PriceAlerts, type PriceAlertsFeature, type PriceAlertsOptions } from "./alerts/price-alerts.js";
export type { AlertStore } from "./alerts/alert-store.js";
export type { AlertRecord, DeliveryRecord, DayUnit, UnitResult } from "./alerts/alert-record.js";
export { createMemoryAlertStore, type MemoryAlertStoreOptions } from "./alerts/memory-alert-store.js";
export type { RouteDayPrices } from "./alerts/route-day-prices.js";
export { isPublicAddress, type AddressResolver } from "./alerts/webhook-address.js";
export type { WebhookPost } from "./alerts/webhook-deliverer.js";
export { noopAlertMetrics, type AlertMetrics } from "./alerts/alert-metrics.js";
export type { AppDeps } from "./app/app-deps.js";
export type { AppEnv } from "./app/app-env.js";
export { systemClock, type Clock } from "./clock.js";

// Configuration
export { ServiceConfigSchema, ApiKeySchema, AgencySchema, type ServiceConfig, type ServiceConfigInput } from "./config/config-schema.js";
export { loadConfig, defineConfig, ConfigError, type ConfigResult, type ConfigSources } from "./config/load-config.js";
export { ENV_VARS, configFromEnv, type EnvConfig } from "./config/env-config.js";
export { UpstreamSchema, UpstreamCacheSchema, StoreSchema, UPSTREAM_AIRLINE_IDS, upstreamCacheOf, type UpstreamConfig, type UpstreamCacheConfig, type StoreConfig } from "./config/deploy-schema.js";
export { deploymentFingerprint, deploymentIdentity, deploymentKeyPrefix, type SimulatorIdentity } from "./config/deployment-fingerprint.js";

// Sources: a real upstream through the adapter the runtime has
export { upstreamSourcesFor, UPSTREAM_OTAS_SOURCE_ID, type UpstreamAdapter, type UpstreamSources } from "./sources/upstream-sources.js";
export { createAnswerCache, type AnswerCache, type AnswerCacheOptions, type CacheLookup } from "./sources/cached-sources.js";
export { createMemoryAnswerStore, type AnswerStore, type CachedAnswer, type MemoryAnswerStoreOptions } from "./sources/answer-store.js";
export { cachedUpstreamSources, upstreamAccount, type CachedUpstreamOptions } from "./sources/cached-upstream.js";

// Session store port and the in-memory store
export type { SessionStore, SearchRecord, SearchLease, OpenResult, Unwatch } from "./search/session-store.js";
export { SessionCapacityReached } from "./search/session-store.js";
export { createMemorySessionStore, type MemorySessionStoreOptions } from "./search/memory-session-store.js";
export { applyChange, applyChanges, emptySnapshotOf, mergeChanges, type SearchChange } from "./search/search-change.js";
export { searchKey } from "./search/search-key.js";

// Other ports and their defaults
export { createMemoryPaganteSettings, type PaganteSettings, type PaganteState } from "./settings/pagante-settings.js";
export {
  createTokenBucketLimiter,
  memoryRateLimiters,
  type BucketOperation,
  type BucketSettings,
  type LimitName,
  type RateLimiter,
  type RateLimiterFactory,
  type RateDecision,
  type TokenBucketOptions,
  type TokenBuckets,
} from "./limits/token-bucket.js";
export { jsonLinesLogger, redactingLogger, silentLogger, type Logger, type LogRecord } from "./logging/logger.js";
export {
  noopMetrics,
  type ServiceMetrics,
  type MetricsExposition,
  type BreakerState,
  type CacheLookupResult,
  type RefusalScope,
  type SearchEnd,
  type SearchRefusal,
  type UpstreamLoginState,
  type UpstreamOutcome,
} from "./telemetry/service-metrics.js";
export { SyncContextManager } from "./telemetry/sync-context-manager.js";
export { REDACTED, redactRecord, redactText } from "./logging/log-redactor.js";
export type { LoadSignal } from "./limits/load-signal.js";
export { Admission, type AdmissionOptions, type LoadState } from "./limits/admission.js";
export type { Principal } from "./auth/authenticator.js";

// Errors and the wire
export {
  InvalidRequest,
  UnknownSearch,
  Unauthorized,
  PayloadTooLarge,
  RateLimitExceeded,
  SearchCapacityReached,
  RouteNotFound,
  StoreUnavailable,
  MethodNotAllowed,
  UnsupportedMediaType,
  InternalError,
  isServiceError,
  isStoreUnavailable,
  type ServiceError,
  type ServiceErrorTag,
  type UnauthorizedReason,
} from "./errors/service-errors.js";
export { InstanceOverloaded } from "./errors/instance-overloaded.js";
export { ERROR_TABLE, toErrorResponse, type ErrorMapping, type ErrorResponse, type ServiceErrorStatus } from "./errors/error-table.js";
export { openApiDocument } from "./openapi/openapi-document.js";
export { DOCS_ASSET_FILES, type DocsAsset, type DocsAssetFile, type DocsAssets } from "./docs/docs-page.js";
export { TokenRequestSchema, TokenResponseSchema } from "./routes/token-route.js";
export { PaganteUpdateSchema, PaganteListSchema } from "./routes/admin-route.js";
