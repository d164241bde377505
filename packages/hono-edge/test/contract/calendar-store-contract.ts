import { afterEach, describe, expect, it } from "vitest";
import type { CalendarRecord } from "../../src/calendar/calendar-record.js";
import type { StoreHarness } from "./session-store-contract.js";

const query = { origin: "GRU", destination: "SSA", departureDate: "2026-03-20", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } } as const;

/**
 * The contract of the calendar store (`SessionStore.calendars`, see `calendar-store.ts`), for any session
 * store that keeps calendars: run it with the same harnesses as the session store's contract.
 */
export const calendarStoreContract = (name: string, make: (settings: { ttlMs: number; maxChangesPerSearch: number }) => Promise<StoreHarness>, timing = { leaseMs: 300, ttlMs: 400 }) => {
  describe(`${name}: the calendar store contract`, () => {
    let open: StoreHarness[] = [];
    const harness = async () => {
      const h = await make({ ttlMs: timing.ttlMs, maxChangesPerSearch: 256 });
      open.push(h);
      return { h, calendars: h.store.calendars! };
    };
    afterEach(async () => {
      await Promise.all(open.map((h) => h.close()));
      open = [];
    });
    const recordOf = (h: StoreHarness, id: string, over: Partial<CalendarRecord> = {}): CalendarRecord => ({
      id,
      key: `key-${id}`,
      tenant: "acme",
      query,
      flexibleDays: 1,
      hiddenCashAirlines: [3],
      days: [{ departureDate: "2026-03-19" }, { departureDate: "2026-03-20" }, { departureDate: "2026-03-21" }],
      budget: { limit: 100, used: 0 },
      createdAt: h.now(),
      deadlineAt: h.now() + 60_000,
      completed: false,
      lease: { owner: "a", expiresAt: h.now() + timing.leaseMs },
      ...over,
    });
    const withoutLease = ({ lease: _, ...r }: CalendarRecord) => r;

    it("opens a calendar once per key and gives back what was stored; another key is another calendar", async () => {
      const { h, calendars } = await harness();
      const one = recordOf(h, "c1");
      expect(await calendars.openOrJoin(one)).toEqual({ record: one, created: true });
      const joined = await calendars.openOrJoin(recordOf(h, "c2", { key: "key-c1" }));
      expect(joined.created).toBe(false);
      expect(withoutLease(joined.record)).toEqual(withoutLease(one));
      expect(joined.record.lease?.owner).toBe("a");
      expect((await calendars.openOrJoin(recordOf(h, "c3"))).created).toBe(true);
      expect(withoutLease((await calendars.get("c1"))!)).toEqual(withoutLease(one));
      expect(await calendars.get("nope")).toBeUndefined();
    });

    it("writes only under the lease: the owner's writes land, another's are refused until the lease lapses", async () => {
      const { h, calendars } = await harness();
      const one = recordOf(h, "c1");
      await calendars.openOrJoin(one);
      const started = { ...one, days: [one.days[0]!, { ...one.days[1]!, searchId: "s-20" }, one.days[2]!], budget: { limit: 100, used: 7 } };
      expect(await calendars.save(started, "a", timing.leaseMs)).toBe(true);
      expect(await calendars.save({ ...started, days: [] }, "b", timing.leaseMs)).toBe(false);
      expect((await calendars.get("c1"))!).toMatchObject({ days: started.days, budget: { used: 7 }, lease: { owner: "a" } });
      await h.elapse(timing.leaseMs + 50);
      // Lapsed: another instance takes it over with a write of its own.
      expect(await calendars.save(started, "b", timing.leaseMs)).toBe(true);
      expect((await calendars.get("c1"))!.lease?.owner).toBe("b");
      expect(await calendars.save(started, "a", timing.leaseMs)).toBe(false);
      // Given up (lease 0): free for anyone at once.
      expect(await calendars.save(started, "b", 0)).toBe(true);
      expect((await calendars.get("c1"))!.lease).toBeUndefined();
      expect(await calendars.save(started, "c", timing.leaseMs)).toBe(true);
      expect(await calendars.save(recordOf(h, "gone"), "a", timing.leaseMs)).toBe(false);
    });

    it("a completed calendar is joined until its joinableUntil, then the key starts a new one; it expires its TTL after completion", async () => {
      const { h, calendars } = await harness();
      const one = recordOf(h, "c1");
      await calendars.openOrJoin(one);
      expect(await calendars.save({ ...one, completed: true, completedAt: h.now(), joinableUntil: h.now() + 150 }, "a", 0)).toBe(true);
      expect((await calendars.openOrJoin(recordOf(h, "c2", { key: "key-c1" }))).created).toBe(false);
      await h.elapse(200);
      expect((await calendars.openOrJoin(recordOf(h, "c3", { key: "key-c1" }))).created).toBe(true);
      expect((await calendars.get("c1"))?.completed).toBe(true); // still answered by id
      await h.elapse(timing.ttlMs);
      expect(await calendars.get("c1")).toBeUndefined();
    });

    it("a completed calendar running again (its days searched again) is joined by its key again", async () => {
      const { h, calendars } = await harness();
      const one = recordOf(h, "c1");
      await calendars.openOrJoin(one);
      expect(await calendars.save({ ...one, completed: true, completedAt: h.now(), joinableUntil: h.now() + 50 }, "a", 0)).toBe(true);
      await h.elapse(100);
      expect(await calendars.save({ ...one, completed: false, versionBase: 9 }, "b", timing.leaseMs)).toBe(true);
      const joined = await calendars.openOrJoin(recordOf(h, "c2", { key: "key-c1" }));
      expect(joined).toMatchObject({ created: false, record: { id: "c1", versionBase: 9, lease: { owner: "b" } } });
    });
  });
};
