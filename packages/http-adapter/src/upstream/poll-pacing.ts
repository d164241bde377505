/** How an upstream search is polled: backoff between polls, the upstream's own pace, and the caps. */

/** Options of polling. */
export interface PollingOptions {
  /** Wait after the first answer. Default 1 000 ms. */
  readonly initialDelayMs?: number | undefined;
  /** Each wait is the previous one times this. Default 1.5. */
  readonly factor?: number | undefined;
  /** Longest wait of the backoff (the upstream may ask for longer). Default 10 000 ms, the pace of public clients. */
  readonly maxDelayMs?: number | undefined;
  /** Polls of one attempt at most. Default 60. */
  readonly maxPolls?: number | undefined;
  /** Time of one attempt at most. Default 200 000 ms, as public clients of the real service allow. */
  readonly maxDurationMs?: number | undefined;
  /** Failed polls (retryable errors) retried in a row before the error goes to the engine. Default 2. */
  readonly pollRetries?: number | undefined;
  /**
   * While it waits between polls by choice, a source tells the engine it is alive this often (an empty batch),
   * so that the engine's inactivity timeout (`timeoutMs` of the search, 20 s by default) measures only the
   * upstream's silence, never a wait of the adapter's own. Keep it well below that timeout. Default 5 000 ms.
   */
  readonly heartbeatMs?: number | undefined;
}

/** {@link PollingOptions} with every value set. */
export type PollingPolicy = { readonly [K in keyof PollingOptions]-?: number };

/** The defaults of {@link PollingOptions}. */
export const defaultPolling: PollingPolicy = {
  initialDelayMs: 1_000,
  factor: 1.5,
  maxDelayMs: 10_000,
  maxPolls: 60,
  maxDurationMs: 200_000,
  pollRetries: 2,
  heartbeatMs: 5_000,
};

/** Fills the options' gaps with the defaults. */
export const pollingWith = (options: PollingOptions = {}): PollingPolicy => ({
  initialDelayMs: options.initialDelayMs ?? defaultPolling.initialDelayMs,
  factor: options.factor ?? defaultPolling.factor,
  maxDelayMs: options.maxDelayMs ?? defaultPolling.maxDelayMs,
  maxPolls: options.maxPolls ?? defaultPolling.maxPolls,
  maxDurationMs: options.maxDurationMs ?? defaultPolling.maxDurationMs,
  pollRetries: options.pollRetries ?? defaultPolling.pollRetries,
  heartbeatMs: options.heartbeatMs ?? defaultPolling.heartbeatMs,
});

/**
 * The wait before poll number `poll + 1` (`poll` from 1): the upstream's pace when it gives one (respected
 * even above the backoff's cap), else `initialDelayMs * factor^(poll-1)` capped at `maxDelayMs`.
 *
 * @example
 * pollDelay(defaultPolling, 3, undefined); // 2250
 * pollDelay(defaultPolling, 3, 500); // 500: the upstream said so
 */
export const pollDelay = (p: PollingPolicy, poll: number, paceMs: number | undefined): number =>
  Math.round(paceMs !== undefined ? paceMs : Math.min(p.maxDelayMs, p.initialDelayMs * p.factor ** Math.max(0, poll - 1)));
