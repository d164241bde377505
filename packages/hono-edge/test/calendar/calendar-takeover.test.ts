import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CalendarStore } from "../../src/calendar/calendar-store.js";
import { StoreUnavailable } from "../../src/errors/service-errors.js";
import { createMemorySessionStore } from "../../src/search/memory-session-store.js";
import type { SessionStore } from "../../src/search/session-store.js";
import { fastSources, NOW, testApp } from "../support/app.js";
import { calendario, completedCalendar } from "./support.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/**
 * One store for two instances, where instance `a` can die: from `kill()` on, nothing it writes reaches the
 * store (its searches' changes, its leases, its calendars), as for an instance cut off or gone.
 */
const sharedStore = () => {
  const inner = createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 });
  let dead = false;
  const gone = () => Promise.reject(new StoreUnavailable("instance a is gone"));
  const calendars: CalendarStore = {
    ...inner.calendars!,
    save: (record, owner, leaseMs) => (dead && owner === "a" ? gone() : inner.calendars!.save(record, owner, leaseMs)),
    openOrJoin: (candidate) => (dead && candidate.lease?.owner === "a" ? gone() : inner.calendars!.openOrJoin(candidate)),
  };
  const store: SessionStore = {
    ...inner,
    calendars,
    append: (id, change, owner, leaseMs) => (dead && owner === "a" ? gone() : inner.append(id, change, owner, leaseMs)),
    acquireLease: (id, owner, leaseMs) => (dead && owner === "a" ? gone() : inner.acquireLease(id, owner, leaseMs)),
    openOrJoin: (candidate) => (dead && candidate.lease?.owner === "a" ? gone() : inner.openOrJoin(candidate)),
  };
  return { store, kill: () => void (dead = true) };
};

describe("a calendar whose instance died", () => {
  it("is taken over by the instance a poll reaches: its running day continues, the days not started start there, each day searched once", async () => {
    const shared = sharedStore();
    const config = { search: { leaseMs: 1_000 }, calendar: { concurrency: 1 } };
    const a = testApp({ store: shared.store, sources: fastSources({ latencyMs: 1_000 }), instanceId: "a", configInput: config });
    const b = testApp({ store: shared.store, sources: fastSources({ latencyMs: 1_000 }), instanceId: "b", configInput: config });
    const token = (await calendario(a.app, { Origem: "CNF", Destino: "GRU", Ida: "2026-03-20", DiasFlexiveis: 2 })).body.Token;
    await vi.advanceTimersByTimeAsync(300); // the day asked is running on a, the others wait
    const before = await calendario(b.app, { Token: token });
    expect(before.body.Data.map((d) => d.Estado)).toEqual(["aguardando", "aguardando", "buscando", "aguardando", "aguardando"]);
    shared.kill();

    const done = await completedCalendar(b.app, token);
    expect(done.body).toMatchObject({ Completed: true, Token: token });
    expect(done.body.Data.every((d) => d.Completed && d.MenorValor !== null && d.TokenBusca !== null)).toBe(true);
    // The day asked kept its search (taken over by b), and every other day got exactly one.
    expect(done.body.Data[2]!.TokenBusca).toBe(before.body.Data[2]!.TokenBusca);
    expect(new Set(done.body.Data.map((d) => d.TokenBusca)).size).toBe(5);
    expect(b.logs.records.filter((r) => r.msg === "calendar.taken_over")).toHaveLength(1);
    expect(b.logs.records.some((r) => r.msg === "search.taken_over")).toBe(true);
    expect(b.logs.records.filter((r) => r.msg === "calendar.completed")).toHaveLength(1);
  });
});

describe("a calendar at the tenant's cap of searches", () => {
  it("waits for room: its days start as others complete, never more searches at once than the cap", async () => {
    const { app, logs } = testApp({ sources: fastSources({ latencyMs: 300 }), configInput: { limits: { maxSessionsPerTenant: 2 }, calendar: { concurrency: 3 } } });
    const done = await completedCalendar(app, (await calendario(app, { Origem: "CNF", Destino: "GRU", Ida: "2026-03-20", DiasFlexiveis: 3 })).body.Token);
    expect(done.body.Data.every((d) => d.Completed && d.MenorValor !== null)).toBe(true);
    expect(done.body.Data.some((d) => d.Erro !== undefined)).toBe(false);
    // The store refused the third day at first: the cap held, and the day asked again.
    expect(logs.records.filter((r) => r.msg === "search.refused" && r["scope"] === "tenant").length).toBeGreaterThan(0);
  });
});
