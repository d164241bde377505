/**
 * The distribution of an airline's time in the upstream's searches, estimated from what polls saw. A poll never sees
 * the moment an airline finished: it sees it still running at one time, done at a later one. So each search gives
 * an interval ("not done when the poll that saw it running left, done when the poll that saw it done came back"), or,
 * when the search ended first (a hang, the deadline), only a lower bound. The estimate is the distribution most
 * likely to give those intervals (Turnbull's); the share of searches that never finish (hangs) is part of it. Recent
 * searches weigh most, so a change of the upstream shows within a few searches.
 */

/** One search's record of an airline, in ms from the upstream search's start. */
export interface TimeObservation {
  /** Seen still running then (0 when only its start is known). */
  readonly after: number;
  /** Seen done by then; undefined when the search ended before it was seen done. */
  readonly by?: number | undefined;
}

/** Weight of each older observation against the next newer one: the tenth-newest counts a quarter. */
export const RECENCY = 0.86;

/** Rounds of the self-consistency algorithm: enough for the few dozen searches a model holds. */
const ROUNDS = 60;

/** What the planner asks of an airline's time: a learned one, or the prior of an airline never seen. */
export interface TimeDistribution {
  /** The longest time considered, in ms. */
  readonly horizonMs: number;
  /** The chance it is done within (`from`, `to`] ms, knowing it was not done at `notBefore` ms. */
  doneWithin(from: number, to: number, notBefore: number): number;
  /** The time within (`from`, `to`] by which a share `q` of that span's mass is done; undefined when it holds none. */
  timeWithin(from: number, to: number, q: number): number | undefined;
  /** The time by which a share `q` of the searches that finish are done; undefined when none finished. */
  quantile(q: number): number | undefined;
  /**
   * The widest span the estimate cannot see into within (`from`, `to`]: of the spans its mass lies in there (each
   * between a poll that saw the airline running and one that saw it done, as tight as the searches allow), the widest
   * holding at least a tenth of that window's mass; undefined when none. Wide, more polls there would sharpen the
   * estimate; narrow, the airline's time truly varies, and no poll can learn more.
   */
  vagueSpan(from: number, to: number): { readonly from: number; readonly to: number } | undefined;
}

/**
 * The time of an airline never seen: anywhere from `fromMs` to `toMs`, as likely in each doubling of time (a second
 * or two as likely as 30 to 60 s). Its polls then come at doubling intervals, as a backoff's do.
 */
export class PriorTime implements TimeDistribution {
  private readonly span: number;
  constructor(
    private readonly fromMs: number,
    private readonly toMs: number,
  ) {
    this.span = Math.log(toMs / fromMs);
  }
  get horizonMs(): number {
    return this.toMs;
  }
  private cdf(t: number): number {
    return t <= this.fromMs ? 0 : t >= this.toMs ? 1 : Math.log(t / this.fromMs) / this.span;
  }
  doneWithin(from: number, to: number, notBefore: number): number {
    const left = 1 - this.cdf(notBefore);
    return left <= 1e-12 || to <= from ? 0 : Math.max(0, this.cdf(to) - this.cdf(from)) / left;
  }
  timeWithin(from: number, to: number, q: number): number | undefined {
    const a = this.cdf(from);
    const b = this.cdf(to);
    if (b - a <= 1e-12) return undefined;
    return this.fromMs * Math.exp((a + Math.min(1, Math.max(0, q)) * (b - a)) * this.span);
  }
  quantile(q: number): number | undefined {
    return this.fromMs * Math.exp(Math.min(1, Math.max(0, q)) * this.span);
  }
  vagueSpan(from: number, to: number): { readonly from: number; readonly to: number } | undefined {
    return to > from ? { from, to } : undefined;
  }
}

