import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keepConnecting } from "../../src/redis/topology/keep-connecting.js";
import type { RedisClient } from "../../src/redis/topology/open-client.js";
import { exitWhenStoreGone } from "../../src/entries/exit-when-store-gone.js";
import { silentLogger, type LogRecord } from "../../src/logging/logger.js";

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

/** An ioredis client as ioredis ends it: `connect()` counted (and failing `fails` times: ended again), `quit`/`disconnect` ending it. */
const endingClient = (fails = 0) => {
  const events = new EventEmitter();
  let left = fails;
  const c = Object.assign(events, {
    status: "ready",
    connects: 0,
    end() {
      c.status = "end";
      events.emit("end");
    },
    connect() {
      c.connects += 1;
      if (left-- > 0) {
        c.end();
        return Promise.reject(new Error("Connection is closed."));
      }
      c.status = "ready";
      events.emit("ready");
      return Promise.resolve();
    },
    quit() {
      c.end();
      return Promise.resolve("OK");
    },
    disconnect(reconnect?: boolean) {
      if (reconnect) return;
      c.end();
    },
  });
  return c;
};

describe("a store client that gives up connecting (ioredis `end`, e.g. a Sentinel failover announced mid-attempt)", () => {
  it("connects again on its own, backing off while attempts end again, and tells of each attempt", async () => {
    const c = endingClient(2);
    const revived: number[] = [];
    keepConnecting(c as unknown as RedisClient, { onRevive: (times) => revived.push(times) });
    c.end(); // nobody asked for it
    await vi.advanceTimersByTimeAsync(249);
    expect(c.connects).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(c.connects).toBe(1); // ended again
    await vi.advanceTimersByTimeAsync(500);
    expect(c.connects).toBe(2); // ended again
    await vi.advanceTimersByTimeAsync(1_000);
    expect([c.connects, c.status, revived]).toEqual([3, "ready", [1, 2, 3]]);
    c.end(); // a later give-up starts from the first pause again
    await vi.advanceTimersByTimeAsync(250);
    expect([c.connects, c.status]).toEqual([4, "ready"]);
  });

  it("stays closed when its end was asked for (quit, disconnect), and a disconnect to reconnect is no end", async () => {
    for (const close of [(c: ReturnType<typeof endingClient>) => void c.quit(), (c: ReturnType<typeof endingClient>) => c.disconnect()]) {
      const c = endingClient();
      keepConnecting(c as unknown as RedisClient);
      close(c);
      await vi.advanceTimersByTimeAsync(10_000);
      expect([c.connects, c.status]).toEqual([0, "end"]);
    }
    const c = endingClient();
    keepConnecting(c as unknown as RedisClient);
    c.disconnect(true);
    c.end();
    await vi.advanceTimersByTimeAsync(250);
    expect(c.connects).toBe(1);
  });
});

describe("an instance that cannot reach its store for too long", () => {
  const store = () => {
    let up = true;
    const listeners = new Set<(available: boolean) => void>();
    return {
      available: () => up,
      onChange(l: (available: boolean) => void) {
        listeners.add(l);
        return () => void listeners.delete(l);
      },
      set(now: boolean) {
        up = now;
        for (const l of listeners) l(now);
      },
    };
  };

  it("exits with code 75 after the bound of unavailability in a row (logged), not when the store came back meanwhile, never with 0", async () => {
    const s = store();
    const stops: number[] = [];
    const lines: LogRecord[] = [];
    exitWhenStoreGone(s, { afterMs: 60_000, logger: { log: (r) => void lines.push(r) }, stop: (code) => stops.push(code) });
    s.set(false);
    await vi.advanceTimersByTimeAsync(59_000);
    s.set(true); // back before the bound: the count starts again at the next outage
    s.set(false);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(stops).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(stops).toEqual([75]);
    expect(lines.map((l) => [l.msg, l["unavailableMs"]])).toEqual([["store.unreachable_exit", 60_000]]);

    const never = store();
    exitWhenStoreGone(never, { afterMs: 0, logger: silentLogger, stop: (code) => stops.push(code) });
    never.set(false);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(stops).toEqual([75]);
  });
});
