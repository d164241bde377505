import * as z from "zod";

/** How the service runs a search: its deadline, how long it is kept, its lease, each source's limits. */
export const SearchSettingsSchema = z.strictObject({
  /** A search completes with what it has after this long (decisions.md: 60 s). */
  deadlineMs: z.int().min(100).max(600_000).default(60_000),
  /**
   * At the deadline, a source still being sent an answer (a slow upstream's 30 s answer) is waited for, at most this
   * long, so its answer is not thrown away; 0: the deadline is final. A fast upstream has nothing in flight then.
   */
  deadlineHoldMs: z.int().min(0).max(600_000).default(60_000),
  /** How long a completed search is kept and shared before the same query starts a new one (10 min). */
  ttlMs: z.int().min(0).max(86_400_000).default(600_000),
  /**
   * How long a completed search in which some source failed (for any reason) is shared with new
   * requests for the same query (30 s; capped by `ttlMs`). A search that failed as a whole is shared for at most 12 s (see `rejoinWindowMs`).
   */
  failedTtlMs: z.int().min(0).max(86_400_000).default(30_000),
  /** How long the instance running a search holds it without a sign of life before another may take over. */
  leaseMs: z.int().min(1_000).max(600_000).default(15_000),
  /** `Progresso.ProximaConsultaMs` while a search runs. */
  pollHintMs: z.int().min(0).max(60_000).default(500),
  /** Longest wait for a source's next batch (core default 20 s). */
  sourceTimeoutMs: z.int().min(100).max(600_000).optional(),
  /** Attempts per source, the first included (core default 3). */
  maxAttempts: z.int().min(1).max(10).optional(),
  /** Ids of the sources that run (`latam`, `ota:voaja`...); absent: every source given to `createApp`. */
  sources: z.array(z.string().min(1)).min(1).optional(),
});
