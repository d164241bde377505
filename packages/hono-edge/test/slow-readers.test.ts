import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cutSlowReaders } from "../src/entries/slow-readers.js";

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

/** A socket as the watch sees it: its unread bytes, set by the test, and `destroy`. */
const socket = (address: string) => {
  const s = Object.assign(new EventEmitter(), {
    writableLength: 0,
    destroyed: false,
    remoteAddress: address,
    destroy() {
      s.destroyed = true;
      s.emit("close");
    },
  });
  return s;
};
const responseOn = (s: ReturnType<typeof socket>) => ({ socket: s }) as unknown as ServerResponse;

describe("SSE clients that do not read their stream", () => {
  it("one above the bound at two checks in a row, taking nothing, is cut; one that reads while above it is not", async () => {
    const cut: (string | undefined)[] = [];
    const w = cutSlowReaders({ maxBufferedBytes: 1_000, stalledMs: 30_000, onCut: (c) => cut.push(c) });
    const silent = socket("203.0.113.1");
    const reading = socket("203.0.113.2");
    w.watch(responseOn(silent));
    w.watch(responseOn(reading));
    silent.writableLength = reading.writableLength = 5_000;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cut).toEqual([]); // once above it: a big event on its way
    reading.writableLength = 3_000; // the client took some
    await vi.advanceTimersByTimeAsync(1_000);
    expect([cut, silent.destroyed, reading.destroyed]).toEqual([["203.0.113.1"], true, false]);
    expect(w.size).toBe(1);
  });

  it("one holding unread bytes under the bound, none taken for stalledMs (also after its last event), is cut; an empty buffer is never stalled", async () => {
    const w = cutSlowReaders({ maxBufferedBytes: 1_000_000, stalledMs: 30_000 });
    const silent = socket("a");
    const idle = socket("b");
    w.watch(responseOn(silent));
    w.watch(responseOn(idle));
    silent.writableLength = 800;
    await vi.advanceTimersByTimeAsync(29_000);
    expect(silent.destroyed).toBe(false);
    silent.writableLength = 900; // more written, nothing taken: still no progress
    await vi.advanceTimersByTimeAsync(2_000);
    expect([silent.destroyed, idle.destroyed]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(idle.destroyed).toBe(false);
    w.stop();
  });
});
