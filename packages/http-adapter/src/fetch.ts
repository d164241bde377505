/**
 * `@voar/http-adapter/fetch`: the adapter and the client on `fetch` alone, for Deno, Bun, workerd and
 * browsers (and Node, when undici is not wanted). Imports neither undici nor `node:*`.
 * @packageDocumentation
 */
import { createFetchTransport } from "./transport/fetch-transport.js";
import type { FetchLike, HttpTransport } from "./transport/http-transport.js";
import { upstreamContext, type UpstreamOptions } from "./upstream/upstream-options.js";
import { fanOutSources, upstreamSource, type FanOutIdentity, type UpstreamSource, type UpstreamSourceIdentity } from "./upstream/upstream-sources.js";

/** Transport options of the fetch build: a `fetch` to use, or a whole transport. */
export interface FetchTransportOptions {
  /** Default: the global `fetch`. */
  readonly fetch?: FetchLike | undefined;
  /** A transport of your own; overrides `fetch`. */
  readonly transport?: HttpTransport | undefined;
}

/**
 * An upstream ConsultaAereo service as one core source, over `fetch`. It logs in (password grant) or
 * sends a static token, polls each search until `Completed`, and hands the engine each poll's new offers.
 *
 * @example
 * const upstream = createUpstreamSource({ baseUrl: "https://upstream.example/api", credentials: { username, password } });
 * search(query, [upstream]).subscribe(render);
 */
export const createUpstreamSource = (options: UpstreamOptions & UpstreamSourceIdentity & FetchTransportOptions): UpstreamSource =>
  upstreamSource(upstreamContext(options, options.transport ?? createFetchTransport(options.fetch)), options);

/**
 * The fan-out over `fetch`: one single-airline upstream source per airline, sharing one session, so a
 * Mode A search shows each airline as it answers.
 *
 * @example
 * const sources = createFanOutSources({ baseUrl, credentials: { token }, airlines: [1, 2, 3] });
 * search(query, sources).subscribe(render);
 */
export const createFanOutSources = (options: UpstreamOptions & FanOutIdentity & FetchTransportOptions): UpstreamSource[] =>
  fanOutSources(upstreamContext(options, options.transport ?? createFetchTransport(options.fetch)), options);

export { createClient, type VoarClient } from "./client/create-client.js";
export type { AlertsClient, WatchRequest, WebhookSecret } from "./client/alerts-client.js";
export { verifyAlertWebhook, WebhookVerificationError } from "./client/verify-webhook.js";
export type { CalendarRequest, ClientOptions, ClientTransport, Envelope, SearchRequest } from "./client/client-options.js";
export { createFetchTransport } from "./transport/fetch-transport.js";
export { transportFailure, type TimeoutLimits } from "./transport/transport-failure.js";
export type { FetchLike, HttpReply, HttpRequest, HttpTransport } from "./transport/http-transport.js";
export type { UpstreamCredentials } from "./upstream/credentials.js";
export type { UpstreamOptions } from "./upstream/upstream-options.js";
export type { UpstreamExchange, UpstreamObserver, UpstreamOutcome } from "./transport/observed-transport.js";
export type { FanOutIdentity, UpstreamSource, UpstreamSourceIdentity } from "./upstream/upstream-sources.js";
export { AuthSession, CREDENTIALS_HOLD_MS, LOGIN_BREAKER, type LoginState } from "./upstream/auth-session.js";
export { memoryLoginStore, type HeldToken, type LoginStore } from "./upstream/login-store.js";
export { defaultPolling, pollDelay, type PollingOptions, type PollingPolicy } from "./upstream/poll-pacing.js";
export { searchRequestBody } from "./upstream/wire-request.js";
export {
  admitTransition,
  memoryBreakerStore,
  recordTransition,
  type Admission,
  type BreakerRecord,
  type BreakerSettings,
  type BreakerState,
  type BreakerStore,
  type RequestOutcome,
} from "./upstream/breaker-state.js";
export { DEFAULT_COOLDOWN_MS, DEFAULT_FAILURE_THRESHOLD, DEFAULT_REQUESTS_PER_SOURCE, type BreakerOptions, type RequestBudgetOptions } from "./upstream/source-breaker.js";
export { retryAfterMs } from "./upstream/retry-after.js";
export { memoryPacingStore, type PacingEntry, type PacingStore } from "./upstream/pacing-store.js";
export { DEFAULT_REQUEST_TIMEOUT_MS } from "./upstream/upstream-options.js";
export type { PaceState } from "./upstream/upstream-pace.js";
export type { PlannedPoll } from "./upstream/upstream-context.js";
export { RequestBudgetGroup, requestBudgetGroupOf, withRequestBudgetGroup } from "./upstream/request-budget-group.js";
