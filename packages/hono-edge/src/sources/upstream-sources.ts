/**
 * A real ConsultaAereo upstream as the service's sources, built with whichever adapter the runtime has:
 * `@voar/http-adapter` (undici, Node) or `@voar/http-adapter/fetch` (workerd, Deno, Bun). Only types are
 * imported here, so the module stays runtime-neutral and the caller chooses (and loads) the adapter.
 */
import type { SearchQuery, SearchSource } from "@voar/core";
import type {
  BreakerState,
  BreakerStore,
  FanOutIdentity,
  LoginState,
  LoginStore,
  PaceState,
  PacingStore,
  UpstreamExchange,
  UpstreamOptions,
  UpstreamSource,
  UpstreamSourceIdentity,
} from "@voar/http-adapter/fetch";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";
import { upstreamCacheOf, upstreamCredentials, UPSTREAM_AIRLINE_IDS, type UpstreamConfig } from "../config/deploy-schema.js";

/** The two factories of `@voar/http-adapter` (or its `/fetch` build), e.g. `await import("@voar/http-adapter")`. */
export interface UpstreamAdapter {
  readonly createFanOutSources: (options: UpstreamOptions & FanOutIdentity) => UpstreamSource[];
  readonly createUpstreamSource: (options: UpstreamOptions & UpstreamSourceIdentity) => UpstreamSource;
  /** The in-process stores, shared by the airlines' and the comparison's sources when no shared store is given. */
  readonly memoryBreakerStore?: (() => BreakerStore) | undefined;
  readonly memoryLoginStore?: (() => LoginStore) | undefined;
}

