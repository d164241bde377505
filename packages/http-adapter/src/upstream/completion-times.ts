/**
 * How long each fan-out source's upstream searches take to complete, learned from the searches already
 * run, so that a single-airline search is polled when its airline is expected to have answered instead of
 * on every step of the backoff. An upstream airline answers in about the same time from one search to the
 * next (a second for one, tens of seconds for another): aiming the first poll after the start at that time
 * makes most single-airline searches cost two requests (start, then the answer), where the backoff alone
 * costs one per step until the slowest airline completes. A search that is not complete when expected
 * falls back on the backoff.
 *
 * The estimate is a high quantile of the airline's time, not its mean: an airline's time varies from one search to
 * the next (the upstream's load, the network), and each poll aimed too early costs a request. Only whether a
 * search was complete at its aim is known, which is what an online quantile estimator needs: one found complete
 * at its first aimed poll, sent at the aim, moves the aim a little earlier (a fiftieth of the polling's first step,
 * or 0.2 % of the time when more), one found running there moves it later by nine times that, so that about one in ten
 * searches (`1 / (1 + LATE_RISE)`) is aimed too early, whatever the spread of the airline's times; and an airline that became
 * much slower is followed at once (an exponential moving average towards the middle of the span in which it
 * completed, after the poll that found it running, no later than the one that found it complete, when that moves
 * the aim further).
 */

/** Weight of the latest observation in the moving average. */
const ALPHA = 0.3;
/** After a completion found at the first aimed poll, the next aim is earlier by this much of the time... */
const EARLIER_FRACTION = 0.002;
/** ...or by this much of the polling's first step, when more. */
const EARLIER_STEPS = 0.02;
/** A completion found by a poll sent within this much (of the polling's first step) after the aim counts as found at the aim. */
const HIT_WINDOW_STEPS = 0.25;
/** A search found running at its aim moves the aim later by this many times the step earlier: about one aim in ten misses. */
const LATE_RISE = 9;
/** How much earlier a fan-out search found running at its aim is asked again: 5 % of its time (see {@link pacedDelay}). */
const EARLIER = 0.95;

/** Learned completion times of upstream searches, by source id (one table per adapter). */
export class CompletionTimes {
  private readonly bySource = new Map<string, number>();
  /** While a source's time is unknown: the furthest into a search it was seen still running. */
  private readonly running = new Map<string, number>();

  /** `stepMs`: the polling's first step (`polling.initialDelayMs`), the unit of the nudge earlier. */
  constructor(private readonly stepMs = 1_000) {}

  /** The expected time from the first answer of a search of this source to its completion, in ms; undefined until one completed. */
  expected(sourceId: string): number | undefined {
    return this.bySource.get(sourceId);
  }

  /** While the source's time is unknown, how far into its search (ms) a search last saw it still running, at most. */
  runningAt(sourceId: string): number | undefined {
    return this.bySource.has(sourceId) ? undefined : this.running.get(sourceId);
  }

  /** Records that a search of the source was still running `elapsedMs` after its first answer (kept while its time is unknown). */
  seenRunning(sourceId: string, elapsedMs: number): void {
    if (this.bySource.has(sourceId)) return;
    if (elapsedMs > (this.running.get(sourceId) ?? -1)) this.running.set(sourceId, elapsedMs);
  }

  /**
   * Records a completed search: seen complete `afterMs` after its start, at its first poll after the expected time
   * (`firstPoll`) or after polls that found it running, the last of them `notBeforeMs` after the start when known.
   */
  record(sourceId: string, afterMs: number, firstPoll: boolean, notBeforeMs?: number): void {
    const before = this.bySource.get(sourceId);
    let next: number;
    if (before === undefined) next = afterMs;
    else {
      const step = Math.max(EARLIER_STEPS * this.stepMs, EARLIER_FRACTION * before);
      if (firstPoll) {
        // Found complete: at the aim, the aim may come earlier; at a poll well after it (one aimed at a later airline
        // of a group, or a timer the machine's load delayed) it tells nothing of the aim, and the estimate holds.
        if (afterMs > before + HIT_WINDOW_STEPS * this.stepMs) return;
        next = before - step;
      } else {
        const seen = notBeforeMs !== undefined && notBeforeMs >= 0 && notBeforeMs < afterMs ? (notBeforeMs + afterMs) / 2 : afterMs;
        next = before + Math.max(LATE_RISE * step, ALPHA * (seen - before));
      }
    }
    this.bySource.set(sourceId, Math.max(0, next));
    this.running.delete(sourceId);
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
