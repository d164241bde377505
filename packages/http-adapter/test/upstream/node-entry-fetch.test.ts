/**
 * The Node entry takes a `fetch` as the fetch build does (a test's fake upstream, say): its requests go through
 * it, instead of undici to the base URL while the option is dropped without a word.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFanOutSources, createUpstreamSource } from "../../src/index.js";
import { runSearch } from "../support/run-search.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";

beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
afterEach(() => vi.useRealTimers());

describe("the Node entry with a fetch of one's own", () => {
  it("searches through it, one source or the fan-out, and finds the upstream's offers", async () => {
    const upstream = liveUpstream({ simulator: { latencyMs: 500 } });
    const fetch = vi.fn(upstream.fetch);
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: agency, fetch });
    const one = await runSearch(testQuery(), [source]);
    expect(one.last().completed).toBe(true);
    expect(one.last().offers.size).toBeGreaterThan(0);
    const fanOut = await runSearch(testQuery(), createFanOutSources({ baseUrl: upstream.baseUrl, credentials: agency, fetch, airlines: [1, 2] }));
    expect(fanOut.last().offers.size).toBeGreaterThan(0);
    // Every login and search the fake upstream saw came through the fetch given.
    expect(upstream.stats.logins).toBeGreaterThan(0);
    expect(fetch.mock.calls.length).toBeGreaterThanOrEqual(upstream.stats.logins + upstream.stats.searches);
    upstream.close();
  });
});
