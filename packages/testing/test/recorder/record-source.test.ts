import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lastValueFrom } from "rxjs";
import { HttpStatusError, search, type SearchQuery } from "@voar/core";
import { checkFixture, createSimulator, parseFixture, recordSource, replaySource, serializeFixture } from "../../src/index.js";

const query: SearchQuery = {
  origin: "CNF",
  destination: "GIG",
  departureDate: "2026-09-15",
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "single-airline", airlineId: 2 },
};

describe("recording a source", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("writes a valid fixture that replays to the same offers, at the same times", async () => {
    const simulator = createSimulator({ latencyMs: { gol: 900 }, batches: 3 });
    const recorder = recordSource(simulator.sources.find((s) => s.id === "gol")!);
    const live = lastValueFrom(search(query, [recorder.source]));
    await vi.advanceTimersByTimeAsync(1_000);
    const original = await live;
    const fixture = parseFixture(JSON.parse(serializeFixture(recorder.toFixture({ scenario: "gol-alone", description: "GOL alone" }))));
    expect(checkFixture(fixture)).toEqual([]);
    expect(fixture.exchanges.map((e) => e.atMs)).toEqual([0, 300, 600, 900, 900]);

    const replayed = lastValueFrom(search(query, [replaySource(fixture, { id: "gol" })]));
    await vi.advanceTimersByTimeAsync(1_000);
    const snapshot = await replayed;
    expect(snapshot.offers.size).toBe(original.offers.size);
    const keys = (s: typeof snapshot) => [...s.offers.values()].map((o) => `${o.flightKey}|${o.total.amount}|${o.miles?.pointsAdult ?? -1}`).sort();
    expect(keys(snapshot)).toEqual(keys(original));
  });

  it("records a failure as the answer that stands for it", async () => {
    const simulator = createSimulator({ latencyMs: 100, failures: { gol: { error: new HttpStatusError({ status: 502 }) } } });
    const recorder = recordSource(simulator.sources.find((s) => s.id === "gol")!);
    const live = lastValueFrom(search(query, [recorder.source], { maxAttempts: 1 }));
    await vi.advanceTimersByTimeAsync(1_000);
    await live;
    const fixture = recorder.toFixture({ scenario: "gol-fails", description: "GOL fails" });
    expect(fixture.exchanges.at(-1)!.response).toMatchObject({ status: 502, json: { StackTrace: expect.any(String) } });
  });
});
