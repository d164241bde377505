import * as Duration from "effect/Duration";
import * as Schedule from "effect/Schedule";
import { retriesWithinSearch, type SourceError } from "../errors/source-errors.js";

/** How each source call is carried: a timeout between batches and a bounded retry schedule. */
export interface SourcePolicy {
  /** Longest wait for a source's next batch before it is a `SourceTimeout`. Default 20 000 ms. */
  readonly timeoutMs: number;
  /** Attempts in all, the first included. Default 3. */
  readonly maxAttempts: number;
  /** First retry delay; doubles each retry, with jitter. Default 250 ms. */
  readonly baseDelayMs: number;
  /** Cap of a single retry delay (a `Retry-After` may ask for more). Default 5 000 ms. */
  readonly maxDelayMs: number;
}

/** The defaults of {@link SourcePolicy}. */
export const defaultSourcePolicy: SourcePolicy = {
  timeoutMs: 20_000,
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
};

/**
 * The retry schedule of a source: exponential backoff with jitter, capped, at most `maxAttempts - 1`
 * retries, only while the error is retryable within the search (read from its tag and fields: a source
 * whose breaker is open or whose budget is spent is not asked again), waiting at least the
 * `Retry-After` of a rate-limited answer.
 */
export const retrySchedule = (policy: SourcePolicy) =>
  Schedule.exponential(Duration.millis(policy.baseDelayMs), 2).pipe(
    Schedule.jittered,
    Schedule.modifyDelay((_, d) => Duration.min(d, Duration.millis(policy.maxDelayMs))),
    Schedule.intersect(Schedule.recurs(policy.maxAttempts - 1)),
    Schedule.intersect(Schedule.identity<SourceError>()),
    Schedule.whileInput((e: SourceError) => retriesWithinSearch(e)),
    Schedule.modifyDelay(([, e], d) =>
      e._tag === "RateLimited" && e.retryAfterMs !== undefined ? Duration.max(d, Duration.millis(e.retryAfterMs)) : d,
    ),
  );