/** The estimated distribution of an airline's time. */
export class TimeModel implements TimeDistribution {
  /** Cumulative mass before each bin edge: `cumulative[b]` is the mass of the bins before `b` (normalized to 1 with `never`). */
  private readonly cumulative: Float64Array;
  /** Share of the searches that never finish (hang), or finish later than any search seen. */
  readonly never: number;
  /** Sum of the observations' weights. */
  readonly weight: number;
  /** How many observations it was built from. */
  readonly count: number;
  /** The longest time considered, in ms. */
  readonly horizonMs: number;
  /** The innermost intervals with finite ends, and their mass (normalized). */
  private readonly spans: readonly { readonly lo: number; readonly hi: number; readonly mass: number }[];

  /**
   * `observations` newest first; `binMs` the resolution; `horizonMs` the longest time considered (a search seen done
   * later counts as one still running then).
   *
   * The estimate is Turnbull's (the nonparametric maximum likelihood estimate of interval-censored times, by its
   * self-consistency algorithm) on a grid of `binMs`, up to the latest time a search was seen done: every search is
   * an interval its time lies in, and the mass settles where the intervals agree, so polls a few seconds apart still
   * give a sharp estimate once they fall differently from one search to the next. What lies beyond the latest time
   * seen done is one lump: `never`.
   */
  constructor(
    observations: readonly TimeObservation[],
    private readonly binMs: number,
    horizonMs: number,
  ) {
    // Each search: the span its time lies in, (after, by], or (after, never) when it was not seen done.
    const spans: { lo: number; hi: number; w: number }[] = [];
    let weight = 0;
    let w = 1;
    for (const o of observations) {
      weight += w;
      const done = o.by !== undefined && o.by <= horizonMs;
      const hi = done ? o.by! : Number.POSITIVE_INFINITY;
      spans.push({ lo: Math.max(0, Math.min(o.after, hi)), hi, w });
      w *= RECENCY;
    }
    // Turnbull's innermost intervals: where a span's start is followed by a span's end with nothing between (ends
    // first at a tie: a span ending at t and one starting at t do not meet). The estimate's mass lies in them alone.
    const points = [...spans.map((x) => ({ at: x.lo, end: false })), ...spans.map((x) => ({ at: x.hi, end: true }))].sort((a, b) => a.at - b.at || Number(b.end) - Number(a.end));
    const inner: { lo: number; hi: number }[] = [];
    for (let i = 0; i + 1 < points.length; i++) if (!points[i]!.end && points[i + 1]!.end) inner.push({ lo: points[i]!.at, hi: points[i + 1]!.at });
    const within = spans.map((x) => inner.map((j, k) => (j.lo >= x.lo && j.hi <= x.hi ? k : -1)).filter((k) => k >= 0));
    // The self-consistency algorithm over them, from an even start.
    let mass = inner.map(() => (inner.length > 0 ? weight / inner.length : 0));
    for (let round = 0; round < ROUNDS; round++) {
      const next = inner.map(() => 0);
      spans.forEach((x, i) => {
        const mine = within[i]!;
        const total = mine.reduce((n, k) => n + mass[k]!, 0);
        if (total > 0) for (const k of mine) next[k]! += (x.w * mass[k]!) / total;
      });
      mass = next;
    }
    // Each interval's mass spread evenly over it, on the grid; an interval reaching to never is the "never" lump.
    const finite = inner.filter((j) => Number.isFinite(j.hi));
    const latest = Math.max(binMs, ...finite.map((j) => j.hi));
    const bins = Math.ceil(latest / binMs);
    const grid = new Float64Array(bins);
    let never = 0;
    const total = weight > 0 ? weight : 1;
    inner.forEach((j, k) => {
      const m = mass[k]! / total;
      if (!Number.isFinite(j.hi)) {
        never += m;
        return;
      }
      if (j.hi - j.lo < 1e-9) {
        grid[Math.min(bins - 1, Math.max(0, Math.ceil(j.hi / binMs) - 1))]! += m;
        return;
      }
      for (let b = Math.floor(j.lo / binMs); b < bins && b * binMs < j.hi; b++) {
        const part = Math.min(j.hi, (b + 1) * binMs) - Math.max(j.lo, b * binMs);
        if (part > 0) grid[b]! += (m * part) / (j.hi - j.lo);
      }
    });
    this.cumulative = new Float64Array(bins + 1);
    for (let b = 0; b < bins; b++) this.cumulative[b + 1] = this.cumulative[b]! + grid[b]!;
    this.never = spans.length > 0 ? never : 1;
    this.spans = inner.map((j, k) => ({ lo: j.lo, hi: j.hi, mass: mass[k]! / total })).filter((j) => Number.isFinite(j.hi) && j.mass > 0);
    this.weight = weight;
    this.count = observations.length;
    this.horizonMs = horizonMs;
  }

