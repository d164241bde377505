/**
 * What the adapter learns of each airline (its times, whether it sells on a route), and how instances share it.
 */
import { describe, expect, it } from "vitest";
import { LearnedPacing } from "../../src/upstream/learned-pacing.js";
import { memoryPacingStore } from "../../src/upstream/pacing-store.js";

const learned = (store = memoryPacingStore(), now = () => Date.now()) => new LearnedPacing({ binMs: 250, horizonMs: 200_000, store, now });
const route = (r: string, market?: string) => ({ route: r, market });

describe("the yields remembered by route", () => {
  it("an airline that brought nothing on a route is not expected there, until a search of it brings offers", () => {
    const pacing = new LearnedPacing({ binMs: 250, horizonMs: 200_000 });
    expect(pacing.expects("upstream:iberia", route("CNF-SDU"))).toBe(true);
    pacing.recordYield("upstream:iberia", route("CNF-SDU"), 0);
    expect(pacing.expects("upstream:iberia", route("CNF-SDU"))).toBe(false);
    expect(pacing.expects("upstream:iberia", route("GRU-MAD"))).toBe(true);
    pacing.recordYield("upstream:iberia", route("CNF-SDU"), 3);
    expect(pacing.expects("upstream:iberia", route("CNF-SDU"))).toBe(true);
  });

  it("judges a route searched for the first time by its market: an airline that brought nothing on its routes lately is not expected", () => {
    const pacing = new LearnedPacing({ binMs: 250, horizonMs: 200_000 });
    const domestic = ["CNF-SDU", "GRU-POA", "BSB-REC", "CGH-SDU"];
    for (const r of domestic.slice(0, 2)) {
      pacing.recordYield("upstream:iberia", route(r, "BR>BR"), 0);
      pacing.recordYield("upstream:azul", route(r, "BR>BR"), r === "CNF-SDU" ? 5 : 0);
    }
    // Two routes are not enough for the market to speak.
    expect(pacing.expects("upstream:iberia", route("FOR-MAO", "BR>BR"))).toBe(true);
    pacing.recordYield("upstream:iberia", route(domestic[2]!, "BR>BR"), 0);
    pacing.recordYield("upstream:azul", route(domestic[2]!, "BR>BR"), 0);
    expect(pacing.expects("upstream:iberia", route("FOR-MAO", "BR>BR"))).toBe(false);
    // Azul flies some of the market's routes (one of three): expected on a new one.
    expect(pacing.expects("upstream:azul", route("FOR-MAO", "BR>BR"))).toBe(true);
    // Another market, or a route whose market is not known: expected.
    expect(pacing.expects("upstream:iberia", route("GRU-MAD", "BR>ES"))).toBe(true);
    expect(pacing.expects("upstream:iberia", route("XXX-YYY"))).toBe(true);
    // A route seen speaks for itself; a repeated search of a route counts it once in its market.
    pacing.recordYield("upstream:iberia", route("CGH-SDU", "BR>BR"), 4);
    expect(pacing.expects("upstream:iberia", route("CGH-SDU", "BR>BR"))).toBe(true);
    for (let i = 0; i < 20; i++) pacing.recordYield("upstream:iberia", route("CGH-SDU", "BR>BR"), 4);
    expect(pacing.expects("upstream:iberia", route("FOR-MAO", "BR>BR"))).toBe(true);
  });
});

describe("learned times", () => {
  it("a route's own times once it has enough searches, its market's before, the airline's overall before that", () => {
    const pacing = new LearnedPacing({ binMs: 250, horizonMs: 200_000 });
    expect(pacing.model("upstream:gol", route("GRU-MIA", "BR>US"))).toBeUndefined();
    for (let i = 0; i < 6; i++) pacing.recordTime("upstream:gol", route("CNF-SDU", "BR>BR"), { after: 4_900, by: 5_100 });
    // GRU-MIA never seen, nor its market: GOL overall (5 s).
    expect(pacing.model("upstream:gol", route("GRU-MIA", "BR>US"))!.quantile(0.5)).toBeCloseTo(5_000, -3);
    for (let i = 0; i < 6; i++) pacing.recordTime("upstream:gol", route("GRU-MIA", "BR>US"), { after: 29_900, by: 30_100 });
    // GRU-MIA's own: 30 s; CNF-SDU's own still 5 s.
    expect(pacing.model("upstream:gol", route("GRU-MIA", "BR>US"))!.quantile(0.5)).toBeCloseTo(30_000, -3);
    expect(pacing.model("upstream:gol", route("CNF-SDU", "BR>BR"))!.quantile(0.5)).toBeCloseTo(5_000, -3);
  });

  it("a second instance on the same store paces a route as the first learned it, from its first search", async () => {
    const shared = memoryPacingStore();
    const first = learned(shared);
    for (let i = 0; i < 8; i++) first.recordTime("upstream:iberia", route("GIG-LIS", "BR>PT"), { after: 44_900, by: 45_100 });
    first.recordYield("upstream:iberia", route("GIG-LIS", "BR>PT"), 3);
    first.recordAnswer(800);
    await new Promise((r) => setTimeout(r, 0));
    const second = learned(shared);
    expect(second.model("upstream:iberia", route("GIG-LIS", "BR>PT"))).toBeUndefined();
    await second.refresh(["upstream:iberia"], route("GIG-LIS", "BR>PT"));
    expect(second.model("upstream:iberia", route("GIG-LIS", "BR>PT"))!.quantile(0.5)).toBeCloseTo(45_000, -3);
    expect(second.expects("upstream:iberia", route("GIG-LIS", "BR>PT"))).toBe(true);
    expect(second.answerTimes()).toEqual([800]);
  });

  it("goes on with what it holds when the shared store fails, and says so", async () => {
    const errors: unknown[] = [];
    const failing = { push: () => Promise.reject(new Error("down")), read: () => Promise.reject(new Error("down")) };
    const pacing = new LearnedPacing({ binMs: 250, horizonMs: 200_000, store: failing, onStoreError: (e) => errors.push(e) });
    pacing.recordTime("upstream:gol", route("CNF-SDU"), { after: 4_900, by: 5_100 });
    await pacing.refresh(["upstream:gol"], route("CNF-SDU"));
    await new Promise((r) => setTimeout(r, 0));
    expect(pacing.model("upstream:gol", route("CNF-SDU"))!.quantile(0.5)).toBeCloseTo(5_000, -3);
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });
});
