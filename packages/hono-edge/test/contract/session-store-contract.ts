import { offerCount, snapshotToEnvelope, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import { simulateOffers } from "@voar/testing/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { applyChanges, emptySnapshotOf, type SearchChange } from "../../src/search/search-change.js";
import type { SearchRecord, SessionStore } from "../../src/search/session-store.js";

/** A store under test, with a way to let its clock move. */
export interface StoreHarness {
  readonly store: SessionStore;
  /** The store's clock now (epoch ms). */
  now(): number;
  /** Lets `ms` of the store's clock pass (a real wait for Redis, a manual clock for memory). */
  elapse(ms: number): Promise<void>;
  /** Frees what the harness made (connections, keys). */
  close(): Promise<void>;
}

/** What every store of the contract is made with. */
export interface StoreSettings {
  readonly ttlMs: number;
  readonly maxChangesPerSearch: number;
}

const query: SearchQuery = {
  origin: "CNF",
  destination: "GRU",
  departureDate: "2026-03-20",
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
};
const SOURCES = [
  { id: "latam", name: "LATAM" },
  { id: "gol", name: "GOL" },
];
const progress = (state: "pending" | "done") => SOURCES.map((s) => ({ ...s, state, items: 0, attempts: 1 }));
const step = (version: number, completed = false): SearchChange => ({
  version,
  offers: [],
  sources: progress(completed ? "done" : "pending"),
  completed,
  ...(completed ? { completion: "finished" as const } : {}),
});

/**
 * The contract of the session store port (see `session-store.ts`), for any implementation: run it with a
 * factory of harnesses. Times are short (hundreds of ms) so that a store on a real clock runs it quickly.
 */
export const sessionStoreContract = (name: string, make: (settings: StoreSettings) => Promise<StoreHarness>, timing = { leaseMs: 300, ttlMs: 400 }) => {
  describe(`${name}: the session store contract`, () => {
    let open: StoreHarness[] = [];
    const harness = async (over: Partial<StoreSettings> = {}) => {
      const h = await make({ ttlMs: timing.ttlMs, maxChangesPerSearch: 256, ...over });
      open.push(h);
      return h;
    };
    afterEach(async () => {
      await Promise.all(open.map((h) => h.close()));
      open = [];
    });
    const recordOf = (h: StoreHarness, id: string, over: Partial<SearchRecord> = {}): SearchRecord => ({
      id,
      key: `key-${id}`,
      tenant: "acme",
      query,
      sources: SOURCES,
      hiddenCashAirlines: [3],
      createdAt: h.now(),
      deadlineAt: h.now() + 60_000,
      version: 0,
      completed: false,
      lease: { owner: "a", expiresAt: h.now() + timing.leaseMs },
      ...over,
    });

    it("opens a search once per key and gives back exactly what was stored; another key is another search", async () => {
      const h = await harness();
      const one = recordOf(h, "1");
      expect(await h.store.openOrJoin(one)).toEqual({ record: one, created: true });
      expect(await h.store.openOrJoin(recordOf(h, "2", { key: "key-1" }))).toEqual({ record: one, created: false });
      expect(await h.store.get("1")).toEqual(one);
      expect(await h.store.get("2")).toBeUndefined();
      expect(await h.store.openOrJoin(recordOf(h, "3"))).toMatchObject({ created: true });
    });

    it("of many concurrent opens of one key, exactly one creates the search and all join it", async () => {
      const h = await harness();
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => h.store.openOrJoin(recordOf(h, `c${i}`, { key: "same" }))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.record.id)).size).toBe(1);
    });

    it("records each append: version, completion and the renewed lease; changes come back oldest first", async () => {
      const h = await harness();
      await h.store.openOrJoin(recordOf(h, "1"));
      expect(await h.store.append("1", step(1), "a", 5_000)).toBe(true);
      expect(await h.store.append("1", step(2), "a", 5_000)).toBe(true);
      const running = await h.store.get("1");
      expect(running).toMatchObject({ version: 2, completed: false, lease: { owner: "a" } });
      expect(running!.lease!.expiresAt).toBeGreaterThan(h.now() + 4_000);
      expect(await h.store.append("1", step(3, true), "a", 5_000)).toBe(true);
      const done = await h.store.get("1");
      expect(done).toMatchObject({ version: 3, completed: true });
      expect(done!.completedAt).toBeGreaterThanOrEqual(done!.createdAt);
      expect(await h.store.changes("1", 0)).toEqual([step(1), step(2), step(3, true)]);
      expect((await h.store.changes("1", 1)).map((c) => c.version)).toEqual([2, 3]);
      expect(await h.store.changes("1", 3)).toEqual([]);
      expect(await h.store.changes("unknown", 0)).toEqual([]);
      expect(await h.store.append("1", step(4), "a", 5_000)).toBe(false); // nothing after completion
      expect(await h.store.append("unknown", step(1), "a", 5_000)).toBe(false);
    });

    it("a completed search with rejoinMs 0 (it failed as a whole) is never joined again, yet still answers by id", async () => {
      const h = await harness();
      await h.store.openOrJoin(recordOf(h, "1"));
      const failed: SearchChange = { ...step(1, true), rejoinMs: 0 };
      expect(await h.store.append("1", failed, "a", 5_000)).toBe(true);
      const again = recordOf(h, "2", { key: "key-1" });
      expect(await h.store.openOrJoin(again)).toEqual({ record: again, created: true });
      // The new search owns the key now; the failed one is still there for polls by its id.
      expect(await h.store.openOrJoin(recordOf(h, "3", { key: "key-1" }))).toMatchObject({ created: false, record: { id: "2" } });
      expect(await h.store.get("1")).toMatchObject({ id: "1", completed: true });
      expect(await h.store.changes("1", 0)).toEqual([failed]);
      // The old search's lifetime does not touch the new one's key.
      await h.elapse(timing.ttlMs + 100);
      expect(await h.store.get("1")).toBeUndefined();
    });

    it("a completed search with a short rejoinMs is joined within it, then a new request starts a new search", async () => {
      const h = await harness();
      const rejoinMs = Math.floor(timing.ttlMs / 4);
      const one = await h.store.openOrJoin(recordOf(h, "1"));
      expect(await h.store.append("1", { ...step(1, true), rejoinMs }, "a", 5_000)).toBe(true);
      expect(await h.store.openOrJoin(recordOf(h, "2", { key: "key-1" }))).toMatchObject({ created: false, record: { id: one.record.id } });
      await h.elapse(rejoinMs + 100);
      expect(await h.store.openOrJoin(recordOf(h, "3", { key: "key-1" }))).toMatchObject({ created: true, record: { id: "3" } });
      expect(await h.store.get("1")).toMatchObject({ id: "1", completed: true });
    });

    it("appends only for the lease holder; a lapsed lease can be taken, after which the old holder cannot write", async () => {
      const h = await harness();
      await h.store.openOrJoin(recordOf(h, "1"));
      expect(await h.store.append("1", step(1), "b", timing.leaseMs)).toBe(false);
      expect(await h.store.acquireLease("1", "b", timing.leaseMs)).toBe(false);
      expect(await h.store.acquireLease("1", "a", timing.leaseMs)).toBe(true); // the holder renews
      await h.elapse(timing.leaseMs + 100);
      expect(await h.store.acquireLease("1", "b", 5_000)).toBe(true);
      expect(await h.store.append("1", step(1), "a", 5_000)).toBe(false);
      expect(await h.store.append("1", step(1), "b", 5_000)).toBe(true);
      expect((await h.store.get("1"))?.lease?.owner).toBe("b");
    });

    it("release frees the lease at once, and only the holder's release counts", async () => {
      const h = await harness();
      await h.store.openOrJoin(recordOf(h, "1"));
      await h.store.releaseLease("1", "b");
      expect((await h.store.get("1"))?.lease?.owner).toBe("a");
      await h.store.releaseLease("1", "a");
      expect((await h.store.get("1"))?.lease).toBeUndefined();
      expect(await h.store.acquireLease("1", "b", 5_000)).toBe(true);
    });

    it("notifies watchers of every appended version, in order, until they stop", async () => {
      const h = await harness();
      await h.store.openOrJoin(recordOf(h, "1"));
      const seen: number[] = [];
      const other: number[] = [];
      const stop = await h.store.watch("1", (v) => seen.push(v));
      const stopOther = await h.store.watch("1", (v) => other.push(v));
      await h.store.append("1", step(1), "a", 5_000);
      await h.store.append("1", step(2), "a", 5_000);
      await expect.poll(() => other).toEqual([1, 2]);
      stop();
      await h.store.append("1", step(3, true), "a", 5_000);
      await expect.poll(() => other).toEqual([1, 2, 3]);
      expect(seen).toEqual([1, 2]);
      stopOther();
    });

    it("compacts old changes into a cumulative one that rebuilds the same answer", async () => {
      const h = await harness({ maxChangesPerSearch: 4 });
      const offers = simulateOffers(query);
      const record = recordOf(h, "1", { sources: [...new Map(offers.map((o) => [o.sourceId, { id: o.sourceId, name: o.sourceId }])).values()], hiddenCashAirlines: [] });
      const sources = record.sources.map((s) => ({ ...s, state: "pending" as const, items: 0, attempts: 1 }));
      const chunk = Math.ceil(offers.length / 10);
      const changes: SearchChange[] = Array.from({ length: 10 }, (_, i) => ({ version: i + 1, offers: offers.slice(i * chunk, (i + 1) * chunk), sources, completed: false }));
      await h.store.openOrJoin(record);
      for (const c of changes) expect(await h.store.append("1", c, "a", 5_000)).toBe(true);
      const kept = await h.store.changes("1", 0);
      expect(kept.length).toBeLessThanOrEqual(4);
      expect(kept[0]?.cumulative).toBe(true);
      expect(kept.at(-1)?.version).toBe(10);
      expect((await h.store.changes("1", 9)).map((c) => c.version)).toEqual([10]);
      const full = applyChanges(record, emptySnapshotOf(record), changes);
      const rebuilt = applyChanges(record, emptySnapshotOf(record), kept);
      expect(offerCount(rebuilt)).toBe(offers.length);
      const page = { searchId: "1", requestId: "r", page: 1, pageSize: 100, airports };
      expect(snapshotToEnvelope(rebuilt, page)).toEqual(snapshotToEnvelope(full, page));
    });

    it("expires a completed search TTL after completion, one that never completes TTL after its deadline; the key is free again", async () => {
      const h = await harness();
      await h.store.openOrJoin(recordOf(h, "done"));
      await h.store.openOrJoin(recordOf(h, "late", { deadlineAt: h.now() + timing.ttlMs }));
      await h.store.append("done", step(1, true), "a", 5_000);
      expect(await h.store.get("done")).toBeDefined();
      await h.elapse(timing.ttlMs + 150);
      expect(await h.store.get("done")).toBeUndefined();
      expect(await h.store.changes("done", 0)).toEqual([]);
      expect(await h.store.get("late")).toBeDefined();
      expect(await h.store.openOrJoin(recordOf(h, "again", { key: "key-done" }))).toMatchObject({ created: true, record: { id: "again" } });
      await h.elapse(timing.ttlMs);
      expect(await h.store.get("late")).toBeUndefined();
    });
  });
};
