import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStoreUnavailable } from "../../src/errors/service-errors.js";
import { createStoreGuard, type StoreGuardOptions } from "../../src/redis/store-guard.js";
import { fakeClient } from "./support/fake-client.js";

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

const OPTIONS: StoreGuardOptions = { commandTimeoutMs: 500, startupWaitMs: 500, failureThreshold: 1, cooldownMs: 1_000, retryAfterSeconds: 1 };
const never = () => new Promise<never>(() => undefined);
const after = <T>(ms: number, value: T) => () => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/** When (virtual ms) a call settled, and how. */
const timed = <T>(p: Promise<T>) => {
  const out: { at?: number; value?: T; error?: unknown } = {};
  p.then(
    (value) => Object.assign(out, { at: Date.now(), value }),
    (error: unknown) => Object.assign(out, { at: Date.now(), error }),
  );
  return out;
};

describe("a Redis that keeps its connections open but stops answering (SIGSTOP)", () => {
  it("a call unanswered for half the timeout sends one probe; the probe unanswered by the timeout declares Redis down: every call waiting fails with it, the next ones at once; Redis answering again closes it", async () => {
    const fake = fakeClient();
    const guard = createStoreGuard(fake.client, OPTIONS);
    const changes: boolean[] = [];
    guard.onChange((up) => changes.push(up));

    const first = timed(guard.run(never));
    await vi.advanceTimersByTimeAsync(100);
    const second = timed(guard.run(never)); // started later: answered with the first, not 500 ms after its own start
    await vi.advanceTimersByTimeAsync(200);
    expect(fake.pendingPings()).toBe(1); // one probe for every call waiting
    await vi.advanceTimersByTimeAsync(300);
    // Judged after the loop's next I/O phases following the probe's time (virtual time counts each turn as 1 ms).
    expect([first.at, second.at]).toEqual([502, 502]);
    expect(isStoreUnavailable(first.error) && isStoreUnavailable(second.error)).toBe(true);
    expect(changes).toEqual([false]);
    expect(guard.available()).toBe(false);

    const third = timed(guard.run(after(1, "never sent")));
    await vi.advanceTimersByTimeAsync(0);
    expect(third.at).toBe(600); // refused at once, no command sent
    expect(isStoreUnavailable(third.error)).toBe(true);
    expect(fake.pendingPings()).toBe(2); // the probe that failed, and the one background probe, whatever the requests

    await vi.advanceTimersByTimeAsync(4_000); // still frozen: the probe waits, nothing flaps
    expect([guard.available(), changes, fake.pendingPings()]).toEqual([false, [false], 2]);
    fake.answerPings(); // SIGCONT
    await vi.advanceTimersByTimeAsync(0);
    expect([guard.available(), changes]).toEqual([true, [false, true]]);
    const ok = timed(guard.run(after(5, "ok")));
    await vi.advanceTimersByTimeAsync(5);
    expect(ok.value).toBe("ok");
  });

  it("a reply this busy process reads late is no outage while Redis answers its probes: the call gets its answer, the breaker stays closed", async () => {
    const fake = fakeClient();
    fake.answerEveryPing(true);
    const guard = createStoreGuard(fake.client, OPTIONS);
    const changes: boolean[] = [];
    guard.onChange((up) => changes.push(up));
    const call = timed(guard.run(after(3_000, "late but there")));
    await vi.advanceTimersByTimeAsync(3_000);
    expect([call.at, call.value]).toEqual([3_000, "late but there"]);
    expect([guard.available(), changes]).toEqual([true, []]);
  });

  it("past maxWaitMs a call alone fails while Redis answers its probes: Redis is not declared down", async () => {
    const fake = fakeClient();
    fake.answerEveryPing(true);
    const guard = createStoreGuard(fake.client, { ...OPTIONS, maxWaitMs: 2_000 });
    const call = timed(guard.run(never));
    await vi.advanceTimersByTimeAsync(2_600);
    expect(call.at).toBeGreaterThanOrEqual(2_000);
    expect(call.at).toBeLessThan(2_600);
    expect(isStoreUnavailable(call.error)).toBe(true);
    expect(guard.available()).toBe(true);
  });

  it("the probes go to a connection of their own while it is connected: a PING there is not queued behind the command connection's replies", async () => {
    const commands = fakeClient();
    const probes = fakeClient();
    probes.answerEveryPing(true);
    const guard = createStoreGuard(commands.client, { ...OPTIONS, probe: probes.client });
    const call = timed(guard.run(after(1_500, "read late")));
    await vi.advanceTimersByTimeAsync(1_500);
    expect([call.value, commands.pendingPings(), guard.available()]).toEqual(["read late", 0, true]);
    // Not connected, the probe connection is not asked: the command connection is.
    probes.client.status = "reconnecting";
    const next = timed(guard.run(never));
    await vi.advanceTimersByTimeAsync(600);
    expect([commands.pendingPings(), isStoreUnavailable(next.error), guard.available()]).toEqual([2, true, false]);
  });

  it("needs `failureThreshold` unanswered probes in a row; an answer in between starts the count again", async () => {
    const fake = fakeClient();
    const guard = createStoreGuard(fake.client, { ...OPTIONS, failureThreshold: 2 });
    await Promise.allSettled([guard.run(never), vi.advanceTimersByTimeAsync(600)]);
    await Promise.all([guard.run(after(10, 1)), vi.advanceTimersByTimeAsync(10)]);
    await Promise.allSettled([guard.run(never), vi.advanceTimersByTimeAsync(600)]);
    expect(guard.available()).toBe(true);
    await Promise.allSettled([guard.run(never), vi.advanceTimersByTimeAsync(600)]);
    expect(guard.available()).toBe(false);
  });
});

