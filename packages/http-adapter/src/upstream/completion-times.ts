/**
 * How long each fan-out source's upstream searches take to complete, learned from the searches already
 * run, so that a single-airline search is polled when its airline is expected to have answered instead of
 * on every step of the backoff. An upstream airline answers in about the same time from one search to the
 * next (a second for one, tens of seconds for another): aiming the first poll after the start at that time
 * makes most single-airline searches cost two requests (start, then the answer), where the backoff alone
 * costs one per step until the slowest airline completes. A search that is not complete when expected
 * falls back on the backoff; the estimate follows what is seen (an exponential moving average of the time
 * at which completion was seen), and after a search found complete at its first aimed poll it moves a
 * little earlier, so an airline that got faster is seen to.
 */

/** Weight of the latest observation in the moving average. */
const ALPHA = 0.3;
/** After a completion found at the first aimed poll, the next aim is this much earlier: it may have been complete long before. */
const EARLIER = 0.95;

/** Learned completion times of upstream searches, by source id (one table per adapter). */
export class CompletionTimes {
  private readonly bySource = new Map<string, number>();

  /** The expected time from the first answer of a search of this source to its completion, in ms; undefined until one completed. */
  expected(sourceId: string): number | undefined {
    return this.bySource.get(sourceId);
  }

  /**
   * Records a completed search: seen complete `afterMs` after its start, at its first poll after the start
   * (`firstPoll`) or after polls that found it running.
   */
  record(sourceId: string, afterMs: number, firstPoll: boolean): void {
    const before = this.bySource.get(sourceId);
    const seen = before === undefined ? afterMs : before + ALPHA * (afterMs - before);
    this.bySource.set(sourceId, Math.max(0, firstPoll ? seen * EARLIER : seen));
  }
}

/**
 * The wait before the next poll of a fan-out search: at least `backoffMs` (the backoff, or the upstream's
 * pace); while the source is expected to complete later, until then; once that time passed without the
 * answer, at least the step the aim was moved earlier by (so a slow airline aimed a little early is found
 * at the next poll, not after many short backoff steps).
 *
 * @example
 * pacedDelay(1_000, 2_000, 25_000); // 23000: the airline usually answers after 25 s
 * pacedDelay(1_000, 25_100, 25_000); // 1250: aimed a little early; it should not be long now
 */
export const pacedDelay = (backoffMs: number, elapsedMs: number, expectedMs: number | undefined): number => {
  if (expectedMs === undefined) return backoffMs;
  if (elapsedMs < expectedMs) return Math.max(backoffMs, Math.round(expectedMs - elapsedMs));
  return Math.max(backoffMs, Math.round(expectedMs * (1 - EARLIER)));
};
