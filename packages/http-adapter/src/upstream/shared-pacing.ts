/**
 * When to poll an all-airlines upstream search next: when the next airline still awaited is expected to have
 * answered (each airline's time learned from the searches already run, see `CompletionTimes`), on the backoff
 * while any awaited airline's time is unknown. Airlines expected close together are fetched by one poll (the
 * last of them), so a search whose airlines answer in 0.8, 1.2 and 1.6 s costs one poll for the three while the
 * first of them still shows within a second of its answer.
 */

/*
 * The pacing's own spans are fractions of the polling's first step (`polling.initialDelayMs`, 1 s by default), so
 * that a polling scaled up or down (a bench's simulated time, a fast private upstream) keeps its shape.
 */
/** Airlines expected within this much of the first one awaited are fetched together, by one poll: 750 ms by default. */
export const GROUP_STEPS = 0.75;
/** A poll aimed at an expected time goes this much after it (the estimate follows the times polls saw): 100 ms. */
const AIM_AFTER_STEPS = 0.1;
/**
 * The poll that only completes the search (no airline awaited brings offers) goes this much after the last one's
 * expected time: 500 ms. Seen half a second later, a completion costs nobody an offer; a completing poll sent a
 * little early (the upstream's time varies) costs a request.
 */
const COMPLETE_AFTER_STEPS = 0.5;
/** Shortest wait after a poll: 250 ms. */
const MIN_WAIT_STEPS = 0.25;
/** Shortest wait for an airline that is late: 500 ms. */
const LATE_MIN_STEPS = 0.5;

/** One airline the search still waits for. */
export interface Awaited {
  /** Its learned completion time, from the search's first answer (ms); undefined while unknown. */
  readonly expectedMs: number | undefined;
  /** Whether it is expected to bring offers (it brought none on this route lately: not polled for, fetched with the others). Default true. */
  readonly bringsOffers?: boolean | undefined;
  /**
   * While its time is unknown: how far into its own search another search of the adapter last saw it still running
   * (ms), when one did. Not polled for before this search is as far.
   */
  readonly runningAtMs?: number | undefined;
}

/**
 * The wait before the next poll, `elapsedMs` after the search's first answer. `backoffMs` is the backoff's
 * step (or the upstream's pace when it gave one): the wait while an awaited airline's time is unknown, and
 * the longest wait for an airline that is late (expected already, not answered yet: asked again after a tenth
 * of its time, at least half a second). `stepMs` is the polling's first step (`initialDelayMs`), the unit of the
 * pacing's own spans.
 *
 * @example
 * sharedPollDelay(1_000, 0, [{ expectedMs: 800 }, { expectedMs: 1_200 }, { expectedMs: 25_000 }]); // 1300: the first two at once
 * sharedPollDelay(1_000, 0, [{ expectedMs: 800 }, { expectedMs: undefined }]); // 1000: an airline never seen: the backoff
 * sharedPollDelay(1_000, 2_000, [{ expectedMs: 4_000 }, { expectedMs: undefined, runningAtMs: 20_000 }]); // 2100: still running at 20 s in another search: Azul first
 */
export const sharedPollDelay = (backoffMs: number, elapsedMs: number, awaited: readonly Awaited[], stepMs = 1_000): number => {
  if (awaited.length === 0) return backoffMs;
  const unknown = awaited.filter((a) => a.expectedMs === undefined);
  if (unknown.length > 0) {
    // Each airline whose time is unknown is polled for on the backoff, unless another search saw it still running
    // later into its own search than this one will be by then: not before that point, and the known ones as usual.
    const notBefore = Math.min(...unknown.map((a) => a.runningAtMs ?? -Infinity));
    if (notBefore <= elapsedMs + backoffMs) return backoffMs;
    const known = awaited.filter((a) => a.expectedMs !== undefined);
    const knownWait = known.length > 0 ? sharedPollDelay(backoffMs, elapsedMs, known, stepMs) : Infinity;
    return Math.max(MIN_WAIT_STEPS * stepMs, Math.round(Math.min(knownWait, notBefore - elapsedMs + AIM_AFTER_STEPS * stepMs)));
  }
  // Polled for: the airlines bringing offers; once none is left, one poll when the last of the others is due.
  const wanted = awaited.filter((a) => a.bringsOffers !== false);
  const latest = Math.max(...awaited.map((a) => a.expectedMs!));
  const times = wanted.length > 0 ? wanted.map((a) => a.expectedMs!) : [latest];
  let first = Infinity;
  let lateWait = Infinity;
  for (const t of times) {
    if (t > elapsedMs) first = Math.min(first, t);
    else lateWait = Math.min(lateWait, Math.min(backoffMs, Math.max(LATE_MIN_STEPS * stepMs, t / 10)));
  }
  let aim = Infinity;
  if (first !== Infinity) {
    let last = first;
    for (const t of times) if (t > last && t <= first + GROUP_STEPS * stepMs) last = t;
    aim = last - elapsedMs + (wanted.length > 0 ? AIM_AFTER_STEPS : COMPLETE_AFTER_STEPS) * stepMs;
  }
  return Math.max(MIN_WAIT_STEPS * stepMs, Math.round(Math.min(aim, lateWait)));
};
