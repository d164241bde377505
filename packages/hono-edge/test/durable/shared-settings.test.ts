/**
 * What a Worker's isolates share through the shared objects besides the upstream's state: the rate limits (a
 * bucket object per budget and key, so two isolates count one budget) and the Pagante switch (one object per
 * deployment: a change made on one isolate is seen by every other within a second, and by an isolate started
 * later, whatever its own configuration says). Isolates here are two sets of stores over one namespace.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/clock.js";
import { SharedObjectCore } from "../../src/durable/shared-object.js";
import { durablePaganteSettings, durableRateLimiters } from "../../src/durable/shared-settings.js";
import type { DurableObjectNamespace } from "../../src/durable/workers-types.js";
import { memoryLogger } from "../support/app.js";
import { memoryObjectState } from "./memory-storage.js";

beforeEach(() => vi.useFakeTimers({ now: new Date("2026-03-01T12:00:00Z") }));
afterEach(() => vi.useRealTimers());

/** A namespace of shared objects in memory, each name its object; `broken` makes every call fail (the objects unreachable). */
const sharedObjects = () => {
  const objects = new Map<string, { core: SharedObjectCore; object: ReturnType<typeof memoryObjectState> }>();
  const state = { broken: false };
  const objectOf = (name: string) => {
    let o = objects.get(name);
    if (!o) {
      const object = memoryObjectState(`shared-${objects.size}`);
      o = { core: new SharedObjectCore(object.state, systemClock), object };
      objects.set(name, o);
    }
    return o;
  };
  const namespace: DurableObjectNamespace = {
    idFromName: (name) => ({ toString: () => name }),
    idFromString: (id) => ({ toString: () => id }),
    get: (id) => ({ fetch: (request) => (state.broken ? Promise.reject(new Error("network lost")) : objectOf(id.toString()).core.fetch(request)) }),
  };
  return { namespace, objects, state };
};

describe("the Pagante switch in a shared object", () => {
  it("a change on one isolate is seen by another within a second, and by an isolate started later whatever its configuration", async () => {
    const { namespace } = sharedObjects();
    const isolate = (initial: Record<string, boolean>) => durablePaganteSettings({ namespace, deployment: "deploy-a", clock: systemClock, initial });
    const one = isolate({ "3": false });
    const two = isolate({});
    // The first to read seeds the object from its configuration; the other follows it.
    expect(await one.hiddenCashAirlines()).toEqual([3]);
    expect(await two.hiddenCashAirlines()).toEqual([3]);

    expect(await one.set(1, false)).toBe(true);
    expect(await one.hiddenCashAirlines()).toEqual([1, 3]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await two.hiddenCashAirlines()).toEqual([1, 3]);
    expect((await two.list()).find((p) => p.airlineId === 1)).toEqual({ airlineId: 1, enabled: false });

    const later = isolate({ "1": true, "2": false });
    expect(await later.hiddenCashAirlines()).toEqual([1, 3]);
    expect(await later.set(1, true)).toBe(false);
    // Another deployment on the same namespace has a switch of its own.
    expect(await durablePaganteSettings({ namespace, deployment: "deploy-b", clock: systemClock, initial: {} }).hiddenCashAirlines()).toEqual([]);
  });

  it("while the object cannot answer, reads keep the switch last read and a change is a retryable 503", async () => {
    const { namespace, state } = sharedObjects();
    const logs = memoryLogger();
    const pagante = durablePaganteSettings({ namespace, deployment: "d", clock: systemClock, initial: {}, logger: logs.logger });
    await pagante.set(2, false);
    state.broken = true;
    await vi.advanceTimersByTimeAsync(1_500);
    expect(await pagante.hiddenCashAirlines()).toEqual([2]);
    await expect(pagante.set(2, true)).rejects.toMatchObject({ _tag: "StoreUnavailable" });
    expect(logs.records.filter((r) => r.msg === "pagante.unread")).toHaveLength(1);
  });
});

describe("rate limits in shared objects", () => {
  it("two isolates count one budget: a key's bucket is one object, refilled on the clock; other keys and deployments apart", async () => {
    const { namespace } = sharedObjects();
    const limiterOf = (deployment: string) => durableRateLimiters({ namespace, deployment, clock: systemClock })("tenant", { capacity: 3, refillPerSecond: 1 });
    const [one, two] = [limiterOf("d"), limiterOf("d")];
    expect(await one.take("apikey:acme")).toEqual({ ok: true });
    expect(await two.take("apikey:acme")).toEqual({ ok: true });
    expect(await one.take("apikey:acme")).toEqual({ ok: true });
    expect(await two.take("apikey:acme")).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(await one.peek("apikey:acme")).toMatchObject({ ok: false });
    expect(await two.take("apikey:other")).toEqual({ ok: true });
    expect(await limiterOf("elsewhere").take("apikey:acme")).toEqual({ ok: true });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await two.take("apikey:acme")).toEqual({ ok: true });
  });

  it("a full bucket's object forgets it at its alarm", async () => {
    const { namespace, objects } = sharedObjects();
    const limiter = durableRateLimiters({ namespace, deployment: "d", clock: systemClock })("login-client", { capacity: 2, refillPerSecond: 1 });
    await limiter.take("10.0.0.1");
    const { core, object } = [...objects.values()][0]!;
    expect(object.data.size).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000);
    await object.fire(() => core.alarm());
    expect(object.data.size).toBe(0);
  });

  it("while the objects cannot answer, each isolate counts in its own memory; the switch is logged once each way", async () => {
    const { namespace, state } = sharedObjects();
    const logs = memoryLogger();
    const limiter = durableRateLimiters({ namespace, deployment: "d", clock: systemClock, logger: logs.logger })("tenant", { capacity: 1, refillPerSecond: 0.01 });
    state.broken = true;
    expect(await limiter.take("k")).toEqual({ ok: true });
    expect(await limiter.take("k")).toMatchObject({ ok: false });
    state.broken = false;
    expect(await limiter.take("k")).toEqual({ ok: true }); // the shared bucket was never touched
    expect(logs.records.map((r) => r.msg)).toEqual(["rate_limit.fallback", "rate_limit.shared"]);
  });
});
