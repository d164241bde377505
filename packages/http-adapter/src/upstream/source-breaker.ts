/**
 * What protects the upstream from the adapter's own searches: a breaker per source (airline, OTA
 * comparison) and a budget of requests per search. Both sit on the source's HTTP transport, so every
 * request of a search, first ask, polls and pages alike, goes through them:
 * - the breaker counts the requests that fail as an unavailable upstream does (transport errors, timeouts,
 *   5xx and 408, 429); any other answer, a business refusal or a 403 included, is the upstream answering. While
 *   open, a request is not sent: it fails at once with `SourceUnavailable`, which the engine does not retry
 *   within the search and progress shows with the catalogue's sentence. While half-open, one request is the
 *   probe and the requests beside it wait for its outcome (at most the probe's own time limit): sent when it
 *   closes the breaker, failed with the new cool-down when it opens it again;
 * - the budget counts the requests of one search, over all the sources of one adapter; past it a request
 *   fails with `RequestBudgetExhausted`, likewise visible and not retried.
 */
import { isSourceError, RequestBudgetExhausted, SourceUnavailable, type SearchQuery } from "@voar/core";
import type { HttpReply, HttpRequest, HttpTransport } from "../transport/http-transport.js";
import { memoryBreakerStore, type Admission, type BreakerSettings, type BreakerState, type BreakerStore, type RequestOutcome } from "./breaker-state.js";
import { requestBudgetGroupOf } from "./request-budget-group.js";

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
  readonly breaker:
    | {
        readonly settings: BreakerSettings;
        readonly store: BreakerStore;
        readonly notify: (sourceId: string, state: BreakerState) => void;
        /** The requests of this process waiting beside a half-open probe, woken when a probe's outcome is recorded here. */
        readonly probes: ProbeWaiters;
      }
    | undefined;
  /** Undefined when the budget is off. */
  readonly budget: { readonly max: number | undefined; readonly perSource: number } | undefined;
}

/**
 * The requests waiting beside half-open probes, per source: a probe sent by this process wakes them when its
 * outcome is recorded; a probe of another instance (a shared store) tells nobody here, so a waiter also asks
 * the store again every {@link PROBE_RECHECK_MS}.
 */
export class ProbeWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Resolves when a probe of `sourceId` ended here, after `ms`, or when `signal` aborts, whichever is first. */
  wait(sourceId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      let set = this.waiting.get(sourceId);
      if (!set) this.waiting.set(sourceId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        set.delete(done);
        if (set.size === 0 && this.waiting.get(sourceId) === set) this.waiting.delete(sourceId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done);
      set.add(done);
    });
  }

  /** Wakes the requests waiting on `sourceId`: its probe's outcome is recorded. */
  settled(sourceId: string): void {
    const set = this.waiting.get(sourceId);
    if (set) for (const done of [...set]) done();
  }
}

/** How often a request waiting beside a half-open probe asks the breaker's store again (a probe of another instance). */
export const PROBE_RECHECK_MS = 100;

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
      probes: new ProbeWaiters(),
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

type Breaker = NonNullable<UpstreamProtection["breaker"]>;

/** Records how an admitted request ended, tells the new state, and wakes the requests waiting beside a probe. */
const recorded = async (breaker: Breaker, sourceId: string, outcome: RequestOutcome): Promise<void> => {
  try {
    breaker.notify(sourceId, await breaker.store.record(sourceId, outcome, breaker.settings, Date.now()));
  } finally {
    breaker.probes.settled(sourceId);
  }
};

/**
 * The breaker's admission of a request: at once while it is closed or open; while half-open and another
 * request is the probe, after the probe's outcome (a neighbour of the probe does not fail for a breaker
 * about to close): the request waits, asking again when a probe of this process ends and every
 * {@link PROBE_RECHECK_MS}, for at most the time the probe has left (after which the next request is a
 * probe), or until the request is aborted.
 */
const admission = async (breaker: Breaker, sourceId: string, signal: AbortSignal): Promise<Admission> => {
  let a = await breaker.store.admit(sourceId, breaker.settings, Date.now());
  if (a.allowed || a.state !== "half-open") return a;
  const until = Date.now() + Math.min(a.retryAfterMs, breaker.settings.probeTimeoutMs);
  while (!a.allowed && a.state === "half-open" && Date.now() < until && !signal.aborted) {
    await breaker.probes.wait(sourceId, Math.min(PROBE_RECHECK_MS, until - Date.now()), signal);
    a = await breaker.store.admit(sourceId, breaker.settings, Date.now());
  }
  return a;
};

/**
 * The transport one source's search sends through: every request asks the source's breaker first (beside a
 * half-open probe, it waits for the probe: see {@link admission}) and takes one of the search's budget, and
 * its outcome is recorded. `search` is the query object the engine gave the source.
 */
export const protectedTransport = (
  p: UpstreamProtection,
  transport: HttpTransport,
  sourceId: string,
  search: SearchQuery,
  budgets: SearchBudgets | undefined,
): HttpTransport => {
  const breaker = p.breaker;
  // A calendar's days share a budget of their own besides each search's (see `request-budget-group.ts`).
  const group = requestBudgetGroupOf(search);
  if (!breaker && !budgets && !group) return transport;
  return {
    close: () => transport.close(),
    async send(request) {
      if (breaker) {
        const admitted = await admission(breaker, sourceId, request.signal);
        breaker.notify(sourceId, admitted.state);
        // Given up while it waited beside a probe: the search's own reason, not the breaker's.
        if (!admitted.allowed) throw request.signal.aborted ? (request.signal.reason as unknown) : new SourceUnavailable({ retryAfterMs: admitted.retryAfterMs });
      }
      const refused = budgets && !budgets.take(search, Date.now()) ? new RequestBudgetExhausted({ limit: budgets.limit }) : group && !group.take() ? new RequestBudgetExhausted({ limit: group.limit, scope: "calendar" }) : undefined;
      if (refused) {
        // Admitted but not sent: a probe let through is given back.
        if (breaker) await recorded(breaker, sourceId, "cancelled");
        throw refused;
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
        await recorded(breaker, sourceId, outcome);
      }
    },
  };
};
