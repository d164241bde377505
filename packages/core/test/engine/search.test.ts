import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { search } from "../../src/engine/search.js";
import type { SearchSnapshot } from "../../src/engine/snapshot.js";
import { BusinessError, HttpStatusError, MalformedPayload, PermissionDenied, RateLimited, RequestBudgetExhausted, SourceUnavailable, TransportError } from "../../src/errors/source-errors.js";
import { failedSearchAnswer } from "../../src/errors/error-catalogue.js";
import type { SourceFailure } from "../../src/engine/run-source.js";
import type { SearchSource } from "../../src/engine/source.js";
import { makeOffer, queryA } from "../support/offers.js";
import { scriptedSource } from "../support/fake-sources.js";

const collect = (sources: Parameters<typeof search>[1], options: Parameters<typeof search>[2] = {}) => {
  const snapshots: SearchSnapshot[] = [];
  let completed = false;
  const sub = search(queryA, sources, options).subscribe({
    next: (s) => snapshots.push(s),
    complete: () => (completed = true),
  });
  return { snapshots, sub, last: () => snapshots.at(-1)!, isComplete: () => completed };
};

const state = (s: SearchSnapshot, id: string) => s.sources.find((p) => p.id === id)!;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("search", () => {
  it("emits progressive snapshots as sources with different latencies answer", async () => {
    const fast = scriptedSource("fast", [[{ afterMs: 100, offers: [makeOffer({ id: "a", total: 40_000 })] }]]);
    const slow = scriptedSource("slow", [[
      { afterMs: 1_000, offers: [makeOffer({ id: "b", carrier: "G3", airlineId: 2, total: 30_000 })] },
      { afterMs: 1_000, offers: [makeOffer({ id: "c", carrier: "G3", airlineId: 2, flightNumber: 1, total: 35_000 })] },
    ]]);
    const run = collect([fast, slow]);
    expect(run.snapshots).toHaveLength(1);
    expect(run.last().sources.map((p) => p.state)).toEqual(["pending", "pending"]);

    await vi.advanceTimersByTimeAsync(100);
    expect(run.last().offers.size).toBe(1);
    expect(state(run.last(), "fast").state).toBe("done");
    expect(run.last().completed).toBe(false);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(run.last().offers.size).toBe(2);
    expect(state(run.last(), "slow")).toMatchObject({ state: "pending", items: 1 });

    await vi.advanceTimersByTimeAsync(1_000);
    expect(run.last()).toMatchObject({ completed: true, completion: "finished" });
    expect(state(run.last(), "slow")).toMatchObject({ state: "done", items: 2 });
    expect(run.isComplete()).toBe(true);
    const versions = run.snapshots.map((s) => s.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it.each([
    ["answers 5xx", new HttpStatusError({ status: 503 }), "HttpStatusError", 3],
    ["answers malformed data", new MalformedPayload({ detail: "Data is not an array" }), "MalformedPayload", 1],
    ["answers a business error", new BusinessError({ detail: "Origem não atendida" }), "BusinessError", 1],
    ["is refused for lack of permission", new PermissionDenied({ detail: "Erro ao validar permissões" }), "PermissionDenied", 1],
    ["throws something untagged", new Error("boom\n    at secret.ts:1"), "TransportError", 3],
  ])("a source that %s leaves a successful, completed search with that source failed", async (_, error, tag, calls) => {
    const good = scriptedSource("good", [[{ afterMs: 50, offers: [makeOffer({ id: "a" })] }]]);
    const bad = scriptedSource("bad", [[{ afterMs: 10, fail: error }]]);
    const run = collect([good, bad]);
    await vi.advanceTimersByTimeAsync(60_000);
    const s = run.last();
    expect(s.completed).toBe(true);
    expect(s.offers.size).toBe(1);
    expect(state(s, "bad")).toMatchObject({ state: "failed", attempts: calls, error: { tag } });
    expect(state(s, "bad").error?.message).not.toMatch(/at secret/);
    expect(bad.log.calls).toBe(calls);
  });

  it("never retries a permission error, and tells the failure with its catalogue sentence, not the upstream's text", async () => {
    const denied = scriptedSource("denied", [[{ afterMs: 10, fail: new PermissionDenied({ detail: "Usuário não possui permissão token=SECRET-1" }) }]]);
    const heard: SourceFailure[] = [];
    const run = collect([denied], { maxAttempts: 5, onSourceError: (f) => heard.push(f) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(denied.log.calls).toBe(1);
    const p = state(run.last(), "denied");
    expect(p).toMatchObject({ state: "failed", attempts: 1, error: { tag: "PermissionDenied", retryable: false } });
    expect(p.error?.message).toBe("A agência não tem permissão para consultar este fornecedor.");
    expect(JSON.stringify(run.snapshots)).not.toContain("SECRET-1");
    // The detail is only for the caller's log.
    expect(heard).toEqual([{ sourceId: "denied", attempt: 1, error: expect.any(PermissionDenied), final: true }]);
    expect(heard[0]!.error.message).toContain("token=SECRET-1");
  });

  it.each([
    ["a source whose breaker is open", new SourceUnavailable({ retryAfterMs: 30_000 })],
    ["a source whose search spent its request budget", new RequestBudgetExhausted({ limit: 10 })],
  ])("never asks again within the search %s, yet tells the client a later retry may succeed", async (_, error) => {
    const declined = scriptedSource("declined", [[{ afterMs: 0, fail: error }]]);
    const heard: SourceFailure[] = [];
    const run = collect([declined], { maxAttempts: 3, onSourceError: (f) => heard.push(f) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(declined.log.calls).toBe(1);
    expect(heard.map((f) => [f.attempt, f.final])).toEqual([[1, true]]);
    const p = state(run.last(), "declined");
    expect(p).toMatchObject({ state: "failed", attempts: 1, error: { tag: error._tag, retryable: true } });
    // The breaker's wait is kept in the progress (the service's Retry-After reads it); a budget names none.
    expect(p.error?.retryAfterMs).toBe(error._tag === "SourceUnavailable" ? 30_000 : undefined);
    expect(p.error?.message).toMatch(/tente de novo em instantes/i);
    expect(failedSearchAnswer(run.last().sources)).toMatchObject({ codigo: "FALHA_FORNECEDOR", retentavel: true });
  });

  it("reports every failed attempt to onSourceError, final only when no retry follows", async () => {
    const flaky = scriptedSource("flaky", [[{ afterMs: 10, fail: new TransportError({ detail: "UND_ERR_SOCKET other side closed" }) }]]);
    const heard: SourceFailure[] = [];
    const run = collect([flaky], { maxAttempts: 3, onSourceError: (f) => heard.push(f) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(heard.map((f) => [f.attempt, f.final])).toEqual([[1, false], [2, false], [3, true]]);
    expect(JSON.stringify(run.snapshots)).not.toContain("UND_ERR_SOCKET");
  });

  it("leaves no timer behind when the subscriber leaves while a source that ignores its signal is silent", async () => {
    // A source that never answers and never looks at its AbortSignal: only the engine can clear its timers.
    const deaf: SearchSource = { id: "deaf", name: "DEAF", kind: "airline", search: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }) }) };
    const run = collect([deaf], { timeoutMs: 20_000, deadlineMs: 120_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    run.sub.unsubscribe();
    await vi.advanceTimersByTimeAsync(0);
    // Nothing is left to fire (a Node process could exit): the batch timeout and the deadline were cleared.
    expect(vi.getTimerCount()).toBe(0);
  });

  it("times out a silent source, retries it a bounded number of times, then marks it failed", async () => {
    const silent = scriptedSource("silent", [[{ afterMs: 10 * 60_000, offers: [] }]]);
    const run = collect([silent], { timeoutMs: 1_000, maxAttempts: 3, deadlineMs: 120_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run.last().completed).toBe(true);
    expect(state(run.last(), "silent")).toMatchObject({ state: "failed", attempts: 3, error: { tag: "SourceTimeout", retryable: true } });
    expect(silent.log.calls).toBe(3);
    expect(silent.log.aborted).toBe(3);
  });

  it("recovers when a retry succeeds, keeping what the failed attempt already sent", async () => {
    const flaky = scriptedSource("flaky", [
      [{ afterMs: 10, offers: [makeOffer({ id: "a" })] }, { afterMs: 10, fail: new HttpStatusError({ status: 502 }) }],
      [{ afterMs: 10, offers: [makeOffer({ id: "a" }), makeOffer({ id: "b", flightNumber: 2 })] }],
    ]);
    const run = collect([flaky]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run.last()).toMatchObject({ completed: true });
    expect(state(run.last(), "flaky")).toMatchObject({ state: "done", attempts: 2, items: 2 });
    expect(run.last().offers.size).toBe(2);
  });

  it("waits at least the Retry-After of a rate-limited source", async () => {
    const limited = scriptedSource("limited", [
      [{ afterMs: 0, fail: new RateLimited({ retryAfterMs: 7_000 }) }],
      [{ afterMs: 0, offers: [makeOffer({ id: "a" })] }],
    ]);
    const run = collect([limited]);
    await vi.advanceTimersByTimeAsync(6_900);
    expect(limited.log.calls).toBe(1);
    expect(state(run.last(), "limited").attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(limited.log.calls).toBe(2);
    expect(run.last().completed).toBe(true);
  });

  it("aborts every source in flight when the subscriber unsubscribes", async () => {
    const a = scriptedSource("a", [[{ afterMs: 5_000, offers: [makeOffer({ id: "a" })] }]]);
    const b = scriptedSource("b", [[{ afterMs: 10, offers: [makeOffer({ id: "b" })] }, { afterMs: 5_000, offers: [] }]]);
    const run = collect([a, b]);
    await vi.advanceTimersByTimeAsync(100);
    expect(a.log.aborted + b.log.aborted).toBe(0);
    run.sub.unsubscribe();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.log.aborted).toBe(1);
    expect(b.log.aborted).toBe(1);
    const count = run.snapshots.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run.snapshots).toHaveLength(count);
  });

  it("completes at the deadline with partial results, marking late sources failed", async () => {
    const quick = scriptedSource("quick", [[{ afterMs: 100, offers: [makeOffer({ id: "a" })] }]]);
    const late = scriptedSource("late", [[{ afterMs: 30_000, offers: [makeOffer({ id: "b" })] }]]);
    const run = collect([quick, late], { deadlineMs: 5_000, timeoutMs: 60_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    const s = run.last();
    expect(s).toMatchObject({ completed: true, completion: "deadline" });
    expect(s.offers.size).toBe(1);
    expect(state(s, "late")).toMatchObject({ state: "failed", error: { tag: "DeadlineExceeded" } });
    expect(late.log.aborted).toBe(1);
    expect(run.isComplete()).toBe(true);
  });

  it("at the deadline, waits for an answer a source is still being sent (an upstream answering slowly), within the hold", async () => {
    // The source's request left at 40 s and its answer takes 30 s: due at 70 s, 10 s past the 60 s deadline.
    const slow = scriptedSource("slow", [[{ afterMs: 70_000, offers: [makeOffer({ id: "b" })] }]]);
    const answering: SearchSource = { ...slow, answerDueMs: () => Math.max(0, 70_000 - Date.now() + started) };
    const started = Date.now();
    const held = collect([answering], { deadlineMs: 60_000, deadlineHoldMs: 30_000, timeoutMs: 120_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(held.last().completed).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(held.last()).toMatchObject({ completed: true, completion: "finished" });
    expect(held.last().offers.size).toBe(1);
  });

  it("holds the deadline no longer than the hold, and not at all without one", async () => {
    const never: SearchSource = { ...scriptedSource("never", [[{ afterMs: 600_000, offers: [makeOffer({ id: "b" })] }]]), answerDueMs: () => 5_000 };
    const held = collect([never], { deadlineMs: 60_000, deadlineHoldMs: 12_000, timeoutMs: 900_000 });
    await vi.advanceTimersByTimeAsync(71_999);
    expect(held.last().completed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.last()).toMatchObject({ completed: true, completion: "deadline" });
    const plain = collect([{ ...never }], { deadlineMs: 60_000, timeoutMs: 900_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(plain.last()).toMatchObject({ completed: true, completion: "deadline" });
  });

  it("runs only the sources of the query's mode and completes at once when none serves it", async () => {
    const airline = scriptedSource("airline", [[{ afterMs: 10, offers: [makeOffer({ id: "a" })] }]]);
    const run = collect([airline].map((s) => ({ ...s, kind: "ota" as const })));
    expect(run.last()).toMatchObject({ completed: true, sources: [] });
    expect(airline.log.calls).toBe(0);
  });

  it("leaves out cash offers of an airline whose Pagante switch is off", async () => {
    const src = scriptedSource("latam", [[{ afterMs: 10, offers: [makeOffer({ id: "cash" }), makeOffer({ id: "miles", points: 12_000 })] }]]);
    const run = collect([src], { hiddenCashAirlines: [1] });
    await vi.advanceTimersByTimeAsync(100);
    expect([...run.last().offers.keys()]).toEqual(["miles"]);
  });
});

describe("search: an offer seen again", () => {
  it("keeps the later sighting when it is valid longer, and nothing new when it says the same", async () => {
    const first = { ...makeOffer({ id: "a", total: 40_000 }), seenAt: 1_000, validUntil: 301_000 };
    const again = { ...first, seenAt: 61_000, validUntil: 361_000 };
    const source = scriptedSource("fast", [[
      { afterMs: 100, offers: [first] },
      { afterMs: 100, offers: [first] },
      { afterMs: 100, offers: [again] },
    ]]);
    const run = collect([source]);
    await vi.advanceTimersByTimeAsync(500);
    expect(run.isComplete()).toBe(true);
    expect(run.last().offers.get("a")).toMatchObject({ seenAt: 61_000, validUntil: 361_000 });
    // The repeat of the same sighting made no new version with offers; the later one did.
    const versionsWithA = new Set(run.snapshots.map((s) => s.offers.get("a")).filter((o) => o !== undefined));
    expect(versionsWithA.size).toBe(2);
  });
});
