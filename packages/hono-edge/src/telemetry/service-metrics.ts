import type { SourceErrorTag } from "@voar/core";
/**
 * What the service counts and times, as a port: the app, the search hub and the stores call it; the Node
 * entry gives an implementation on `prom-client` (`prom-metrics.ts`, served at `GET /metrics`); every other
 * runtime, and every test that does not look, gets {@link noopMetrics}. The app itself never imports a
 * metrics library, so it stays runtime-neutral.
 *
 * Labels are bounded by construction: routes are the app's route patterns, sources the configured source
 * ids, error kinds the engine's error tags; never a Token, a tenant, a path with an id in it, or an error's
 * text.
 */

/** The state of a breaker: `closed` lets calls through, `open` refuses them, `half-open` lets a probe through. */
export type BreakerState = "closed" | "open" | "half-open";

/** How an upstream cache lookup went: fresh entry, stale entry served while it is refreshed, or nothing. */
export type CacheLookupResult = "hit" | "stale" | "miss";

/** Why a new search (or stream) was refused: the store's capacity, the instance's load, or its own cap of searches or streams (admission control). */
export type SearchRefusal = "capacity" | "overloaded" | "concurrency";

/** How a search ended: every source answered (`finished`), the deadline came first, or every source failed (`failed`). */
export type SearchEnd = "finished" | "deadline" | "failed";

/** How a request to the upstream went (see the http-adapter's `UpstreamObserver`): a 429 is `rate_limited`, not a client error. */
export type UpstreamOutcome = "ok" | "rate_limited" | "client_error" | "server_error" | "timeout" | "transport_error" | "aborted";

/** Where the upstream's logins stand: `ok`, `failing` (`/Token` fails as an unavailable service does), `refused` (the credentials: `invalid_grant`). */
export type UpstreamLoginState = "ok" | "failing" | "refused";

/** Which budget refused a request: the tenant's request budget, or one of the login limits. */
export type RefusalScope = "tenant" | "login_address" | "login_account" | "login_successes" | "refused_keys";

/** Where a source's answer came from: its upstream (asked now), or the answer cache (fresh, nothing asked). */
export type AnswerOrigin = "upstream" | "cache";

/** How a batch of spans handed to the trace exporter went. */
export type TraceExportOutcome = "success" | "failure";

/** The labels a metric can have, known from the start: every labelled series is written at zero before anything happens. */
export interface KnownLabels {
  /** The app's route patterns with their methods (`/api/ConsultaAereo/Consultar` POST...). */
  readonly routes: readonly { readonly route: string; readonly methods: readonly string[] }[];
  /** The configured source ids. */
  readonly sources: readonly string[];
  /** The upstream breakers' cool-down: an open breaker's gauge reads half-open once it passed (no request told otherwise). */
  readonly breakerCooldownMs?: number | undefined;
}

/** The service's metrics. Every method is cheap and never throws. */
export interface ServiceMetrics {
  /**
   * Declares every value the labels can take (routes, sources; the outcomes, reasons and kinds are the port's own):
   * each labelled series exists at zero from the start, so the first store outage, refusal or failure is a change
   * `rate()` sees, and a source whose breaker never tripped has its gauge at 0.
   */
  prepare(known: KnownLabels): void;
  /** Time from a search's start to its first offer (searches started here that found any). */
  firstResult(seconds: number): void;
  /** Admission control started (true) or stopped (false) refusing new work for the instance's load. */
  loadShedding(on: boolean): void;
  /** A batch of spans the trace exporter sent or failed to send. */
  traceExport(outcome: TraceExportOutcome, spans: number): void;
  /** An answered request: its route pattern (`unmatched` for a path no route has), method, real status and duration. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A new search started on this instance. */
  searchStarted(): void;
  /** A request joined a search that was already live (same tenant and query). */
  searchJoined(): void;
  /** A new search was refused. */
  searchRefused(reason: SearchRefusal): void;
  /** A search this instance ran ended (see {@link SearchEnd}). */
  searchEnded(end: SearchEnd): void;
  /** How to read the number of searches this instance runs now (read at each scrape). */
  runningSearches(read: () => number): void;
  /** A source finished its part of a search: done, with its offers, `seconds` after the search started, from its upstream or the answer cache. */
  sourceAnswered(source: string, seconds: number, offers: number, origin?: AnswerOrigin): void;
  /** An attempt of a source failed, by the engine's error tag (`SourceTimeout`, `HttpStatusError`...); `final` when no retry follows. */
  sourceFailed(source: string, errorKind: string, final: boolean): void;
  /** A source's breaker changed state (see {@link BreakerState}). */
  sourceBreakerState(source: string, state: BreakerState): void;
  /**
   * Declares who the upstream's requests are counted under (each airline's source, `upstream:all` for the shared
   * all-airlines search, `upstream:otas`, `upstream:login`): their series at zero, each breaker closed; any other
   * id is counted as `other`, so the label stays bounded by the configuration.
   */
  prepareUpstream(sources: readonly string[]): void;
  /**
   * One HTTP exchange with the upstream: its route (`/Token`, `/ConsultaAereo/Consultar`), outcome, duration, and who
   * it was for (see {@link ServiceMetrics.prepareUpstream}; `other` when unsaid).
   */
  upstreamRequest(route: string, outcome: UpstreamOutcome, seconds: number, source?: string): void;
  /** How to read where the upstream's logins stand (read at each scrape). */
  upstreamLogin(read: () => UpstreamLoginState): void;
  /** Spans the tracer dropped before any export: its queue was full (the collector slower than the spans came, or unreachable). */
  spansDropped(spans: number): void;
  /** How to read the upstream's answers lately (read at each scrape): their median time (undefined before any), and whether slower than the plain client's 10 s pace. */
  upstreamPace(read: () => { readonly answerSeconds: number | undefined; readonly slow: boolean }): void;
  /** An upstream search ended: the requests it took, and what a plain client polling every 10 s would have spent on it. */
  upstreamSearchSettled(requests: number, plainRequests: number): void;
  /** One call to the session store (Redis): `ok`, `unavailable` (refused, timed out, breaker open) or `error`. */
  storeCommand(outcome: "ok" | "unavailable" | "error", seconds: number): void;
  /** The store's breaker opened (Redis unreachable or silent) or closed again. */
  storeBreakerState(state: BreakerState): void;
  /** Work that fell back to this instance alone because the store did not answer (e.g. `rate_limit`). */
  storeFallback(kind: string): void;
  /** A request refused by a budget. */
  refused(scope: RefusalScope): void;
  /** An SSE stream opened (+1) or ended (-1). */
  sseStreams(delta: 1 | -1): void;
  /** A search followed by streams (or a calendar's days) advanced in the store without its announcement: read on a timer instead. */
  watchStalled(): void;
  /** A lookup of the upstream answers' cache. */
  cacheLookup(result: CacheLookupResult): void;
}

