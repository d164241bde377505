/**
 * What every upstream search of one adapter shares: the transport, the session, where the upstream is,
 * how to pace polls, and the leases of searches that may be resumed.
 */
import type { AirportDirectory } from "@voar/core";
import type { HttpTransport } from "../transport/http-transport.js";
import type { AuthSession } from "./auth-session.js";
import type { LearnedPacing } from "./learned-pacing.js";
import type { PollBudget } from "./poll-budget.js";
import type { PollingPolicy } from "./poll-pacing.js";
import type { UpstreamPace } from "./upstream-pace.js";
import type { UpstreamProtection } from "./source-breaker.js";

/** A lease an upstream handed out, kept so that a retried attempt resumes the search instead of starting anew. */
export interface HeldLease {
  readonly leaseId: string;
  readonly at: number;
  /** `Date.now()` when the upstream search started (its first request left), when known. */
  readonly origin?: number | undefined;
}

/** The shared state of an adapter. */
export interface UpstreamContext {
  readonly transport: HttpTransport;
  readonly session: AuthSession;
  /** e.g. `https://host/api`, no trailing slash. */
  readonly baseUrl: string;
  readonly airports: AirportDirectory;
  readonly polling: PollingPolicy;
  /** Limit of one HTTP exchange (the least: search requests follow the upstream's answer time, see `pace`). */
  readonly requestTimeoutMs: number;
  /** How long the upstream takes to answer search requests: their limit, and whether it is slower than the plain client's pace. */
  readonly pace: UpstreamPace;
  /** `QuantidadePorPagina` asked in Mode A. */
  readonly pageSize: number;
  /** The breakers and the per-search request budget of the adapter's sources. */
  readonly protection: UpstreamProtection;
  /** Leases by `<source id>|<query key>`. */
  readonly leases: Map<string, HeldLease>;
  /** How long an offer counts as current from the time it was seen. */
  readonly offerValidityMs: number;
  /** Each airline's learned time and yields (per route, market and overall), which pace the polls; shared by the instances when its store is. */
  readonly learned: LearnedPacing;
  /** The requests aimed polls may spend: about the plain client's over a run, at most twice on a search. */
  readonly budget: PollBudget;
  /** Told of each poll planned. */
  readonly onPlan?: ((plan: PlannedPoll) => void) | undefined;
  /** The source or run whose search these requests are for (`upstream:latam`, `upstream:all`): who its observer counts them under. */
  readonly sourceId?: string | undefined;
  /** Takes one request of the running search's budget, throwing `RequestBudgetExhausted` when none is left (a login it needs). */
  readonly charge?: (() => void) | undefined;
}

/** A poll as planned, for whoever wants to see why it went when it did. */
export interface PlannedPoll {
  /** The run (`upstream:all`, or a source's id) and its route. */
  readonly runId: string;
  readonly route: string;
  /** ms from the upstream search's start: now, and when the poll goes. */
  readonly nowMs: number;
  readonly atMs: number;
  readonly kind: "tick" | "aim" | "probe" | "backoff";
  /** The airlines awaited, with the middle of their learned time (undefined: never seen). */
  readonly awaited: readonly { readonly id: string; readonly middleMs: number | undefined; readonly bringsOffers: boolean }[];
  /** The price of an aim then (see `PollBudget`). */
  readonly price: number;
}

/** How long a held lease may be resumed. */
export const LEASE_TTL_MS = 5 * 60_000;
