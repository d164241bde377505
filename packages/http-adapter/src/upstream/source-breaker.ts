/**
 * What protects the upstream from the adapter's own searches: a breaker per source (airline, OTA
 * comparison) and a budget of requests per search. Both sit on the source's HTTP transport, so every
 * request of a search, first ask, polls and pages alike, goes through them:
 * - the breaker counts the requests that fail as an unavailable upstream does (transport errors, timeouts,
 *   5xx and 408, 429); any other answer, a business refusal or a 403 included, is the upstream answering. While
 *   open, a request is not sent: it fails at once with `SourceUnavailable`, which the engine does not retry
 *   within the search and progress shows with the catalogue's sentence;
 * - the budget counts the requests of one search, over all the sources of one adapter; past it a request
 *   fails with `RequestBudgetExhausted`, likewise visible and not retried.
 */
import { isSourceError, RequestBudgetExhausted, SourceUnavailable, type SearchQuery } from "@voar/core";
import type { HttpReply, HttpRequest, HttpTransport } from "../transport/http-transport.js";
import { memoryBreakerStore, type BreakerSettings, type BreakerState, type BreakerStore, type RequestOutcome } from "./breaker-state.js";

/** Options of the breakers (one per source). */
export interface BreakerOptions {
  /** Failed requests in a row (transport errors, timeouts, 5xx, 429) that open a source's breaker. Default 3. */
  readonly failureThreshold?: number | undefined;
  /** How long an open breaker keeps its source from being asked before a probe goes. Default 30 000 ms. */
  readonly cooldownMs?: number | undefined;
  /** Where the breakers live: in this process (default), or a store shared by every instance (`@voar/hono-edge/redis`). */
  readonly store?: BreakerStore | undefined;
  /** Told when a source's breaker is seen in a new state (e.g. to set a gauge), by this instance. */
  readonly onBreakerStateChange?: ((sourceId: string, state: BreakerState) => void) | undefined;
}

/** Options of the per-search budget of upstream requests. */
export interface RequestBudgetOptions {
  /** Requests one search may make, over all the adapter's sources. Default `requestsPerSource` times the sources. */
  readonly maxRequestsPerSearch?: number | undefined;
  /** The default budget's share of each source (e.g. each airline of the fan-out). Default 32. */
  readonly requestsPerSource?: number | undefined;
}

/** The protection shared by the sources of one adapter. */
export interface UpstreamProtection {
  /** Undefined when the breakers are off. */
  readonly breaker: { readonly settings: BreakerSettings; readonly store: BreakerStore; readonly notify: (sourceId: string, state: BreakerState) => void } | undefined;
  /** Undefined when the budget is off. */
  readonly budget: { readonly max: number | undefined; readonly perSource: number } | undefined;
}

/** Default of {@link BreakerOptions.failureThreshold}. */
export const DEFAULT_FAILURE_THRESHOLD = 3;
/** Default of {@link BreakerOptions.cooldownMs}. */
export const DEFAULT_COOLDOWN_MS = 30_000;
/** Default of {@link RequestBudgetOptions.requestsPerSource}. */
export const DEFAULT_REQUESTS_PER_SOURCE = 32;

/** Builds the protection of an adapter from its options: the breakers unless `false`, the budget when given. */
export const upstreamProtection = (
  breaker: BreakerOptions | false | undefined,
  budget: RequestBudgetOptions | false | undefined,
  requestTimeoutMs: number,
): UpstreamProtection => {
  const seen = new Map<string, BreakerState>();
  const b = breaker === false ? undefined : (breaker ?? {});
  return {
    breaker: b && {
      settings: {
        failureThreshold: b.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD,
        cooldownMs: b.cooldownMs ?? DEFAULT_COOLDOWN_MS,
        // A probe is one request: it has answered or failed within the request's own limit.
        probeTimeoutMs: requestTimeoutMs,
      },
      store: b.store ?? memoryBreakerStore(),
      notify: (sourceId, state) => {
        if ((seen.get(sourceId) ?? "closed") === state) return;
        seen.set(sourceId, state);
        try {
          b.onBreakerStateChange?.(sourceId, state);
        } catch {
          // A failing listener (a metrics sink) must not change the search.
        }
      },
    },
    // Off unless asked: the budget keys on the query object the engine hands a search's sources, and a caller
    // of `source.search` may reuse one query object for searches of its own.
    budget: budget ? { max: budget.maxRequestsPerSearch, perSource: budget.requestsPerSource ?? DEFAULT_REQUESTS_PER_SOURCE } : undefined,
  };
};

