/**
 * The Node build (undici) on a fixture replayed by an undici MockAgent, and the results checked against the
 * simulator that the fixture was recorded from: the flights, prices and miles a traveller would see.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { chooseFlights, createSimulator, loadFixture, replayMockAgent, scenario } from "@voar/testing";
import { createUpstreamSource } from "../../src/index.js";
import { runSearch } from "../support/run-search.js";
import { queryOf } from "../support/scenario-query.js";

const seen = (o: { flightKey: string; total: { amount: number }; miles?: { pointsAdult: number } | undefined; itinerary: { durationMinutes: number } }) =>
  `${o.flightKey}|${o.total.amount}|${o.miles?.pointsAdult ?? "cash"}|${o.itinerary.durationMinutes}`;

describe("the undici source on a MockAgent replay", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each(["mode-a-one-way", "single-airline-miles-and-cash"])("%s: finds what the simulator sold, to the centavo and the mile", async (name) => {
    const fixture = loadFixture(name);
    const query = queryOf(fixture);
    const agent = replayMockAgent(fixture);
    const source = createUpstreamSource({ baseUrl: "http://upstream.test/api", credentials: { username: "a", password: "b" }, dispatcher: agent });
    const run = await runSearch(query, [source]);
    expect(run.last().sources[0]).toMatchObject({ state: "done" });
    const simulator = createSimulator();
    const kept = chooseFlights(simulator.offers(query), scenario(name).perAirline);
    const truth = simulator.offers(query).filter((o) => kept.has(o.flightKey));
    expect(new Set(run.offers().map(seen))).toEqual(new Set(truth.map(seen)));
    await agent.close();
  });

  it("flaky-transport: socket errors and a slow answer through undici, then every offer", async () => {
    const fixture = loadFixture("flaky-transport");
    const agent = replayMockAgent(fixture);
    const source = createUpstreamSource({ baseUrl: "http://upstream.test/api", credentials: { token: "static" }, dispatcher: agent });
    const run = await runSearch(queryOf(fixture), [source]);
    expect(run.last().sources[0]).toMatchObject({ state: "done", attempts: 1 });
    expect(run.offers().length).toBeGreaterThan(0);
    await agent.close();
  });
});
