import type { SearchSource } from "@voar/core";
import type { Clock } from "../clock.js";
import type { Admission } from "../limits/admission.js";
import type { Logger } from "../logging/logger.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";
import type { SessionStore } from "./session-store.js";

/** What a {@link SearchHub} needs. */
export interface SearchHubOptions {
  readonly store: SessionStore;
  /** Every source this instance may run (already filtered by the configuration). */
  readonly sources: readonly SearchSource[];
  readonly clock: Clock;
  readonly logger: Logger;
  /** This instance's id, the owner of the leases it takes. */
  readonly instanceId: string;
  readonly newId: () => string;
  readonly deadlineMs: number;
  /** At the deadline, how long a source still being sent an answer (a slow upstream) is waited for, at most. Default 0. */
  readonly deadlineHoldMs?: number | undefined;
  readonly leaseMs: number;
  readonly timeoutMs?: number | undefined;
  readonly maxAttempts?: number | undefined;
  /** Snapshots kept materialized, most recently used first. */
  readonly cacheSize: number;
  /** How long a search lives after completion (and after its deadline if it never completes): cached snapshots go with it. */
  readonly ttlMs: number;
  /**
   * How long a completed search in which a source failed with a retryable error is shared with new requests
   * for the same query; one that failed as a whole only briefly (see `rejoinWindowMs`).
   */
  readonly failedTtlMs: number;
  /** Admission control by the instance's load: while it sheds, new searches are refused. Default: none. */
  readonly admission?: Admission | undefined;
  /** Told of the searches whose TTL passed (swept on a timer, traffic or not): what else the app keeps of them can go. */
  readonly onExpired?: ((ids: ReadonlySet<string>) => void) | undefined;
  /**
   * How long a search followed by streams waits for its store announcement before it is read anyway (see
   * `SearchFeed`). Default 2000.
   */
  readonly watchFallbackMs?: number | undefined;
  /** Counts searches started, joined, refused and ended, and each source's answers and failures. Default: none. */
  readonly metrics?: ServiceMetrics | undefined;
}
