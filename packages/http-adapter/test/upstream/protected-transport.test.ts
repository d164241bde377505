/**
 * Which requests a source's breaker counts as failures, request by request: network errors, timeouts, 5xx,
 * 408 and 429 do; any other answer (a 4xx refusal, a 200) is the upstream answering; a request the search
 * gave up is neither. A declined request never reaches the transport. Half-open, the requests beside the
 * probe wait for its outcome instead of failing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RequestBudgetExhausted, SourceTimeout, SourceUnavailable, TransportError, type SearchQuery } from "@voar/core";
import type { HttpReply, HttpRequest, HttpTransport } from "../../src/transport/http-transport.js";
import { memoryBreakerStore } from "../../src/upstream/breaker-state.js";
import { PROBE_RECHECK_MS, protectedTransport, searchBudgets, upstreamProtection } from "../../src/upstream/source-breaker.js";
import { testQuery, TEST_NOW } from "../support/live-upstream.js";

type Step = number | Error;

/** A transport answering each request with the next step: a status, or an error thrown. */
const scripted = (steps: Step[]) => {
  let sent = 0;
  const transport: HttpTransport = {
    send: (request: HttpRequest): Promise<HttpReply> => {
      sent++;
      const step = steps.shift() ?? 200;
      if (step instanceof Error) return Promise.reject(step);
      void request;
      return Promise.resolve({ status: step, header: () => undefined, text: "{}" });
    },
    close: () => Promise.resolve(),
  };
  return { transport, sent: () => sent };
};

const request = (signal: AbortSignal = new AbortController().signal): HttpRequest => ({ url: "http://u.test/api/ConsultaAereo/Consultar", method: "POST", headers: {}, body: "{}", signal });

/** Sends `n` requests, each failing or not; what each ended with. */
const sendAll = async (t: HttpTransport, n: number) => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    try {
      out.push(String((await t.send(request())).status));
    } catch (e) {
      out.push((e as { _tag?: string })._tag ?? String(e));
    }
  }
  return out;
};

