import { describe, expect, it } from "vitest";
import { sharedPollDelay } from "../../src/upstream/shared-pacing.js";
import { activeAirlines, airlineOfProvider } from "../../src/upstream/provider-names.js";
import { RouteYields } from "../../src/upstream/route-yields.js";

describe("the pace of an all-airlines upstream search", () => {
  it("waits on the backoff while an awaited airline's time is unknown", () => {
    expect(sharedPollDelay(1_000, 0, [{ expectedMs: 800 }, { expectedMs: undefined }])).toBe(1_000);
    expect(sharedPollDelay(2_250, 0, [])).toBe(2_250);
  });

  it("does not poll for an airline whose time is unknown before another search saw it still running: the known ones meanwhile", () => {
    // GOL seen running 20 s into another search: this one, 2 s in, aims at Azul (4 s) and not at the backoff.
    expect(sharedPollDelay(1_000, 2_000, [{ expectedMs: 4_000 }, { expectedMs: undefined, runningAtMs: 20_000 }])).toBe(2_100);
    // Azul done: nothing known left; not before 20 s.
    expect(sharedPollDelay(1_500, 4_100, [{ expectedMs: undefined, runningAtMs: 20_000 }])).toBe(16_000);
    // This search is as far as the other one was (or will be by the next step of the backoff): the backoff again.
    expect(sharedPollDelay(1_500, 19_000, [{ expectedMs: undefined, runningAtMs: 20_000 }])).toBe(1_500);
    expect(sharedPollDelay(1_500, 0, [{ expectedMs: 4_000 }, { expectedMs: undefined, runningAtMs: 20_000 }, { expectedMs: undefined }])).toBe(1_500);
  });

  it("aims at the next airline expected, fetching those expected within 750 ms of it with one poll", () => {
    expect(sharedPollDelay(1_000, 0, [{ expectedMs: 800 }, { expectedMs: 1_200 }, { expectedMs: 25_000 }])).toBe(1_300);
    expect(sharedPollDelay(1_000, 2_000, [{ expectedMs: 25_000 }, { expectedMs: 45_000 }])).toBe(23_100);
  });

  it("does not poll for an airline that brought nothing on the route lately: one poll completes those at the end", () => {
    const route = [{ expectedMs: 800, bringsOffers: false }, { expectedMs: 1_200 }, { expectedMs: 12_000, bringsOffers: false }, { expectedMs: 25_000 }, { expectedMs: 45_000, bringsOffers: false }];
    expect(sharedPollDelay(1_000, 0, route)).toBe(1_300);
    expect(sharedPollDelay(1_000, 2_000, route.slice(2))).toBe(23_100);
    // Only the completing poll is left: half a second after the last airline's time (a completion seen a little later costs no offer).
    expect(sharedPollDelay(1_000, 26_000, route.slice(4))).toBe(19_500);
  });

  it("keeps its shape on a polling scaled down: its spans are fractions of the polling's first step", () => {
    // 1 s of the upstream is 20 ms here: LATAM at 1.2 s and Azul at 4 s are not one group, GOL at 25 s is aimed at on its own.
    const scaled = [{ expectedMs: 24 }, { expectedMs: 80 }, { expectedMs: 500 }];
    expect(sharedPollDelay(20, 0, scaled, 20)).toBe(26);
    expect(sharedPollDelay(20, 30, scaled.slice(1), 20)).toBe(52);
    expect(sharedPollDelay(200, 100, scaled.slice(2), 20)).toBe(402);
    expect(sharedPollDelay(200, 520, scaled.slice(2), 20)).toBe(50);
    // The same search on the upstream's own time.
    expect(sharedPollDelay(1_000, 0, [{ expectedMs: 1_200 }, { expectedMs: 4_000 }, { expectedMs: 25_000 }])).toBe(1_300);
  });

  it("asks again soon for an airline that is late, never later than the backoff's step", () => {
    expect(sharedPollDelay(10_000, 46_000, [{ expectedMs: 45_000 }])).toBe(4_500);
    expect(sharedPollDelay(10_000, 2_000, [{ expectedMs: 1_200 }])).toBe(500);
    expect(sharedPollDelay(300, 46_000, [{ expectedMs: 45_000 }])).toBe(300);
  });
});

describe("the yields remembered by route", () => {
  it("an airline that brought nothing on a route is not expected there, until a search of it brings offers", () => {
    const yields = new RouteYields();
    expect(yields.expects("upstream:iberia", "CNF-SDU")).toBe(true);
    yields.record("upstream:iberia", "CNF-SDU", 0);
    expect(yields.expects("upstream:iberia", "CNF-SDU")).toBe(false);
    expect(yields.expects("upstream:iberia", "GRU-MAD")).toBe(true);
    yields.record("upstream:iberia", "CNF-SDU", 3);
    expect(yields.expects("upstream:iberia", "CNF-SDU")).toBe(true);
  });

  it("judges a route searched for the first time by its market: an airline that brought nothing on its routes lately is not polled for", () => {
    const yields = new RouteYields();
    const domestic = ["CNF-SDU", "GRU-POA", "BSB-REC", "CGH-SDU"];
    for (const route of domestic.slice(0, 2)) {
      yields.record("upstream:iberia", route, 0, "BR>BR");
      yields.record("upstream:azul", route, route === "CNF-SDU" ? 5 : 0, "BR>BR");
    }
    // Two routes are not enough for the market to speak.
    expect(yields.expects("upstream:iberia", "FOR-MAO", "BR>BR")).toBe(true);
    yields.record("upstream:iberia", domestic[2]!, 0, "BR>BR");
    yields.record("upstream:azul", domestic[2]!, 0, "BR>BR");
    expect(yields.expects("upstream:iberia", "FOR-MAO", "BR>BR")).toBe(false);
    // Azul flies some of the market's routes (one of three): polled for on a new one.
    expect(yields.expects("upstream:azul", "FOR-MAO", "BR>BR")).toBe(true);
    // Another market, or a route whose market is not known: polled for.
    expect(yields.expects("upstream:iberia", "GRU-MAD", "BR>ES")).toBe(true);
    expect(yields.expects("upstream:iberia", "XXX-YYY")).toBe(true);
    // A route seen speaks for itself, whatever the market says; a repeated search of a route counts it once.
    yields.record("upstream:iberia", "CGH-SDU", 4, "BR>BR");
    expect(yields.expects("upstream:iberia", "CGH-SDU", "BR>BR")).toBe(true);
    for (let i = 0; i < 20; i++) yields.record("upstream:iberia", "CGH-SDU", 4, "BR>BR");
    expect(yields.expects("upstream:iberia", "FOR-MAO", "BR>BR")).toBe(true);
  });
});

describe("the providers an upstream lists as searching", () => {
  it("reads the real deployment's names loosely, and ignores names it does not know", () => {
    const real = ["Latam", "Gol", "Azul", "Livelo", "Tap", "Interline", "iberia", "AmericanAirlines"];
    expect([...activeAirlines(real)!].sort((a, b) => a - b)).toEqual([1, 2, 3, 11, 22, 26, 34, 1200]);
    expect(airlineOfProvider("American Airlines")).toBe(22);
    expect(airlineOfProvider("Smiles")).toBe(2);
    expect(airlineOfProvider("Copa Airlines")).toBeUndefined();
    expect(activeAirlines(undefined)).toBeUndefined();
  });
});
