import { initialSnapshot } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SnapshotCache } from "../src/search/snapshot-cache.js";
import type { SearchRecord } from "../src/search/session-store.js";
import { sweepTimer } from "../src/expiry/sweep-timer.js";
import { NOW } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const record = (id: string, completedAt: number): SearchRecord =>
  ({ id, key: id, tenant: "t", query: {} as SearchRecord["query"], sources: [], hiddenCashAirlines: [], createdAt: completedAt, deadlineAt: completedAt, version: 1, completed: true, completedAt }) as SearchRecord;

describe("expired searches leave memory on time, with or without traffic", () => {
  it("the snapshot cache drops every search whose TTL passed on a timer of its own, with no request after it, and says which", async () => {
    const expired: string[] = [];
    const cache = new SnapshotCache({ clock: { now: () => Date.now() }, size: 100, ttlMs: 10_000, onExpired: (ids) => expired.push(...ids) });
    const snapshot = initialSnapshot({ mode: "A", origin: "CNF", destination: "GRU", departure: "2026-03-20" } as unknown as Parameters<typeof initialSnapshot>[0], []);
    cache.keep(record("a", NOW), snapshot);
    cache.keep(record("b", NOW + 5_000), snapshot);
    expect(cache.size).toBe(2);
    await vi.advanceTimersByTimeAsync(12_500); // no call to the cache: only its timer runs
    expect([cache.size, expired]).toEqual([1, ["a"]]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect([cache.size, expired]).toEqual([0, ["a", "b"]]);
    expect(vi.getTimerCount()).toBe(0); // nothing left: no timer either
  });

  it("a sweep timer runs while its sweep says something is left, and is armed again by new entries", async () => {
    let left = 2;
    const sweeps: number[] = [];
    const timer = sweepTimer({ everyMs: 1_000, sweep: () => (sweeps.push(Date.now() - NOW), --left > 0) });
    timer.arm();
    timer.arm(); // one timer however often armed
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sweeps).toEqual([1_000, 2_000]);
    left = 1;
    timer.arm();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sweeps).toEqual([1_000, 2_000, 6_000]);
  });
});
