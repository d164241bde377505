/**
 * When the next poll goes: the plain client's 10 s grid while anything is awaited (skipped only while every airline
 * is known to come later), aims where a learned time makes a poll worth its price, probes where it is still vague.
 */
import { describe, expect, it } from "vitest";
import { allowedLateness, planNextPoll, type AwaitedAirline, type PlanInput } from "../../src/upstream/poll-planner.js";
import { TimeModel, type TimeObservation } from "../../src/upstream/time-model.js";

const model = (observations: readonly TimeObservation[]) => new TimeModel(observations, 250, 200_000);
/** An airline that always finished between `lo` and `hi` ms, seen `n` times. */
const between = (lo: number, hi: number, n = 12) => model(Array.from({ length: n }, () => ({ after: lo, by: hi })));
/** An airline whose times spread evenly from `lo` to `hi` ms, each seen within 250 ms. */
const spread = (lo: number, hi: number, n = 24) => model(Array.from({ length: n }, (_, i) => ({ after: lo + ((hi - lo) * ((i * 0.618_034) % 1)), by: lo + ((hi - lo) * ((i * 0.618_034) % 1)) + 250 })));

const plan = (awaited: readonly AwaitedAirline[], over: Partial<PlanInput> = {}) =>
  planNextPoll({ now: 0, lastSentAt: 0, awaited, paceMs: 10_000, stepMs: 1_000, anyOffers: false, price: 0.3, mayAim: () => true, ...over });

describe("the next poll", () => {
  it("aims just after an airline's learned time when waiting for the tick would show it late", () => {
    const azul = between(3_900, 4_000);
    expect(plan([{ model: azul }])).toEqual({ at: 4_300, kind: "aim" });
    // The same airline, known to bring nothing on this route: not worth an aim; the tick.
    expect(plan([{ model: azul, bringsOffers: false }])).toEqual({ at: 10_100, kind: "tick" });
  });

  it("never lets a tick of the plain client's grid go by while an airline may finish before it", () => {
    // GOL anywhere from 5 to 40 s: too spread for an aim at this price; every tick polled.
    const gol = spread(5_000, 40_000);
    const at = [10_100, 20_100, 30_100, 40_100].map((tick) => plan([{ model: gol }], { now: tick - 10_000, lastSentAt: tick - 10_000, price: 5 }).at);
    expect(at).toEqual([10_100, 20_100, 30_100, 40_100]);
    // An airline never seen: every tick too, with aims and probes closer together early, as a backoff's.
    expect(plan([{ model: undefined }], { now: 20_100, lastSentAt: 20_100, price: 5, mayAim: () => false })).toEqual({ at: 30_100, kind: "tick" });
    expect(plan([{ model: undefined }]).at).toBeLessThan(3_000);
  });

  it("lets ticks go by while every airline awaited is known to finish later, and only then", () => {
    const iberia = between(44_900, 45_100);
    const aimed = plan([{ model: iberia }], { now: 12_000, lastSentAt: 12_000 });
    expect(aimed.kind).toBe("aim");
    expect(aimed.at).toBeGreaterThan(45_000);
    expect(aimed.at).toBeLessThanOrEqual(45_700);
    // GOL, which may finish any time, keeps the grid going.
    expect(plan([{ model: iberia }, { model: spread(5_000, 40_000) }], { now: 12_000, lastSentAt: 12_000, price: 5 }).at).toBe(20_100);
    // An airline that hangs in some searches is still polled for on the grid once it is past its usual time.
    const hangs = model([...Array.from({ length: 8 }, () => ({ after: 44_900, by: 45_100 })), { after: 60_000 }, { after: 60_000 }]);
    expect(plan([{ model: hangs }], { now: 46_000, lastSentAt: 46_000, price: 5 })).toEqual({ at: 50_100, kind: "tick" });
  });

  it("probes the middle of a vague span before aiming, so the next searches aim sharper", () => {
    // American seen between two ticks only: somewhere from 10 to 20 s.
    const american = between(10_100, 20_100);
    const first = plan([{ model: american }], { now: 10_100, lastSentAt: 10_100 });
    expect(first.kind).toBe("probe");
    expect(first.at).toBeGreaterThan(14_000);
    expect(first.at).toBeLessThan(16_000);
    // Only within the search's cap.
    expect(plan([{ model: american }], { now: 10_100, lastSentAt: 10_100, mayAim: () => false })).toEqual({ at: 20_100, kind: "tick" });
  });

  it("keeps within the search's cap: no aim the cap refuses", () => {
    expect(plan([{ model: between(3_900, 4_000) }], { mayAim: () => false })).toEqual({ at: 10_100, kind: "tick" });
  });

  it("goes at once after a slow answer", () => {
    // The answer came 30 s after its request left: the tick at 10 s is long past; the next poll goes at once.
    expect(plan([{ model: undefined }], { now: 30_000, lastSentAt: 0, price: 5 }).at).toBe(30_250);
  });

  it("allows a second, or a tenth of the airline's time", () => {
    expect(allowedLateness(4_000, 1_000)).toBe(1_000);
    expect(allowedLateness(45_000, 1_000)).toBe(4_500);
  });
});