/** The sources of one upstream, and how to let their connections go. */
export interface UpstreamSources {
  /** One source per allowed airline (`upstream:latam`...), then the OTA comparison (`upstream:otas`) if enabled. */
  readonly sources: readonly SearchSource[];
  /** Where the upstream's logins stand (for `/ready`: `createApp({ upstreamLogin })`). */
  readonly login: () => LoginState;
  /** How long the upstream's answers take lately, and whether slower than the plain client's pace (for `/ready`: `createApp({ upstreamPace })`). */
  readonly pace: () => PaceState;
  /**
   * Logs in now (or takes the token another instance holds), so that `/ready` tells a refused credential
   * before the first search does. Never rejects: the outcome is the login's state.
   */
  warmUp(signal: AbortSignal): Promise<void>;
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
  /** Where the upstream's token and the claim on its next login live: shared by the instances (`redisLoginStore`) or, by default, in this process. */
  readonly loginStore?: LoginStore | undefined;
  /** Told when the logins' state changes (failing, credentials refused, ok again), e.g. to log it. */
  readonly onLoginStateChange?: ((state: LoginState) => void) | undefined;
  /**
   * The engine's inactivity timeout of a source (`search.sourceTimeoutMs`): while the adapter waits between
   * polls by choice, its sources tell the engine they are alive well within it. Default 20 000 ms.
   */
  readonly sourceTimeoutMs?: number | undefined;
  /**
   * Where what the adapter learns of the upstream's pace lives (each airline's times and yields per route): shared by
   * the instances (`redisPacingStore`, a Worker's shared objects), so a new instance paces a route as another learned
   * it; by default, in this process.
   */
  readonly pacingStore?: PacingStore | undefined;
  /** Told when the upstream becomes slower than the plain client's pace (its answers take over 10 s), or comes back to it. */
  readonly onPaceChange?: ((state: PaceState) => void) | undefined;
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

const rank = { ok: 0, failing: 1, refused: 2 } as const;
/** The worse of two sessions' states (a refused credential over a failing `/Token` over ok). */
const worst = (a: LoginState | undefined, b: LoginState | undefined): LoginState => {
  const x = a ?? { state: "ok" };
  const y = b ?? { state: "ok" };
  return rank[y.state] > rank[x.state] ? y : x;
};

/** Id under which the shared all-airlines upstream search (`strategy: "one-search"`) runs: its breaker and its requests. */
export const UPSTREAM_ALL_RUN_ID = "upstream:all";
/** Id of the upstream's logins (`POST /Token`): their breaker and their requests (the adapter's `LOGIN_BREAKER`). */
export const UPSTREAM_LOGIN_ID = "upstream:login";

/** Id of the source that asks the upstream's own OTA comparison (Companhia 1300) for Mode B. */
export const UPSTREAM_OTAS_SOURCE_ID = "upstream:otas";

/**
 * The upstream as sources: one source per allowed airline (each airline's progress shows; in Mode A they follow
 * one all-airlines upstream search, or one search each with `upstream.strategy: "fan-out"`) for Mode A and
 * single-airline searches, and
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
export const upstreamSourcesFor = (upstream: UpstreamConfig, adapter: UpstreamAdapter, given: UpstreamProtectionDeps = {}): UpstreamSources => {
  // One breaker store and one login store for the airlines and the comparison: one account, one login.
  const deps = { ...given, breakerStore: given.breakerStore ?? adapter.memoryBreakerStore?.(), loginStore: given.loginStore ?? adapter.memoryLoginStore?.() };
  const metrics = deps.metrics;
  const common: UpstreamOptions = {
    ...protectionOf(upstream, deps),
    baseUrl: upstream.url,
    // Every exchange counted and timed by route, outcome and source (`voar_upstream_requests_total`): which airline costs what.
    ...(metrics ? { observer: (x: UpstreamExchange) => metrics.upstreamRequest(x.route, x.outcome, x.durationMs / 1_000, x.source) } : {}),
    credentials: upstreamCredentials(upstream),
    login: { store: deps.loginStore, onStateChange: deps.onLoginStateChange },
    learning: {
      store: deps.pacingStore,
      onPaceChange: deps.onPaceChange,
      ...(metrics ? { onSearchSettled: (s: { readonly requests: number; readonly plainRequests: number }) => metrics.upstreamSearchSettled(s.requests, s.plainRequests) } : {}),
    },
    // A rest between polls is told to the engine at least four times within its inactivity timeout.
    polling: { heartbeatMs: Math.max(100, Math.min(5_000, Math.floor((deps.sourceTimeoutMs ?? 20_000) / 4))) },
    ...(upstream.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: upstream.requestTimeoutMs }),
    // An offer is current for as long as the cache may serve its answer (fresh, then stale while refreshed).
    offerValidityMs: upstreamCacheOf(upstream).freshMs + upstreamCacheOf(upstream).staleMs,
  };
  const airlines = adapter.createFanOutSources({ ...common, airlines: upstream.airlines ?? UPSTREAM_AIRLINE_IDS, strategy: upstream.strategy });
  const otas = upstream.otas ? adapter.createUpstreamSource({ ...common, id: UPSTREAM_OTAS_SOURCE_ID, name: "OTAs do fornecedor" }) : undefined;
  const pace = (): PaceState => (airlines[0] ?? otas)?.pace() ?? { answerMs: undefined, slow: false };
  const login = () => worst(airlines[0]?.session.state, otas?.session.state);
  // Who the upstream's requests are counted under, and the breakers there are: each airline's source, the shared
  // all-airlines search (its own breaker: "one-search"), the comparison, the login.
  metrics?.prepareUpstream([
    ...airlines.map((a) => a.id),
    ...(upstream.strategy === "fan-out" ? [] : [UPSTREAM_ALL_RUN_ID]),
    ...(otas ? [otas.id] : []),
    UPSTREAM_LOGIN_ID,
  ]);
  metrics?.upstreamLogin(() => login().state);
  metrics?.upstreamPace(() => {
    const p = pace();
    return { answerSeconds: p.answerMs === undefined ? undefined : p.answerMs / 1_000, slow: p.slow };
  });
  const comparison: SearchSource[] = otas ? [{ ...otas, kind: "ota", serves: (q: SearchQuery) => q.mode.kind === "ota-comparison" }] : [];
  return {
    sources: [...airlines, ...comparison],
    // The airlines share one session, the comparison has its own (sharing the token through the login store).
    login,
    // The airlines and the comparison ask the same upstream: the airlines' view of its pace (the comparison's when alone).
    pace,
    warmUp: async (signal) => {
      await airlines[0]?.session.bearer(signal).catch(() => undefined);
    },
    close: async () => {
      // The fan-out's sources share one session and pool: closing one closes it.
      await Promise.all([airlines[0]?.close(), otas?.close()]);
    },
  };
};
