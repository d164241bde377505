/**
 * An airline's time, estimated from what polls saw: the interval each search's airline finished in, or a lower bound
 * when the search ended first.
 */
import { describe, expect, it } from "vitest";
import { TimeModel, type TimeObservation } from "../../src/upstream/time-model.js";

const BIN = 250;
const HORIZON = 200_000;
const model = (observations: readonly TimeObservation[]) => new TimeModel(observations, BIN, HORIZON);

/** A seeded uniform draw in [0, 1) (Park-Miller, warmed up past its small first values). */
const randomFrom = (seed: number) => {
  let s = seed;
  const next = () => ((s = (s * 16_807) % 2_147_483_647) / 2_147_483_647);
  for (let i = 0; i < 10; i++) next();
  return next;
};

describe("an airline's learned time", () => {
  it("settles where the intervals of many searches agree, sharper than any one of them", () => {
    // Iberia answers at 45 s; each search polled every 5 s from a phase of its own, so its interval is 5 s wide.
    const random = randomFrom(11);
    const observations = Array.from({ length: 24 }, () => {
      const phase = 5_000 * random();
      const before = phase + 5_000 * Math.floor((45_000 - phase) / 5_000);
      return { after: before, by: before + 5_000 };
    });
    const m = model(observations);
    // Nearly everything within the last second before 45 s, though each interval spans 4 to 6 s.
    expect(m.doneWithin(44_000, 45_250, 0)).toBeGreaterThan(0.8);
    expect(m.doneWithin(0, 41_000, 0)).toBeLessThan(0.05);
    expect(m.never).toBe(0);
  });

  it("gives the share of searches that never finished to 'never', and reads the rest as the finished ones' times", () => {
    // One search in four hung past 60 s (the search ended, still running); the others finished at about 45 s.
    const observations = Array.from({ length: 20 }, (_, i) => (i % 4 === 0 ? { after: 60_000 } : { after: 44_900, by: 45_100 }));
    const m = model(observations);
    expect(m.never).toBeGreaterThan(0.15);
    expect(m.never).toBeLessThan(0.35);
    // Known running at 46 s: it hangs (nothing seen finish later).
    expect(m.neverAfter(46_000)).toBeCloseTo(1, 9);
    // Known running at 10 s: it most likely finishes at 45 s.
    expect(m.doneWithin(44_000, 46_000, 10_000)).toBeGreaterThan(0.6);
  });

  it("hands a lower bound's weight to later times, as Kaplan-Meier does: a search ended at 20 s says nothing against 30 s", () => {
    const m = model([{ after: 20_000 }, { after: 25_000, by: 30_000 }, { after: 5_000, by: 10_000 }]);
    // Half the finished searches finished by 10 s; the one ended at 20 s goes to the one after it.
    expect(m.doneWithin(0, 10_000, 0)).toBeCloseTo(1 / 3, 1);
    expect(m.doneWithin(25_000, 30_000, 0)).toBeCloseTo(2 / 3, 1);
    expect(m.never).toBeCloseTo(0, 5);
  });

  it("weighs recent searches most: an airline that became slower is read as slower within a few searches", () => {
    const fast = Array.from({ length: 20 }, () => ({ after: 4_000, by: 5_000 }));
    const slower = Array.from({ length: 5 }, () => ({ after: 19_000, by: 20_000 }));
    const m = model([...slower, ...fast]); // newest first
    expect(m.doneWithin(18_000, 21_000, 0)).toBeGreaterThan(0.5);
  });

  it("gives quantiles of the finished searches' times", () => {
    // Times spread evenly over 5-40 s whatever their order (a golden-ratio sequence), so the recency weights do not tilt them.
    const observations = Array.from({ length: 30 }, (_, i) => {
      const t = 5_000 + 35_000 * ((i * 0.618_034) % 1);
      return { after: t - 200, by: t + 200 };
    });
    const m = model(observations);
    expect(m.quantile(0.5)!).toBeGreaterThan(15_000);
    expect(m.quantile(0.5)!).toBeLessThan(30_000);
    expect(m.quantile(0.05)!).toBeLessThan(m.quantile(0.95)!);
    expect(model([{ after: 10_000 }]).quantile(0.5)).toBeUndefined();
  });
});
