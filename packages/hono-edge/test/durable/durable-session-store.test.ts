import { offerCount, snapshotToEnvelope, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import { simulateOffers } from "@voar/testing/simulator";
import { describe, expect, it } from "vitest";
import { createDurableSessionStore } from "../../src/durable/durable-session-store.js";
import { applyChanges, emptySnapshotOf, type SearchChange } from "../../src/search/search-change.js";
import type { SearchRecord } from "../../src/search/session-store.js";
import { sessionStoreContract } from "../contract/session-store-contract.js";
import { calendarStoreContract } from "../contract/calendar-store-contract.js";
import type { CalendarRecord } from "../../src/calendar/calendar-record.js";
import { manualClock } from "../support/app.js";
import { memoryStorage } from "./memory-storage.js";

// The port's contract holds for the store of a Durable Object (writing through changes nothing it promises).
sessionStoreContract("durable object", async ({ ttlMs, maxChangesPerSearch }) => {
  const clock = manualClock(Date.parse("2026-03-02T15:00:00Z"));
  const { store } = createDurableSessionStore({ storage: memoryStorage().storage, clock, maxSessions: 100, ttlMs, maxChangesPerSearch });
  return { store, now: () => clock.now(), elapse: async (ms) => clock.advance(ms), close: async () => undefined };
});

// And the calendar store's (a calendar's record written through to storage at every write).
calendarStoreContract("durable object", async ({ ttlMs, maxChangesPerSearch }) => {
  const clock = manualClock(Date.parse("2026-03-02T15:00:00Z"));
  const { store } = createDurableSessionStore({ storage: memoryStorage().storage, clock, maxSessions: 100, ttlMs, maxChangesPerSearch });
  return { store, now: () => clock.now(), elapse: async (ms) => clock.advance(ms), close: async () => undefined };
});

const query: SearchQuery = {
  origin: "CNF",
  destination: "GRU",
  departureDate: "2026-03-20",
  returnDate: "2026-03-27",
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
};
/** Every simulated offer of the query: realistic offers, so their JSON has a realistic size. */
const OFFERS = simulateOffers(query);
const SOURCES = [...new Map(OFFERS.map((o) => [o.sourceId, { id: o.sourceId, name: o.sourceId }])).values()];
const TTL = 600_000;

const recordAt = (now: number, id = "s1"): SearchRecord => ({
  id,
  key: `key-${id}`,
  tenant: "apikey:acme",
  query,
  sources: SOURCES,
  hiddenCashAirlines: [],
  createdAt: now,
  deadlineAt: now + 60_000,
  version: 0,
  completed: false,
  lease: { owner: "first", expiresAt: now + 15_000 },
});

/** Change `version` with the offers `from` to `to` of the simulated ones. */
const changeOf = (version: number, from: number, to: number, completed = false): SearchChange => ({
  version,
  offers: OFFERS.slice(from, to),
  sources: SOURCES.map((s) => ({ ...s, state: completed ? ("done" as const) : ("pending" as const), items: to, attempts: 1 })),
  completed,
  ...(completed ? { completion: "finished" as const } : {}),
});

/** What a client would be answered for a search in a store: the whole first page of its envelope. */
const answerOf = async (store: ReturnType<typeof createDurableSessionStore>["store"], id: string) => {
  const record = (await store.get(id))!;
  const snapshot = applyChanges(record, emptySnapshotOf(record), await store.changes(id, 0));
  return { record, offers: offerCount(snapshot), envelope: snapshotToEnvelope(snapshot, { searchId: id, requestId: "r", page: 1, pageSize: 100, airports, nextPollMs: 500 }).body };
};

describe("the Durable Object's store after an eviction", () => {
  it("brings a completed search back as it was: same versions, same answer, same completion time", async () => {
    const clock = manualClock();
    const { storage } = memoryStorage();
    const before = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    await before.store.openOrJoin(recordAt(clock.now()));
    expect(await before.store.append("s1", changeOf(1, 0, 40), "first", 15_000)).toBe(true);
    clock.advance(1_000);
    expect(await before.store.append("s1", changeOf(2, 40, 70, true), "first", 15_000)).toBe(true);
    const was = await answerOf(before.store, "s1");
    expect(was.offers).toBeGreaterThan(0);

    clock.advance(5_000); // the object was evicted; a new instance of it starts from storage
    const after = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    expect(await after.store.get("s1")).toBeUndefined();
    expect(await after.restore()).toBe(1);
    const is = await answerOf(after.store, "s1");
    expect(is.envelope).toEqual(was.envelope);
    expect(is.record).toMatchObject({ version: 2, completed: true, completedAt: was.record.completedAt });
    // Its TTL still counts from the real completion.
    clock.set(was.record.completedAt! + TTL);
    expect(await after.store.get("s1")).toBeUndefined();
  });

  it("brings a running search back without a lease, so the next instance takes it over and continues its versions", async () => {
    const clock = manualClock();
    const { storage } = memoryStorage();
    const before = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    await before.store.openOrJoin(recordAt(clock.now()));
    await before.store.append("s1", changeOf(1, 0, 10), "first", 15_000);

    const after = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    await after.restore();
    const record = await after.store.get("s1");
    expect(record).toMatchObject({ version: 1, completed: false });
    expect(record!.lease).toBeUndefined();
    expect(await after.store.acquireLease("s1", "second", 15_000)).toBe(true);
    expect(await after.store.append("s1", changeOf(2, 10, 15, true), "second", 15_000)).toBe(true);
    // And that continuation is stored too: a third instance sees the completed search.
    const third = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    await third.restore();
    expect(await third.store.get("s1")).toMatchObject({ version: 2, completed: true });
  });

  it("stores a change too big for one value in parts and rebuilds it whole", async () => {
    const clock = manualClock();
    const { storage, data } = memoryStorage();
    const before = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    await before.store.openOrJoin(recordAt(clock.now()));
    const big = changeOf(1, 0, OFFERS.length, true);
    expect(JSON.stringify(big).length).toBeGreaterThan(120_000);
    expect(await before.store.append("s1", big, "first", 15_000)).toBe(true);
    expect([...data.keys()].filter((k) => k.startsWith("c:s1:")).length).toBeGreaterThan(1);

    const after = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    await after.restore();
    expect(await after.store.changes("s1", 0)).toEqual([JSON.parse(JSON.stringify(big))]);
  });

  it("deletes what expired: on restore, and on a sweep, which tells when the next search expires", async () => {
    const clock = manualClock();
    const { storage, data } = memoryStorage();
    const durable = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    await durable.store.openOrJoin(recordAt(clock.now(), "old"));
    await durable.store.append("old", changeOf(1, 0, 3, true), "first", 15_000);
    const oldExpiry = clock.now() + TTL;
    clock.advance(1_000);
    await durable.store.openOrJoin(recordAt(clock.now(), "new"));
    const newExpiry = clock.now() + 60_000 + TTL; // running: deadline + TTL
    expect(await durable.sweep()).toBe(oldExpiry);

    clock.set(oldExpiry);
    expect(await durable.sweep()).toBe(newExpiry);
    expect([...data.keys()].some((k) => k.includes("old"))).toBe(false);
    expect(data.has("r:new")).toBe(true);

    clock.set(newExpiry);
    const after = createDurableSessionStore({ storage, clock, maxSessions: 10, ttlMs: TTL });
    expect(await after.restore()).toBe(0);
    expect(data.size).toBe(0);
    expect(await durable.sweep()).toBeUndefined();
  });
});

describe("a price calendar in the Durable Object's store", () => {
  const calendarAt = (now: number, over: Partial<CalendarRecord> = {}): CalendarRecord => ({
    id: "c1",
    key: "calendar-key",
    tenant: "acme",
    query,
    flexibleDays: 1,
    hiddenCashAirlines: [],
    days: [{ departureDate: "2026-03-19", searchId: "s1" }, { departureDate: "2026-03-20" }, { departureDate: "2026-03-21" }],
    createdAt: now,
    deadlineAt: now + 120_000,
    completed: false,
    lease: { owner: "first", expiresAt: now + 15_000 },
    ...over,
  });

  it("comes back after an eviction as last written, without its lease (the next request takes it over), its key joined again; swept once expired", async () => {
    const clock = manualClock(Date.parse("2026-03-02T15:00:00Z"));
    const { storage } = memoryStorage();
    const first = createDurableSessionStore({ storage, clock, maxSessions: 100, ttlMs: TTL });
    const calendars = first.store.calendars!;
    const record = calendarAt(clock.now());
    expect((await calendars.openOrJoin(record)).created).toBe(true);
    const written = { ...record, days: [{ ...record.days[0]!, settled: { version: 4, sources: [] } }, ...record.days.slice(1)] };
    expect(await calendars.save(written, "first", 15_000)).toBe(true);

    const fresh = createDurableSessionStore({ storage, clock, maxSessions: 100, ttlMs: TTL });
    await fresh.restore();
    const { lease: _lease, ...kept } = written;
    expect(await fresh.store.calendars!.get("c1")).toEqual(kept);
    expect(await fresh.store.calendars!.openOrJoin({ ...calendarAt(clock.now()), id: "c2" })).toMatchObject({ created: false, record: { id: "c1" } });
    // Not owned by anyone now: another instance's write is taken.
    expect(await fresh.store.calendars!.save(kept, "second", 15_000)).toBe(true);

    expect(await fresh.sweep()).toBe(record.deadlineAt + TTL);
    clock.advance(120_000 + TTL);
    expect(await fresh.sweep()).toBeUndefined();
    const later = createDurableSessionStore({ storage, clock, maxSessions: 100, ttlMs: TTL });
    await later.restore();
    expect(await later.store.calendars!.get("c1")).toBeUndefined();
  });
});
