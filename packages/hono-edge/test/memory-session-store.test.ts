import { offerCount, snapshotToEnvelope, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import { simulateOffers } from "@voar/testing";
import { describe, expect, it } from "vitest";
import { createMemorySessionStore } from "../src/search/memory-session-store.js";
import { applyChanges, emptySnapshotOf, type SearchChange } from "../src/search/search-change.js";
import type { SearchRecord } from "../src/search/session-store.js";
import { manualClock } from "./support/app.js";

const query: SearchQuery = {
  origin: "CNF",
  destination: "GRU",
  departureDate: "2026-03-20",
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
};

const recordOf = (id: string, over: Partial<SearchRecord> = {}): SearchRecord => ({
  id,
  key: `key-${id}`,
  tenant: "t",
  query,
  sources: [{ id: "latam", name: "LATAM" }, { id: "gol", name: "GOL" }],
  hiddenCashAirlines: [],
  createdAt: 0,
  deadlineAt: 60_000,
  version: 0,
  completed: false,
  lease: { owner: "a", expiresAt: 15_000 },
  ...over,
});

const progress = (state: "pending" | "done") => [
  { id: "latam", name: "LATAM", state, items: 0, attempts: 1 },
  { id: "gol", name: "GOL", state, items: 0, attempts: 1 },
];

const done = (version: number): SearchChange => ({ version, offers: [], sources: progress("done"), completed: true, completion: "finished" });

describe("the in-memory session store", () => {
  it("opens a search once per key; the same key joins it", async () => {
    const store = createMemorySessionStore({ clock: manualClock(0), maxSessions: 10, ttlMs: 1_000 });
    expect(await store.openOrJoin(recordOf("1"))).toMatchObject({ created: true, record: { id: "1" } });
    expect(await store.openOrJoin(recordOf("2", { key: "key-1" }))).toMatchObject({ created: false, record: { id: "1" } });
    expect(await store.get("2")).toBeUndefined();
  });

  it("is bounded: evicts the least recently used completed search; never a running one (refuses instead)", async () => {
    const store = createMemorySessionStore({ clock: manualClock(0), maxSessions: 2, ttlMs: 60_000 });
    await store.openOrJoin(recordOf("1"));
    await store.openOrJoin(recordOf("2"));
    await store.append("2", done(1), "a", 1_000);
    await store.get("2");
    await store.openOrJoin(recordOf("3"));
    expect([await store.get("1"), await store.get("2"), await store.get("3")].map((r) => r?.id)).toEqual(["1", undefined, "3"]);
    await expect(store.openOrJoin(recordOf("4"))).rejects.toMatchObject({ _tag: "SessionCapacityReached", scope: "instance", retryAfterSeconds: 60 });
    expect([await store.get("1"), await store.get("3"), await store.get("4")].map((r) => r?.id)).toEqual(["1", "3", undefined]);
    // Joining needs no room.
    expect(await store.openOrJoin(recordOf("5", { key: "key-1" }))).toMatchObject({ created: false, record: { id: "1" } });
  });

  it("caps each tenant: at its cap the tenant's own oldest completed search makes room, else it is refused; others are untouched", async () => {
    const store = createMemorySessionStore({ clock: manualClock(0), maxSessions: 10, maxSessionsPerTenant: 2, ttlMs: 60_000 });
    await store.openOrJoin(recordOf("a1", { tenant: "a" }));
    await store.openOrJoin(recordOf("b1", { tenant: "b" }));
    await store.openOrJoin(recordOf("b2", { tenant: "b", deadlineAt: 30_500 }));
    await expect(store.openOrJoin(recordOf("b3", { tenant: "b" }))).rejects.toMatchObject({ scope: "tenant", retryAfterSeconds: 31 });
    await store.append("b1", done(1), "a", 1_000);
    await store.openOrJoin(recordOf("b3", { tenant: "b" }));
    expect((await Promise.all(["a1", "b1", "b2", "b3"].map((id) => store.get(id)))).map((r) => r?.id)).toEqual(["a1", undefined, "b2", "b3"]);
    expect(await store.openOrJoin(recordOf("a2", { tenant: "a" }))).toMatchObject({ created: true });
  });

  it("keeps a completed search for the TTL after completion; one that never completes, until deadline + TTL", async () => {
    const clock = manualClock(0);
    const store = createMemorySessionStore({ clock, maxSessions: 10, ttlMs: 10_000 });
    await store.openOrJoin(recordOf("1"));
    await store.openOrJoin(recordOf("2"));
    clock.set(5_000);
    await store.append("1", done(1), "a", 1_000);
    clock.set(14_999);
    expect((await store.get("1"))?.completedAt).toBe(5_000);
    clock.set(15_000);
    expect(await store.get("1")).toBeUndefined();
    expect(await store.openOrJoin(recordOf("1b", { key: "key-1" }))).toMatchObject({ created: true });
    clock.set(69_999);
    expect(await store.get("2")).toBeDefined();
    clock.set(70_000);
    expect(await store.get("2")).toBeUndefined();
  });

  it("appends only for the lease holder; a lapsed lease can be taken; release frees it", async () => {
    const clock = manualClock(0);
    const store = createMemorySessionStore({ clock, maxSessions: 10, ttlMs: 10_000 });
    await store.openOrJoin(recordOf("1"));
    const change: SearchChange = { version: 1, offers: [], sources: progress("pending"), completed: false };
    expect(await store.append("1", change, "b", 1_000)).toBe(false);
    expect(await store.acquireLease("1", "b", 1_000)).toBe(false);
    clock.set(15_000);
    expect(await store.acquireLease("1", "b", 1_000)).toBe(true);
    expect(await store.append("1", change, "a", 1_000)).toBe(false);
    expect(await store.append("1", change, "b", 1_000)).toBe(true);
    await store.releaseLease("1", "b");
    expect((await store.get("1"))?.lease).toBeUndefined();
    expect(await store.acquireLease("1", "a", 1_000)).toBe(true);
  });

  it("notifies watchers of each appended version until they stop", async () => {
    const store = createMemorySessionStore({ clock: manualClock(0), maxSessions: 10, ttlMs: 10_000 });
    await store.openOrJoin(recordOf("1"));
    const seen: number[] = [];
    const stop = await store.watch("1", (v) => seen.push(v));
    await store.append("1", { version: 1, offers: [], sources: progress("pending"), completed: false }, "a", 1_000);
    stop();
    await store.append("1", done(2), "a", 1_000);
    expect(seen).toEqual([1]);
    expect(await store.append("1", done(3), "a", 1_000)).toBe(false); // nothing after completion
  });

  it("compacts old changes into one cumulative change that rebuilds the same snapshot", async () => {
    const offers = simulateOffers(query);
    const record = recordOf("1", { sources: [...new Map(offers.map((o) => [o.sourceId, { id: o.sourceId, name: o.sourceId }])).values()] });
    const sources = record.sources.map((s) => ({ ...s, state: "pending" as const, items: 0, attempts: 1 }));
    const chunk = Math.ceil(offers.length / 8);
    const changes: SearchChange[] = Array.from({ length: 8 }, (_, i) => ({
      version: i + 1,
      offers: offers.slice(i * chunk, (i + 1) * chunk),
      sources,
      completed: i === 7,
    }));
    const compacting = createMemorySessionStore({ clock: manualClock(0), maxSessions: 10, ttlMs: 10_000, maxChangesPerSearch: 3 });
    await compacting.openOrJoin(record);
    for (const c of changes) await compacting.append("1", c, "a", 1_000);
    const kept = await compacting.changes("1", 0);
    expect(kept.map((c) => [c.version, c.cumulative ?? false])).toEqual([[6, true], [7, false], [8, false]]);
    expect((await compacting.changes("1", 6)).map((c) => c.version)).toEqual([7, 8]);
    const full = applyChanges(record, emptySnapshotOf(record), changes);
    const rebuilt = applyChanges(record, emptySnapshotOf(record), kept);
    expect(rebuilt.version).toBe(8);
    expect(offerCount(rebuilt)).toBe(offers.length);
    const page = { searchId: "1", requestId: "r", page: 1, pageSize: 100, airports };
    expect(snapshotToEnvelope(rebuilt, page)).toEqual(snapshotToEnvelope(full, page));
  });
});