describe("a Redis that refuses connections", () => {
  it("refuses at once while disconnected, and answers again once the client is ready", async () => {
    const fake = fakeClient();
    const guard = createStoreGuard(fake.client, OPTIONS);
    const changes: boolean[] = [];
    guard.onChange((up) => changes.push(up));
    const inFlight = timed(guard.run(never));
    fake.emit("close");
    await vi.advanceTimersByTimeAsync(0);
    expect(inFlight.at).toBe(0);
    const refused = timed(guard.run(after(1, "x")));
    await vi.advanceTimersByTimeAsync(0);
    expect(refused.at).toBe(0);
    expect(isStoreUnavailable(refused.error)).toBe(true);
    fake.emit("ready");
    expect(changes).toEqual([false, true]);
    const back = timed(guard.run(after(1, "back")));
    await vi.advanceTimersByTimeAsync(1);
    expect(back.value).toBe("back");
  });

  it("at startup, waits for the first connection attempt only: once it failed, calls are refused at once", async () => {
    const fake = fakeClient("connecting");
    const guard = createStoreGuard(fake.client, OPTIONS);
    const first = timed(guard.run(after(1, "x")));
    await vi.advanceTimersByTimeAsync(100);
    expect(first.at).toBeUndefined(); // the first attempt is still going
    fake.emit("error"); // ECONNREFUSED
    await vi.advanceTimersByTimeAsync(0);
    expect(first.at).toBe(100);
    expect(isStoreUnavailable(first.error)).toBe(true);
    const next = timed(guard.run(after(1, "x")));
    await vi.advanceTimersByTimeAsync(0);
    expect(next.at).toBe(100);
  });
});

it("a Redis error reply of the caller's own making is the caller's bug: rethrown as is, not counted against Redis", async () => {
  const guard = createStoreGuard(fakeClient().client, OPTIONS);
  const bug = Object.assign(new Error("ERR wrong number of arguments"), { name: "ReplyError" });
  await expect(guard.run(() => Promise.reject(bug))).rejects.toBe(bug);
  await expect(
    guard.run(() => {
      throw bug;
    }),
  ).rejects.toBe(bug);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(guard.available()).toBe(true);
  const loading = Object.assign(new Error("LOADING Redis is loading the dataset in memory"), { name: "ReplyError" });
  await expect(guard.run(() => Promise.reject(loading))).rejects.toSatisfy(isStoreUnavailable);
  expect(guard.available()).toBe(false);
});
