/**
 * What every upstream search of one adapter shares: the transport, the session, where the upstream is,
 * how to pace polls, and the leases of searches that may be resumed.
 */
import type { AirportDirectory } from "@voar/core";
import type { HttpTransport } from "../transport/http-transport.js";
import type { AuthSession } from "./auth-session.js";
import type { CompletionTimes } from "./completion-times.js";
import type { RouteYields } from "./route-yields.js";
import type { PollingPolicy } from "./poll-pacing.js";
import type { UpstreamProtection } from "./source-breaker.js";

/** A lease an upstream handed out, kept so that a retried attempt resumes the search instead of starting anew. */
export interface HeldLease {
  readonly leaseId: string;
  readonly at: number;
}

/** The shared state of an adapter. */
export interface UpstreamContext {
  readonly transport: HttpTransport;
  readonly session: AuthSession;
  /** e.g. `https://host/api`, no trailing slash. */
  readonly baseUrl: string;
  readonly airports: AirportDirectory;
  readonly polling: PollingPolicy;
  /** Limit of one HTTP exchange. */
  readonly requestTimeoutMs: number;
  /** `QuantidadePorPagina` asked in Mode A. */
  readonly pageSize: number;
  /** The breakers and the per-search request budget of the adapter's sources. */
  readonly protection: UpstreamProtection;
  /** Leases by `<source id>|<query key>`. */
  readonly leases: Map<string, HeldLease>;
  /** How long an offer counts as current from the time it was seen. */
  readonly offerValidityMs: number;
  /** Learned completion times of the fan-out's sources, which pace their polls. */
  readonly completions: CompletionTimes;
  /** Which airlines brought offers on each route lately (an all-airlines search polls only for those). */
  readonly yields: RouteYields;
  /** Takes one request of the running search's budget, throwing `RequestBudgetExhausted` when none is left (a login it needs). */
  readonly charge?: (() => void) | undefined;
}

/** How long a held lease may be resumed. */
export const LEASE_TTL_MS = 5 * 60_000;
