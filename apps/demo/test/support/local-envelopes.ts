import { lastValueFrom, toArray } from "rxjs";
import { vi } from "vitest";
import { prepareLocalSearch, type AnyEnvelope } from "../../src/cli/local-search.js";

/** "Now" of the unit tests: 22 November 2026, midday in São Paulo. */
export const NOW = new Date("2026-11-22T15:00:00Z");

/**
 * Every envelope of a search on the embedded simulator, in virtual time (the simulator's latencies pass
 * at once): the same envelopes the service writes, snapshot after snapshot.
 */
export const localEnvelopes = async (body: Record<string, unknown>): Promise<readonly AnyEnvelope[]> => {
  vi.useFakeTimers({ now: NOW, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  try {
    const prepared = prepareLocalSearch(body, { now: NOW });
    if (prepared.kind === "invalid") throw new Error(`invalid search: ${JSON.stringify(prepared.campos)}`);
    const all = lastValueFrom(prepared.answers$.pipe(toArray()));
    await vi.runAllTimersAsync();
    return await all;
  } finally {
    vi.useRealTimers();
  }
};