  vagueSpan(from: number, to: number): { readonly from: number; readonly to: number } | undefined {
    const inWindow = this.spans.filter((j) => j.hi > from && j.lo < to);
    const total = inWindow.reduce((n, j) => n + j.mass, 0);
    let widest: { from: number; to: number } | undefined;
    for (const j of inWindow) {
      if (j.mass < total / 10) continue;
      const lo = Math.max(from, j.lo);
      const hi = Math.min(to, j.hi);
      if (!widest || hi - lo > widest.to - widest.from) widest = { from: lo, to: hi };
    }
    return widest;
  }

  /** Mass done by `t` ms (interpolated within a bin). */
  private massBy(t: number): number {
    if (t <= 0) return 0;
    const last = this.cumulative.length - 1;
    const x = t / this.binMs;
    if (x >= last) return this.cumulative[last]!;
    const b = Math.floor(x);
    return this.cumulative[b]! + (x - b) * (this.cumulative[b + 1]! - this.cumulative[b]!);
  }

  /** Mass of everything: the finished searches' and the never-finished. */
  private get total(): number {
    return this.cumulative[this.cumulative.length - 1]! + this.never;
  }

  /**
   * The chance it is done within (`from`, `to`] ms, knowing it was not done at `notBefore` ms (`from >= notBefore`).
   * 0 when nothing is known of it past `notBefore`.
   */
  doneWithin(from: number, to: number, notBefore: number): number {
    const left = this.total - this.massBy(notBefore);
    if (left <= 1e-12 || to <= from) return 0;
    return Math.max(0, this.massBy(to) - this.massBy(from)) / left;
  }

  /** The chance it never finishes (hangs), knowing it was not done at `notBefore` ms. */
  neverAfter(notBefore: number): number {
    const left = this.total - this.massBy(notBefore);
    return left <= 1e-12 ? 1 : this.never / left;
  }

  /**
   * The time within (`from`, `to`] by which a share `q` (0..1) of the mass of that span is done, in ms; undefined
   * when the span holds none.
   */
  timeWithin(from: number, to: number, q: number): number | undefined {
    const lo = this.massBy(from);
    const span = this.massBy(to) - lo;
    if (span <= 1e-12) return undefined;
    const target = lo + Math.min(1, Math.max(0, q)) * span;
    let a = from;
    let b = to;
    for (let i = 0; i < 40 && b - a > this.binMs / 64; i++) {
      const mid = (a + b) / 2;
      if (this.massBy(mid) < target) a = mid;
      else b = mid;
    }
    return b;
  }

  /** The time by which a share `q` (0..1) of the searches that finish are done, in ms; undefined when none finished. */
  quantile(q: number): number | undefined {
    const last = this.cumulative.length - 1;
    const finite = this.cumulative[last]!;
    if (finite <= 0) return undefined;
    const target = Math.min(1, Math.max(0, q)) * finite;
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid + 1]! < target) lo = mid + 1;
      else hi = mid;
    }
    const inBin = this.cumulative[lo + 1]! - this.cumulative[lo]!;
    const part = inBin > 0 ? (target - this.cumulative[lo]!) / inBin : 1;
    return (lo + part) * this.binMs;
  }
}
