import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stopOnSignals } from "../../src/server/stop-on-signals.js";

/** A process stand-in: signals are emitted by the test, exits recorded. */
const fakeProcess = () => {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return { target: { on: (s: "SIGINT" | "SIGTERM", l: () => void) => emitter.on(s, l), exit: (code: number) => void exits.push(code) }, emitter, exits };
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("stopping the demo on a signal", () => {
  it("Ctrl+C, then pnpm's forwarded copy of it: one shutdown, and exit 0 once it is done", async () => {
    const p = fakeProcess();
    const written: string[] = [];
    let finish = () => undefined as void;
    const stop = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    stopOnSignals(stop, { write: (t) => written.push(t), target: p.target });
    p.emitter.emit("SIGINT");
    p.emitter.emit("SIGINT");
    p.emitter.emit("SIGTERM");
    expect(stop).toHaveBeenCalledTimes(1);
    expect(p.exits).toEqual([]);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(p.exits).toEqual([0]);
    expect(written.join("")).toBe("\nParando…\n");
    // The grace timer was cleared: nothing exits again later.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(p.exits).toEqual([0]);
  });

  it("SIGTERM stops the same way", async () => {
    const p = fakeProcess();
    stopOnSignals(() => Promise.resolve(), { write: () => undefined, target: p.target });
    p.emitter.emit("SIGTERM");
    await vi.advanceTimersByTimeAsync(0);
    expect(p.exits).toEqual([0]);
  });

  it("a shutdown that fails exits 1 with its reason", async () => {
    const p = fakeProcess();
    const written: string[] = [];
    stopOnSignals(() => Promise.reject(new Error("porta presa")), { write: (t) => written.push(t), target: p.target });
    p.emitter.emit("SIGINT");
    await vi.advanceTimersByTimeAsync(0);
    expect(p.exits).toEqual([1]);
    expect(written.join("")).toContain("Erro ao parar: porta presa");
  });

  it("a shutdown that hangs exits 1 after the grace period", async () => {
    const p = fakeProcess();
    stopOnSignals(() => new Promise<void>(() => undefined), { write: () => undefined, target: p.target, graceMs: 5_000 });
    p.emitter.emit("SIGINT");
    await vi.advanceTimersByTimeAsync(4_999);
    expect(p.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.exits).toEqual([1]);
  });
});