/** The metrics as Prometheus text, for `GET /metrics`. */
export interface MetricsExposition {
  /** The text exposition of every metric. */
  scrape(): Promise<string>;
  /** Its `Content-Type`. */
  readonly contentType: string;
}

/** Metrics that go nowhere: the default of `createApp` and of every runtime but Node. */
export const noopMetrics: ServiceMetrics = {
  prepare: () => undefined,
  firstResult: () => undefined,
  loadShedding: () => undefined,
  traceExport: () => undefined,
  request: () => undefined,
  searchStarted: () => undefined,
  searchJoined: () => undefined,
  searchRefused: () => undefined,
  searchEnded: () => undefined,
  runningSearches: () => undefined,
  sourceAnswered: () => undefined,
  sourceFailed: () => undefined,
  sourceBreakerState: () => undefined,
  prepareUpstream: () => undefined,
  upstreamRequest: () => undefined,
  upstreamLogin: () => undefined,
  spansDropped: () => undefined,
  upstreamPace: () => undefined,
  upstreamSearchSettled: () => undefined,
  storeCommand: () => undefined,
  storeBreakerState: () => undefined,
  storeFallback: () => undefined,
  refused: () => undefined,
  sseStreams: () => undefined,
  watchStalled: () => undefined,
  cacheLookup: () => undefined,
};

/** Every value of the labels the port itself defines (reasons, outcomes, kinds): what `prepare` writes at zero. */
export const LABEL_VALUES = {
  refusal: ["capacity", "overloaded", "concurrency"] satisfies readonly SearchRefusal[],
  completion: ["finished", "deadline"] as const,
  origin: ["upstream", "cache"] satisfies readonly AnswerOrigin[],
  storeOutcome: ["ok", "unavailable", "error"] as const,
  fallback: ["rate_limit", "breaker"] as const,
  refusalScope: ["tenant", "login_address", "login_account", "login_successes", "refused_keys"] satisfies readonly RefusalScope[],
  cache: ["hit", "stale", "miss"] satisfies readonly CacheLookupResult[],
  upstreamOutcome: ["ok", "rate_limited", "client_error", "server_error", "timeout", "transport_error", "aborted"] satisfies readonly UpstreamOutcome[],
  upstreamRoute: ["/Token", "/ConsultaAereo/Consultar"] as const,
  traceExport: ["success", "failure"] satisfies readonly TraceExportOutcome[],
  /** The engine's error tags (core's `SourceErrorTag`): every kind a source failure is counted by. */
  sourceError: ["SourceTimeout", "TransportError", "HttpStatusError", "RateLimited", "MalformedPayload", "BusinessError", "AuthError", "PermissionDenied", "SourceUnavailable", "RequestBudgetExhausted"] satisfies readonly SourceErrorTag[],
  /** The statuses a route's request counter starts with (what the dashboard and the alerts read). */
  status: [200, 304, 400, 401, 404, 429, 500, 502, 503, 504],
} as const;