/**
 * The budgets of the searches of one group of sources (the fan-out, or one source), each kept with the
 * query object the engine hands every source of a search (and every retry of it): one search, one query
 * object, as the service's searches are (each its record's). A budget lasts `windowMs` from its first
 * request, so that one query object reused for searches far apart gets a new budget for each; searches
 * that share one query object at once share its budget.
 */
export class SearchBudgets {
  private readonly used = new WeakMap<object, { count: number; readonly since: number }>();

  constructor(
    /** Requests per search. */
    readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Takes one request of the search's budget, or throws {@link RequestBudgetExhausted} when none is left. */
  charge(search: SearchQuery, now: number): void {
    if (!this.take(search, now)) throw new RequestBudgetExhausted({ limit: this.limit });
  }

  /** Takes one request of the search's budget; false when none is left. */
  take(search: SearchQuery, now: number): boolean {
    let entry = this.used.get(search);
    if (!entry || now - entry.since > this.windowMs) this.used.set(search, (entry = { count: 0, since: now }));
    if (entry.count >= this.limit) return false;
    entry.count++;
    return true;
  }
}

/** The budgets of a group of `sources` sources, or undefined when the budget is off. */
export const searchBudgets = (p: UpstreamProtection, sources: number, windowMs: number): SearchBudgets | undefined =>
  p.budget && new SearchBudgets(p.budget.max ?? p.budget.perSource * Math.max(1, sources), windowMs);

/** Whether a reply is a failure the breaker counts: the upstream is down, overloaded or refusing traffic. */
const failedReply = (reply: HttpReply): boolean => reply.status >= 500 || reply.status === 408 || reply.status === 429 || reply.status < 200;

/**
 * How a request that threw ended: cancelled when the caller aborted it (the search ended), a failure
 * otherwise (the transport's tagged error, or the request's own time limit).
 */
const thrownOutcome = (request: HttpRequest): RequestOutcome =>
  request.signal.aborted && !isSourceError(request.signal.reason) ? "cancelled" : "failure";

/**
 * The transport one source's search sends through: every request asks the source's breaker first and
 * takes one of the search's budget, and its outcome is recorded. `search` is the query object the engine
 * gave the source.
 */
export const protectedTransport = (
  p: UpstreamProtection,
  transport: HttpTransport,
  sourceId: string,
  search: SearchQuery,
  budgets: SearchBudgets | undefined,
): HttpTransport => {
  const breaker = p.breaker;
  if (!breaker && !budgets) return transport;
  return {
    close: () => transport.close(),
    async send(request) {
      if (breaker) {
        const admission = await breaker.store.admit(sourceId, breaker.settings, Date.now());
        breaker.notify(sourceId, admission.state);
        if (!admission.allowed) throw new SourceUnavailable({ retryAfterMs: admission.retryAfterMs });
      }
      if (budgets && !budgets.take(search, Date.now())) {
        // Admitted but not sent: a probe let through is given back.
        if (breaker) breaker.notify(sourceId, await breaker.store.record(sourceId, "cancelled", breaker.settings, Date.now()));
        throw new RequestBudgetExhausted({ limit: budgets.limit });
      }
      if (!breaker) return transport.send(request);
      let outcome: RequestOutcome = "failure";
      try {
        const reply = await transport.send(request);
        outcome = failedReply(reply) ? "failure" : "success";
        return reply;
      } catch (e) {
        outcome = thrownOutcome(request);
        throw e;
      } finally {
        breaker.notify(sourceId, await breaker.store.record(sourceId, outcome, breaker.settings, Date.now()));
      }
    },
  };
};
