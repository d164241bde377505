import type { SourceErrorTag } from "./source-errors.js";

/** Where one source of a search stands. */
export type SourceState = "pending" | "done" | "failed";

/** Progress of one source, as the snapshot carries it. */
export interface SourceProgress {
  readonly id: string;
  readonly name: string;
  readonly state: SourceState;
  /** Offers received from this source so far (after de-duplication by offer id). */
  readonly items: number;
  /** Attempts made (1 + retries). */
  readonly attempts: number;
  /** Why it failed; present only when `state` is `failed`. */
  readonly error?: {
    readonly tag: SourceErrorTag | "DeadlineExceeded";
    /**
     * A fixed pt-BR sentence of ours (core's `SOURCE_FAILURE` row of the tag): never the upstream's text, a
     * stack trace, a network error code or a URL. The error itself reaches `SearchOptions.onSourceError`.
     */
    readonly message: string;
    readonly retryable: boolean;
    /**
     * How long after this failure the source may be asked again, when it said so (`RateLimited`'s
     * `Retry-After`) or its breaker knows (`SourceUnavailable`: the rest of its cool-down), in ms.
     */
    readonly retryAfterMs?: number | undefined;
    /**
     * `"calendar"` when the budget of the price calendar the search is a day of stopped the source (not the
     * search's own): the failure is the calendar's, so a new request for the same query starts a search of
     * its own instead of joining this one.
     */
    readonly scope?: "calendar" | undefined;
  } | undefined;
}