describe("a source's transport behind its breaker", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it.each<[string, Step]>([
    ["HTTP 500", 500],
    ["HTTP 503", 503],
    ["HTTP 408", 408],
    ["HTTP 429", 429],
    ["a network error", new TransportError({ detail: "ECONNRESET" })],
    ["a request that ran out of time", new SourceTimeout({ afterMs: 30_000 })],
  ])("%s counts: three in a row open the breaker, and the fourth request is not sent", async (_, step) => {
    const up = scripted([step, step, step, step]);
    const t = protectedTransport(upstreamProtection({}, false, 30_000), up.transport, "upstream:latam", testQuery(), undefined);
    const out = await sendAll(t, 4);
    expect(out[3]).toBe("SourceUnavailable");
    expect(up.sent()).toBe(3);
  });

  it.each<[string, number]>([
    ["HTTP 400", 400],
    ["HTTP 403", 403],
    ["HTTP 404", 404],
    ["HTTP 200", 200],
  ])("%s is the upstream answering: it never opens the breaker, and ends a run of failures", async (_, status) => {
    const up = scripted([500, 500, status, 500, 500, status, status, status]);
    const t = protectedTransport(upstreamProtection({}, false, 30_000), up.transport, "upstream:latam", testQuery(), undefined);
    await sendAll(t, 8);
    expect(up.sent()).toBe(8);
  });

  it("a request the search gave up (aborted) counts for nothing", async () => {
    const store = memoryBreakerStore();
    const aborted = new AbortController();
    aborted.abort(new DOMException("search ended", "AbortError"));
    const up = scripted([500, 500, new DOMException("search ended", "AbortError"), 500]);
    const t = protectedTransport(upstreamProtection({ store }, false, 30_000), up.transport, "upstream:latam", testQuery(), undefined);
    await sendAll(t, 2);
    await expect(t.send(request(aborted.signal))).rejects.toThrow("search ended");
    expect(store.records.get("upstream:latam")).toMatchObject({ state: "closed", failures: 2 });
    await sendAll(t, 1);
    expect(store.records.get("upstream:latam")).toMatchObject({ state: "open" });
  });

  it("a declined request says how long is left of the cool-down, and the state change is told once", async () => {
    const told: string[] = [];
    const up = scripted([500, 500, 500]);
    const p = upstreamProtection({ cooldownMs: 20_000, onBreakerStateChange: (id, s) => told.push(`${id} ${s}`) }, false, 30_000);
    const t = protectedTransport(p, up.transport, "upstream:gol", testQuery(), undefined);
    await sendAll(t, 3);
    await vi.advanceTimersByTimeAsync(5_000);
    const declined = await t.send(request()).catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(SourceUnavailable);
    expect((declined as SourceUnavailable).retryAfterMs).toBe(15_000);
    await sendAll(t, 2);
    expect(told).toEqual(["upstream:gol open"]);
  });

  /** A transport whose answers come `delayMs` after each request, with the statuses given in turn (then 200). */
  const slow = (delayMs: number, statuses: number[]) => {
    let sent = 0;
    const transport: HttpTransport = {
      send: async () => {
        sent++;
        const status = statuses.shift() ?? 200;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return { status, header: () => undefined, text: "{}" };
      },
      close: () => Promise.resolve(),
    };
    return { transport, sent: () => sent };
  };

  /** Opens the breaker of `sourceId` (three failures) and lets its cool-down pass. */
  const openThenCool = async (p: ReturnType<typeof upstreamProtection>, sourceId: string) => {
    const failing = protectedTransport(p, scripted([500, 500, 500]).transport, sourceId, testQuery(), undefined);
    await sendAll(failing, 3);
    await vi.advanceTimersByTimeAsync(30_000);
  };

  const outcome = (t: HttpTransport, signal?: AbortSignal) =>
    t.send(request(signal)).then(
      (r) => String(r.status),
      (e: unknown) => (e as { _tag?: string })._tag ?? String(e),
    );

  it("half-open: the requests beside the probe wait for it and go once it closes the breaker (none fails for it)", async () => {
    const p = upstreamProtection({}, false, 30_000);
    await openThenCool(p, "upstream:gol");
    const up = slow(40, [200]);
    const t = protectedTransport(p, up.transport, "upstream:gol", testQuery(), undefined);
    const all = Promise.all([outcome(t), outcome(t), outcome(t)]);
    // The probe is out; its neighbours are not sent yet.
    await vi.advanceTimersByTimeAsync(20);
    expect(up.sent()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(await all).toEqual(["200", "200", "200"]);
    expect(up.sent()).toBe(3);
  });

  it("half-open, breakers shared by two instances: a neighbour on the other instance waits for the probe too, asking the store again", async () => {
    const store = memoryBreakerStore();
    const [a, b] = [upstreamProtection({ store }, false, 30_000), upstreamProtection({ store }, false, 30_000)];
    await openThenCool(a, "upstream:latam");
    const upA = slow(40, [200]);
    const upB = slow(40, []);
    const probe = outcome(protectedTransport(a, upA.transport, "upstream:latam", testQuery(), undefined));
    const neighbour = outcome(protectedTransport(b, upB.transport, "upstream:latam", testQuery(), undefined));
    await vi.advanceTimersByTimeAsync(30);
    expect(upB.sent()).toBe(0);
    // The probe's outcome reaches the other instance at its next look at the store (every PROBE_RECHECK_MS).
    await vi.advanceTimersByTimeAsync(PROBE_RECHECK_MS + 60);
    expect(await Promise.all([probe, neighbour])).toEqual(["200", "200"]);
  });

  it("half-open: a probe that fails opens it again, and its neighbours fail with the new cool-down, unsent", async () => {
    const p = upstreamProtection({}, false, 30_000);
    await openThenCool(p, "upstream:gol");
    const up = slow(40, [503]);
    const t = protectedTransport(p, up.transport, "upstream:gol", testQuery(), undefined);
    const probe = outcome(t);
    const all = Promise.all([probe, t.send(request()).catch((e: unknown) => e)]);
    await vi.advanceTimersByTimeAsync(200);
    const [probed, declined] = await all;
    expect(probed).toBe("503");
    expect(declined).toBeInstanceOf(SourceUnavailable);
    expect((declined as SourceUnavailable).retryAfterMs).toBeGreaterThan(29_000);
    expect(up.sent()).toBe(1);
  });

  it("half-open: a neighbour waits at most the probe's own time limit, and a search that gives up stops waiting", async () => {
    const p = upstreamProtection({}, false, 5_000);
    await openThenCool(p, "upstream:gol");
    // The probe hangs past its limit (its instance died with it, say).
    const up = slow(60_000, []);
    const t = protectedTransport(p, up.transport, "upstream:gol", testQuery(), undefined);
    void outcome(t);
    await vi.advanceTimersByTimeAsync(1);
    const gaveUp = new AbortController();
    const leaving = outcome(t, gaveUp.signal);
    const waiting = outcome(t);
    await vi.advanceTimersByTimeAsync(1_000);
    gaveUp.abort(new DOMException("search ended", "AbortError"));
    expect(await leaving).toMatch(/^AbortError/);
    // Past the probe's limit the next request is the probe: sent.
    await vi.advanceTimersByTimeAsync(4_100);
    expect(up.sent()).toBe(2);
    void waiting;
  });

  it("the budget is per search (the engine's query object) and shared by the sources of one group", async () => {
    const up = scripted([]);
    const p = upstreamProtection(false, { maxRequestsPerSearch: 3 }, 30_000);
    const budgets = searchBudgets(p, 2, 200_000);
    const search: SearchQuery = testQuery();
    const latam = protectedTransport(p, up.transport, "upstream:latam", search, budgets);
    const gol = protectedTransport(p, up.transport, "upstream:gol", search, budgets);
    expect(await sendAll(latam, 2)).toEqual(["200", "200"]);
    expect(await sendAll(gol, 2)).toEqual(["200", "RequestBudgetExhausted"]);
    expect(up.sent()).toBe(3);
    // Another search, another budget.
    expect(await sendAll(protectedTransport(p, up.transport, "upstream:gol", testQuery(), budgets), 1)).toEqual(["200"]);
    const spent = await latam.send(request()).catch((e: unknown) => e);
    expect(spent).toEqual(new RequestBudgetExhausted({ limit: 3 }));
  });

  it("the budget is off unless asked; asked without a figure, it is 32 requests per source of the group", () => {
    expect(searchBudgets(upstreamProtection(undefined, undefined, 30_000), 9, 200_000)).toBeUndefined();
    expect(searchBudgets(upstreamProtection(undefined, false, 30_000), 9, 200_000)).toBeUndefined();
    expect(searchBudgets(upstreamProtection(undefined, {}, 30_000), 9, 200_000)?.limit).toBe(288);
  });
});
