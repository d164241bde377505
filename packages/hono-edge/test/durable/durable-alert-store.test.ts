/**
 * The alerts' store on a Durable Object's storage: the store's contract (quota, shared day checks, leases that
 * lapse, writes at the revision read, deliveries leased one at a time), with concurrent steps that stay atomic.
 */
import type { AlertEvent, AlertSpec } from "@voar/core";
import { describe, expect, it } from "vitest";
import type { AlertRecord } from "../../src/alerts/alert-record.js";
import { durableAlertStore } from "../../src/durable/durable-alert-store.js";
import { manualClock, QUERY } from "../support/app.js";
import { memoryStorage } from "./memory-storage.js";

const query = { origin: QUERY.Origem, destination: QUERY.Destino, departureDate: QUERY.Ida, adults: 1, children: 0, infants: 0 };
const spec = { query, days: [QUERY.Ida], window: { kind: "day" }, kind: "cash", expiresOn: QUERY.Ida } as unknown as AlertSpec;
const watch = (id: string, tenant: string, createdAt: number): AlertRecord => ({ id, tenant, createdAt, expiresAt: createdAt + 3_600_000, spec, rev: 0, checks: 0, fired: 0 });
const unit = { key: "CNF-GRU-day", query: query as never };
const event = (id: string) => ({ type: "alerta.preco", data: { Id: id } }) as unknown as AlertEvent;

describe("the alerts' store on Durable Object storage", () => {
  it("holds the quota, shares a day between tenants, leases each slot to one owner until the lease lapses", async () => {
    const clock = manualClock(1_000_000);
    const { storage } = memoryStorage();
    const store = durableAlertStore({ storage, clock });
    expect(await store.create(watch("w1", "acme", 1), [unit], 1)).toBe(true);
    expect(await store.create(watch("w2", "acme", 2), [unit], 1)).toBe(false);
    expect(await store.create(watch("w3", "other", 3), [unit], 1)).toBe(true);
    expect(await store.stats()).toMatchObject({ watches: 2, units: 1 });

    // Two owners ask at once: the day goes to one of them.
    const [a, b] = await Promise.all([store.claim("a", 5_000, 10), store.claim("b", 5_000, 10)]);
    expect([a.length, b.length].sort()).toEqual([0, 1]);
    const [holder, other] = a.length === 1 ? ["a", "b"] : ["b", "a"];
    expect((a[0] ?? b[0])!.watchers).toEqual({ w1: "acme", w3: "other" });
    clock.advance(4_000);
    expect(await store.renew(unit.key, holder, 5_000)).toBe(true);
    clock.advance(4_000);
    expect(await store.claim(other, 5_000, 10)).toHaveLength(0);
    // The holder died: once its lease lapses the same slot goes to the other, and the holder can no longer record it.
    clock.advance(1_001);
    expect(await store.nextDue()).toBeLessThanOrEqual(clock.now());
    const taken = await store.claim(other, 5_000, 10);
    expect(taken.map((u) => u.claimed)).toEqual([1]);
    const result = { at: clock.now(), prices: {}, requests: 6, failed: 0 };
    expect(await store.complete(unit.key, holder, 1, result, 0, 60_000)).toBe(false);
    expect(await store.complete(unit.key, other, 1, result, 0, 60_000)).toBe(true);
    expect(await store.nextDue()).toBe(clock.now() + 60_000);
    expect(await store.stats()).toMatchObject({ requestsPerCheck: 6 });

    // A watch leaves the day; the last one takes the day with it.
    expect(await store.remove("other", "w1")).toBe(false);
    expect(await store.remove("acme", "w1")).toBe(true);
    expect(await store.stats()).toMatchObject({ watches: 1, units: 1 });
    expect(await store.remove("other", "w3")).toBe(true);
    expect(await store.stats()).toMatchObject({ watches: 0, units: 0 });
  });

  it("writes a watch only at the revision read, its alerts and delivery with it; a delivery is leased to one owner", async () => {
    const clock = manualClock(1_000_000);
    const { storage } = memoryStorage();
    const store = durableAlertStore({ storage, clock });
    await store.create(watch("w1", "acme", 1), [unit], 10);
    const seen: number[] = [];
    await store.onEvent("acme", (seq) => seen.push(seq));
    const read = (await store.get("w1"))!;
    // Two checks of the watch write at once from the same revision: one wins, the other must read again.
    const writes = await Promise.all([
      store.update({ ...read, fired: 1 }, read.rev, [{ event: event("msg_1"), webhook: "https://hooks.example/a" }]),
      store.update({ ...read, fired: 1 }, read.rev, [{ event: event("msg_2"), webhook: "https://hooks.example/a" }]),
    ]);
    expect(writes.sort()).toEqual([false, true]);
    expect((await store.get("w1"))!.rev).toBe(1);
    expect((await store.events("acme", 0)).map((e) => e.seq)).toEqual([1]);
    expect(seen).toEqual([1]);
    const [d1, d2] = await Promise.all([store.claimDeliveries("a", 5_000, 8), store.claimDeliveries("b", 5_000, 8)]);
    expect(d1.length + d2.length).toBe(1);
    const delivery = (d1[0] ?? d2[0])!;
    const owner = d1.length === 1 ? "a" : "b";
    expect(await store.finishDelivery({ ...delivery, state: "delivered" }, owner === "a" ? "b" : "a")).toBe(false);
    expect(await store.finishDelivery({ ...delivery, state: "delivered", nextAttemptAt: undefined }, owner)).toBe(true);
    expect((await store.deliveries("w1")).map((d) => d.state)).toEqual(["delivered"]);
    expect(await store.claimDeliveries("a", 5_000, 8)).toHaveLength(0);
  });
});
