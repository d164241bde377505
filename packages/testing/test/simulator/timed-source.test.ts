import { HttpStatusError, type Offer, type SearchSource } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSimulator, defaultBatches, defaultLatencyMs } from "../../src/index.js";
import { query } from "./queries.js";

const q = query("CNF", "SDU", "2025-07-22", { returnDate: "2025-07-27" });

/** Pulls a source in the background, recording when (virtual ms) each batch arrived and how it ended. */
const pull = (source: SearchSource, signal: AbortSignal) => {
  const started = Date.now();
  const batches: { at: number; offers: readonly Offer[] }[] = [];
  const state: { done: boolean; error?: unknown } = { done: false };
  const finished = (async () => {
    try {
      for await (const offers of source.search(q, signal)) batches.push({ at: Date.now() - started, offers });
    } catch (error) {
      state.error = error;
    } finally {
      state.done = true;
    }
  })();
  return { batches, state, finished };
};

const sourceOf = (simulator: ReturnType<typeof createSimulator>, id: string) => simulator.sources.find((s) => s.id === id)!;

describe("simulated sources over time", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("yields its offers in batches spread over its latency", async () => {
    const simulator = createSimulator({ latencyMs: { latam: 1000 }, batches: { latam: 4 } });
    const run = pull(sourceOf(simulator, "latam"), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(249);
    expect(run.batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(run.batches.map((b) => b.at)).toEqual([250, 500, 750]);
    expect(run.state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(250);
    await run.finished;
    expect(run.batches.map((b) => b.at)).toEqual([250, 500, 750, 1000]);
    expect(run.state.error).toBeUndefined();
    const received = run.batches.flatMap((b) => b.offers).sort((a, b) => a.id.localeCompare(b.id));
    const expected = simulator.offers({ ...q, mode: { kind: "single-airline", airlineId: 1 } });
    expect(received).toEqual([...expected].sort((a, b) => a.id.localeCompare(b.id)));
  });

  it("uses default latencies between 300 ms and 2.5 s, and 2 to 4 batches", () => {
    for (const s of createSimulator().sources) {
      expect(defaultLatencyMs(s.id)).toBeGreaterThanOrEqual(300);
      expect(defaultLatencyMs(s.id)).toBeLessThanOrEqual(2500);
      expect([2, 3, 4]).toContain(defaultBatches(s.id));
    }
    const latencies = new Set(createSimulator().sources.map((s) => defaultLatencyMs(s.id)));
    expect(latencies.size).toBeGreaterThan(4);
  });

  it("stops at once when the signal aborts, with the signal's reason and no timer left", async () => {
    const simulator = createSimulator({ latencyMs: 2000, batches: 2 });
    const controller = new AbortController();
    const run = pull(sourceOf(simulator, "ota:voaja"), controller.signal);
    await vi.advanceTimersByTimeAsync(300);
    expect(vi.getTimerCount()).toBe(1);
    const reason = new Error("user left");
    controller.abort(reason);
    await run.finished;
    expect(run.state.error).toBe(reason);
    expect(run.batches).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops between batches when aborted after one", async () => {
    const simulator = createSimulator({ latencyMs: 1000, batches: 2 });
    const controller = new AbortController();
    const run = pull(sourceOf(simulator, "gol"), controller.signal);
    await vi.advanceTimersByTimeAsync(600);
    expect(run.batches).toHaveLength(1);
    controller.abort();
    await run.finished;
    expect((run.state.error as Error).name).toBe("AbortError");
    expect(run.batches).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("refuses to start on an aborted signal", async () => {
    const run = pull(sourceOf(createSimulator(), "azul"), AbortSignal.abort());
    await run.finished;
    expect((run.state.error as Error).name).toBe("AbortError");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("fails with the configured tagged error after the configured batches, then recovers on retry", async () => {
    const error = new HttpStatusError({ status: 503 });
    const simulator = createSimulator({ latencyMs: 900, batches: 3, failures: { latam: { error, afterBatches: 1, times: 1 } } });
    const first = pull(sourceOf(simulator, "latam"), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(900);
    await first.finished;
    expect(first.batches.map((b) => b.at)).toEqual([300]);
    expect(first.state.error).toBe(error);
    const retry = pull(sourceOf(simulator, "latam"), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(900);
    await retry.finished;
    expect(retry.state.error).toBeUndefined();
    expect(retry.batches).toHaveLength(3);
  });

  it("answers an empty route after its latency without any batch", async () => {
    const simulator = createSimulator({ latencyMs: 500 });
    const run = pull(sourceOf(simulator, "tap"), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(499);
    expect(run.state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await run.finished;
    expect(run.batches).toHaveLength(0);
    expect(run.state.error).toBeUndefined();
  });
});
