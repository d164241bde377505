/**
 * A sweep that runs on its own while there is something to sweep: `arm()` after adding what may expire, and the
 * sweep runs every `everyMs` until it says nothing is left. So what expires leaves memory on time whether or not
 * requests come (an idle instance would otherwise keep its expired searches until traffic returned), and an
 * empty store costs no timer. The timer does not keep a Node process alive (`unref` where the runtime has it).
 * Runtime-neutral: `setTimeout` only.
 */
export interface SweepTimer {
  /** Makes sure a sweep is due within `everyMs`. */
  arm(): void;
  /** Stops sweeping (until the next `arm`). */
  stop(): void;
}

/** Options of {@link sweepTimer}. */
export interface SweepTimerOptions {
  readonly everyMs: number;
  /** Drops what expired; returns whether anything is left that may expire later. */
  readonly sweep: () => boolean;
}

/** The period of a sweep for entries that live `ttlMs`: a quarter of it, between 1 s and 1 min. */
export const sweepPeriodOf = (ttlMs: number): number => Math.min(60_000, Math.max(1_000, Math.floor(ttlMs / 4)));

/**
 * A {@link SweepTimer}.
 *
 * @example
 * const timer = sweepTimer({ everyMs: sweepPeriodOf(ttlMs), sweep: () => dropExpired() > 0 });
 * timer.arm();
 */
export const sweepTimer = (o: SweepTimerOptions): SweepTimer => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    if (o.sweep()) schedule();
  };
  const schedule = () => {
    timer = setTimeout(run, o.everyMs);
    (timer as { unref?: () => void }).unref?.();
  };
  return {
    arm: () => void (timer ?? schedule()),
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
};
