/**
 * A real ConsultaAereo upstream as the service's sources, built with whichever adapter the runtime has:
 * `@voar/http-adapter` (undici, Node) or `@voar/http-adapter/fetch` (workerd, Deno, Bun). Only types are
 * imported here, so the module stays runtime-neutral and the caller chooses (and loads) the adapter.
 */
import type { SearchQuery, SearchSource } from "@voar/core";
import type { BreakerState, BreakerStore, FanOutIdentity, UpstreamExchange, UpstreamOptions, UpstreamSource, UpstreamSourceIdentity } from "@voar/http-adapter/fetch";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";
import { upstreamCacheOf, upstreamCredentials, UPSTREAM_AIRLINE_IDS, type UpstreamConfig } from "../config/deploy-schema.js";

/** The two factories of `@voar/http-adapter` (or its `/fetch` build), e.g. `await import("@voar/http-adapter")`. */
export interface UpstreamAdapter {
  readonly createFanOutSources: (options: UpstreamOptions & FanOutIdentity) => UpstreamSource[];
  readonly createUpstreamSource: (options: UpstreamOptions & UpstreamSourceIdentity) => UpstreamSource;
}

/** The sources of one upstream, and how to let their connections go. */
export interface UpstreamSources {
  /** One source per allowed airline (`upstream:latam`...), then the OTA comparison (`upstream:otas`) if enabled. */
  readonly sources: readonly SearchSource[];
  /** Closes the adapter's connections (after the app stopped its searches). */
  close(): Promise<void>;
}

/** What the runtime adds to the configured protection of the upstream. */
export interface UpstreamProtectionDeps {
  /** Where the breakers live: shared by the instances (`redisBreakerStore`) or, by default, in this process. */
  readonly breakerStore?: BreakerStore | undefined;
  /** Told when an airline's (or the OTA comparison's) breaker is seen in a new state, e.g. to set a gauge. */
  readonly onBreakerStateChange?: ((sourceId: string, state: BreakerState) => void) | undefined;
  /** Counts and times every HTTP exchange with the upstream (`voar_upstream_requests_total`). */
  readonly metrics?: ServiceMetrics | undefined;
}

/** The adapter's breaker and budget options from `upstream.breaker` and `upstream.budget`. */
const protectionOf = (upstream: UpstreamConfig, deps: UpstreamProtectionDeps): Pick<UpstreamOptions, "breaker" | "budget"> => ({
  breaker: upstream.breaker.enabled && {
    failureThreshold: upstream.breaker.failureThreshold,
    cooldownMs: upstream.breaker.cooldownMs,
    store: deps.breakerStore,
    // Each change also sets the source's `voar_source_breaker_state` gauge, with `deps.metrics`.
    onBreakerStateChange:
      deps.metrics || deps.onBreakerStateChange
        ? (sourceId: string, state: BreakerState) => {
            deps.metrics?.sourceBreakerState(sourceId, state);
            deps.onBreakerStateChange?.(sourceId, state);
          }
        : undefined,
  },
  budget: upstream.budget.enabled && { maxRequestsPerSearch: upstream.budget.requestsPerSearch, requestsPerSource: upstream.budget.requestsPerSource },
});

/** Id of the source that asks the upstream's own OTA comparison (Companhia 1300) for Mode B. */
export const UPSTREAM_OTAS_SOURCE_ID = "upstream:otas";

/**
 * The upstream as sources: the fan-out (one source per allowed airline, so each airline's progress shows
 * and an airline the account may not search is never asked) for Mode A and single-airline searches, and
 * one source asking the upstream's OTA comparison for Mode B (unless `otas` is false). Each source has its
 * breaker (`upstream.breaker`), in `deps.breakerStore` when given (Redis, shared by the instances); each
 * search a budget of upstream requests (`upstream.budget`). With `deps.metrics`, every HTTP exchange with
 * the upstream is counted and timed.
 *
 * @example
 * const upstream = upstreamSourcesFor(config.upstream, await import("@voar/http-adapter"));
 * const app = createApp({ config, sources: upstream.sources });
 * // at shutdown, after the app's searches stopped: await upstream.close();
 */
export const upstreamSourcesFor = (upstream: UpstreamConfig, adapter: UpstreamAdapter, deps: UpstreamProtectionDeps = {}): UpstreamSources => {
  const metrics = deps.metrics;
  const common: UpstreamOptions = {
    ...protectionOf(upstream, deps),
    baseUrl: upstream.url,
    // Every exchange counted and timed by route and outcome (`voar_upstream_requests_total`).
    ...(metrics ? { observer: (x: UpstreamExchange) => metrics.upstreamRequest(x.route, x.outcome, x.durationMs / 1_000) } : {}),
    credentials: upstreamCredentials(upstream),
    ...(upstream.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: upstream.requestTimeoutMs }),
    // An offer is current for as long as the cache serves its answer fresh.
    offerValidityMs: upstreamCacheOf(upstream).freshMs,
  };
  const airlines = adapter.createFanOutSources({ ...common, airlines: upstream.airlines ?? UPSTREAM_AIRLINE_IDS });
  const otas = upstream.otas ? adapter.createUpstreamSource({ ...common, id: UPSTREAM_OTAS_SOURCE_ID, name: "OTAs do fornecedor" }) : undefined;
  const comparison: SearchSource[] = otas ? [{ ...otas, kind: "ota", serves: (q: SearchQuery) => q.mode.kind === "ota-comparison" }] : [];
  return {
    sources: [...airlines, ...comparison],
    close: async () => {
      // The fan-out's sources share one session and pool: closing one closes it.
      await Promise.all([airlines[0]?.close(), otas?.close()]);
    },
  };
};
