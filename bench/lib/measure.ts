/** Figures of one measured quantity over several runs. */
export interface Figure {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
}

/** Median, min and max of samples. */
export const summarize = (samples: readonly number[]): Figure => {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, runs: sorted.length };
};

/**
 * Times `fn` `runs` times (after one warm-up) and summarizes in milliseconds.
 * `setup` runs before each timed run, untimed.
 */
export const timeRuns = async <S>(
  runs: number,
  setup: () => S | Promise<S>,
  fn: (state: S) => unknown,
): Promise<Figure> => {
  await fn(await setup());
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const state = await setup();
    const t0 = performance.now();
    await fn(state);
    samples.push(performance.now() - t0);
  }
  return summarize(samples);
};

/**
 * Runs an anchor and a subject alternately, `runs` times each, so drift of a shared machine hits both
 * alike; returns both and the per-run ratio subject/anchor summarized.
 */
export const sideBySide = async <S>(
  runs: number,
  setup: () => S | Promise<S>,
  anchor: (state: S) => unknown,
  subject: (state: S) => unknown,
): Promise<{ anchor: Figure; subject: Figure; ratio: Figure }> => {
  await anchor(await setup());
  await subject(await setup());
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    let state = await setup();
    let t0 = performance.now();
    await anchor(state);
    a.push(performance.now() - t0);
    state = await setup();
    t0 = performance.now();
    await subject(state);
    b.push(performance.now() - t0);
  }
  return { anchor: summarize(a), subject: summarize(b), ratio: summarize(b.map((x, i) => x / a[i]!)) };
};

/** Formats a figure: `median (min–max) unit`. */
export const fmt = (f: Figure, unit = "ms", digits = 2): string =>
  `${f.median.toFixed(digits)} ${unit} (min ${f.min.toFixed(digits)}, max ${f.max.toFixed(digits)})`;

/** Whether the bench runs in quick mode (`--quick` or BENCH_QUICK=1). */
export const isQuick = (): boolean => process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";

/**
 * The least-squares slope of `y` over `x` (points `[x, y]`): the marginal cost of one more unit of `x`, with
 * what the first units paid once in the intercept. Needs two distinct `x` at least.
 */
export const slopeOf = (points: readonly (readonly [number, number])[]): number => {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  if (sxx === 0) throw new RangeError("a slope needs two distinct x at least");
  return sxy / sxx;
};
