/**
 * `@voar/http-adapter`: an upstream ConsultaAereo service as Voar search sources, on undici (Node): a
 * keep-alive pool with connection limits and timeouts. The fetch build (`@voar/http-adapter/fetch`) has the
 * same API on `fetch` alone, plus the typed client, also exported here.
 * @packageDocumentation
 */
import { createFetchTransport } from "./transport/fetch-transport.js";
import type { FetchLike, HttpTransport } from "./transport/http-transport.js";
import { createUndiciTransport, type UndiciTransportOptions } from "./transport/undici-transport.js";
import { upstreamContext, type UpstreamOptions } from "./upstream/upstream-options.js";
import { fanOutSources, upstreamSource, type FanOutIdentity, type UpstreamSource, type UpstreamSourceIdentity } from "./upstream/upstream-sources.js";

/**
 * Transport options on Node: undici's pool settings, a `fetch` of your own (a test's fake upstream, say: the
 * requests go through it, as in the fetch build), or a transport of your own, which overrides both.
 */
export interface NodeTransportOptions extends UndiciTransportOptions {
  readonly fetch?: FetchLike | undefined;
  readonly transport?: HttpTransport | undefined;
}

const nodeTransport = (options: NodeTransportOptions): HttpTransport =>
  options.transport ?? (options.fetch ? createFetchTransport(options.fetch) : createUndiciTransport(options));

/**
 * An upstream ConsultaAereo service as one core source, over undici. It logs in with the password grant
 * (`POST {base}/Token`, `Origin: externo`) or sends a static token, polls each search until `Completed` at
 * the upstream's pace, hands the engine each poll's new offers, and fails with core's tagged errors.
 *
 * @example
 * const upstream = createUpstreamSource({
 *   baseUrl: "https://upstream.example/api",
 *   credentials: { username: "agencia", password: process.env.UPSTREAM_PASSWORD! },
 *   connections: 32,
 * });
 * search(query, [upstream]).subscribe(render);
 * await upstream.close();
 */
export const createUpstreamSource = (options: UpstreamOptions & UpstreamSourceIdentity & NodeTransportOptions): UpstreamSource =>
  upstreamSource(upstreamContext(options, nodeTransport(options)), options);

/**
 * The fan-out over undici: one single-airline upstream source per airline (Companhia 1, 2, 3...), sharing
 * one session and pool. The fastest airline's flights come first instead of after the slowest.
 *
 * @example
 * const sources = createFanOutSources({ baseUrl, credentials: { token: "api-key" } });
 * search(query, sources).subscribe((s) => console.log(s.sources.map((p) => `${p.name}: ${p.state}`)));
 */
export const createFanOutSources = (options: UpstreamOptions & FanOutIdentity & NodeTransportOptions): UpstreamSource[] =>
  fanOutSources(upstreamContext(options, nodeTransport(options)), options);

export { createUndiciTransport, type UndiciTransportOptions } from "./transport/undici-transport.js";
export {
  createClient,
  createFetchTransport,
  transportFailure,
  AuthSession,
  CREDENTIALS_HOLD_MS,
  LOGIN_BREAKER,
  memoryLoginStore,
  defaultPolling,
  pollDelay,
  searchRequestBody,
  retryAfterMs,
  admitTransition,
  memoryBreakerStore,
  recordTransition,
  DEFAULT_COOLDOWN_MS,
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_REQUESTS_PER_SOURCE,
  RequestBudgetGroup,
  requestBudgetGroupOf,
  withRequestBudgetGroup,
  memoryPacingStore,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type PacingEntry,
  type PacingStore,
  type PaceState,
  type PlannedPoll,
  type Admission,
  type BreakerOptions,
  type BreakerRecord,
  type BreakerSettings,
  type BreakerState,
  type BreakerStore,
  type HeldToken,
  type LoginState,
  type LoginStore,
  type RequestBudgetOptions,
  type RequestOutcome,
  type VoarClient,
  type ClientOptions,
  type ClientTransport,
  type Envelope,
  type CalendarRequest,
  type SearchRequest,
  type FetchLike,
  type HttpReply,
  type HttpRequest,
  type HttpTransport,
  type TimeoutLimits,
  type UpstreamCredentials,
  type UpstreamOptions,
  type UpstreamExchange,
  type UpstreamObserver,
  type UpstreamOutcome,
  type FanOutIdentity,
  type UpstreamSource,
  type UpstreamSourceIdentity,
  type PollingOptions,
  verifyAlertWebhook,
  WebhookVerificationError,
  type AlertsClient,
  type WatchRequest,
  type WebhookSecret,
} from "./fetch.js";
