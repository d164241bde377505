/**
 * How long the upstream takes to answer a search request, as seen: the limit of each request follows it (a request
 * the upstream is still answering is not abandoned because it is slow), and an upstream slower than the plain
 * client's pace (its answers take longer than the 10 s between a plain client's polls) is reported, once per change.
 */

/** What the upstream's answers take lately. */
export interface PaceState {
  /** The median time of the latest answers, in ms (undefined before any). */
  readonly answerMs: number | undefined;
  /** True while that median is above the plain client's pace. */
  readonly slow: boolean;
}

/** Options of {@link UpstreamPace}. */
export interface UpstreamPaceOptions {
  /** The least limit of a request (the configured `requestTimeoutMs`). */
  readonly baseTimeoutMs: number;
  /** The most any request may be given (the polling's `maxDurationMs`). */
  readonly maxTimeoutMs: number;
  /** The plain client's pace (`polling.maxDelayMs`): slower answers than this make the upstream slow. */
  readonly paceMs: number;
  /** Told when the state changes (slow, or back to its pace). */
  readonly onChange?: ((state: PaceState) => void) | undefined;
}

/** Answers remembered. */
const WINDOW = 16;
/** Answers seen before the upstream is judged slow (or not). */
const JUDGED_FROM = 3;
/** A request's limit is this many times the slowest recent answer... */
const TIMEOUT_FACTOR = 3;

/** The upstream's answer times of one adapter. */
export class UpstreamPace {
  private readonly times: number[] = [];
  private slow = false;

  constructor(private readonly o: UpstreamPaceOptions) {}

  /** Records the time one search request took to be answered (any answer: a refusal too). */
  observe(durationMs: number): void {
    this.times.push(Math.max(0, durationMs));
    if (this.times.length > WINDOW) this.times.shift();
    if (this.times.length < JUDGED_FROM) return;
    const slow = this.median()! > this.o.paceMs;
    if (slow === this.slow) return;
    this.slow = slow;
    try {
      this.o.onChange?.(this.state());
    } catch {
      // A failing listener (a log sink) must not change the search.
    }
  }

  /** Answer times seen, newest last (for the shared store). */
  recent(): readonly number[] {
    return this.times;
  }

  /** Takes answer times another instance saw (when this one has seen none yet). */
  adopt(times: readonly number[]): void {
    if (this.times.length > 0) return;
    for (const t of times.slice(-WINDOW)) this.observe(t);
  }

  /** The median of the latest answers' times, in ms; undefined before any. */
  median(): number | undefined {
    if (this.times.length === 0) return undefined;
    const sorted = [...this.times].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }

  state(): PaceState {
    return { answerMs: this.median(), slow: this.slow };
  }

  /** The limit of the next request: the configured one, or three times the slowest recent answer when more, at most `maxTimeoutMs`. */
  timeoutMs(): number {
    const slowest = this.times.length === 0 ? 0 : Math.max(...this.times);
    return Math.min(this.o.maxTimeoutMs, Math.max(this.o.baseTimeoutMs, TIMEOUT_FACTOR * slowest));
  }

  /** How long after it was sent a request's answer is expected: the median answer time (at least a second). */
  expectedMs(): number {
    return Math.max(1_000, this.median() ?? 1_000);
  }
}
