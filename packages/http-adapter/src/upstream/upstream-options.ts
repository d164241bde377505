/**
 * The options every upstream source takes, and the shared context built from them.
 */
import type { AirportDirectory } from "@voar/core";
import { airports as defaultAirports } from "@voar/core/airports";
import type { HttpTransport } from "../transport/http-transport.js";
import { observedTransport, type UpstreamObserver } from "../transport/observed-transport.js";
import { AuthSession, type LoginState } from "./auth-session.js";
import type { LoginStore } from "./login-store.js";
import { LearnedPacing } from "./learned-pacing.js";
import type { PacingStore } from "./pacing-store.js";
import { PollBudget } from "./poll-budget.js";
import { UpstreamPace, type PaceState } from "./upstream-pace.js";
import type { UpstreamCredentials } from "./credentials.js";
import { DEFAULT_OFFER_VALIDITY_MS } from "./offer-freshness.js";
import { pollingWith, type PollingOptions } from "./poll-pacing.js";
import type { PlannedPoll, UpstreamContext } from "./upstream-context.js";
import { upstreamProtection, type BreakerOptions, type RequestBudgetOptions } from "./source-breaker.js";

/** Where the upstream is and how to talk to it. */
export interface UpstreamOptions {
  /** Base URL of the API, routes below it: `https://host/api` for `https://host/api/ConsultaAereo/Consultar`. */
  readonly baseUrl: string;
  readonly credentials: UpstreamCredentials;
  /** Airports, for the time zones of durations. Default: core's directory. */
  readonly airports?: AirportDirectory | undefined;
  /** Pacing and caps of polling. */
  readonly polling?: PollingOptions | undefined;
  /**
   * Limit of one HTTP exchange. Default 60 000 ms. A search request is given more when the upstream's recent answers
   * took long (three times the slowest of them, at most `polling.maxDurationMs`): a request the upstream is still
   * answering is not abandoned for being slow.
   */
  readonly requestTimeoutMs?: number | undefined;
  /** `QuantidadePorPagina` asked in Mode A (pages beyond the first are fetched once complete). Default 100. */
  readonly pageSize?: number | undefined;
  /**
   * How long an offer counts as current from the time it was seen (its `validUntil`); half of it for an
   * answer the upstream says came from its own cache (`ByCache`). Default 600 000 ms.
   */
  readonly offerValidityMs?: number | undefined;
  /**
   * Told of every HTTP exchange with the upstream (route, outcome, duration), e.g. to count it as a metric.
   * Every exchange is also a client span of `@opentelemetry/api` carrying `traceparent` to the upstream.
   */
  readonly observer?: UpstreamObserver | undefined;
  /**
   * A breaker per source (each airline of the fan-out, the single source): after `failureThreshold` failed
   * requests in a row the source is not asked for `cooldownMs`, then probed. Default on (3 failures, 30 s,
   * in this process); `false` turns it off.
   */
  readonly breaker?: BreakerOptions | false | undefined;
  /**
   * A budget of upstream requests per search, over the adapter's sources (`{}`: 32 per source). Default off.
   * A search is the query object the engine hands its sources: give each search its own query object.
   */
  readonly budget?: RequestBudgetOptions | false | undefined;
  /**
   * The logins (`POST {base}/Token`): where the token and the claim on the next login live (default this
   * process; a store shared by the instances makes them log in once for all), and who hears the session's
   * {@link LoginState} change. `/Token` failing opens its own breaker (`upstream:login`, with `breaker`'s
   * settings and store); a refused credential stops logins with it for 15 minutes.
   */
  readonly login?: { readonly store?: LoginStore | undefined; readonly onStateChange?: ((state: LoginState) => void) | undefined } | undefined;
  /**
   * What the adapter learns to pace its polls (each airline's times and yields per route, the upstream's answer
   * times): where it lives (default this process; a store shared by the instances, e.g. `redisPacingStore` of
   * `@voar/hono-edge/redis`, makes a new instance pace a route as another learned it), who hears the shared store
   * fail, and who hears the upstream become slower than the plain client's pace (its answers take longer than
   * `polling.maxDelayMs`) or come back to it.
   */
  readonly learning?:
    | {
        readonly store?: PacingStore | undefined;
        readonly onStoreError?: ((error: unknown) => void) | undefined;
        readonly onPaceChange?: ((state: PaceState) => void) | undefined;
        /** Told of each poll planned (when, which kind, for which airlines): to see why a poll went when it did. */
        readonly onPlan?: ((plan: PlannedPoll) => void) | undefined;
        /**
         * Told when an upstream search ends: the requests it took, and what a plain client would have spent on it
         * (its login, its query, a poll every `polling.maxDelayMs` until complete; estimated for a search left before
         * it completed): for a metric of what the adapter costs against the client it replaces.
         */
        readonly onSearchSettled?: ((settled: { readonly requests: number; readonly plainRequests: number }) => void) | undefined;
      }
    | undefined;
}

/** Builds the context shared by the sources of one adapter. */
export const upstreamContext = (options: UpstreamOptions, bare: HttpTransport): UpstreamContext => {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const transport = observedTransport(bare, baseUrl, options.observer);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const protection = upstreamProtection(options.breaker, options.budget, requestTimeoutMs);
  const breaker = protection.breaker && { store: protection.breaker.store, settings: protection.breaker.settings };
  const polling = pollingWith(options.polling);
  return {
    transport,
    // The login breaker's state is told as the sources' are (`onBreakerStateChange`, once per change).
    session: new AuthSession({ transport, baseUrl, credentials: options.credentials, requestTimeoutMs, breaker, store: options.login?.store, onStateChange: options.login?.onStateChange, onBreakerState: protection.breaker?.notify }),
    baseUrl,
    airports: options.airports ?? defaultAirports,
    polling,
    requestTimeoutMs,
    pageSize: options.pageSize ?? 100,
    protection,
    leases: new Map(),
    offerValidityMs: options.offerValidityMs ?? DEFAULT_OFFER_VALIDITY_MS,
    pace: new UpstreamPace({ baseTimeoutMs: requestTimeoutMs, maxTimeoutMs: Math.max(requestTimeoutMs, polling.maxDurationMs), paceMs: polling.maxDelayMs, onChange: options.learning?.onPaceChange }),
    learned: new LearnedPacing({ binMs: polling.initialDelayMs / 4, horizonMs: polling.maxDurationMs, store: options.learning?.store, onStoreError: options.learning?.onStoreError }),
    budget: new PollBudget(polling.maxDelayMs, options.learning?.onSearchSettled),
    onPlan: options.learning?.onPlan,
  };
};

/** Default of {@link UpstreamOptions.requestTimeoutMs}: a search's deadline (60 s), so a 30 s answer is kept. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
