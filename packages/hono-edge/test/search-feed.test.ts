import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemorySessionStore } from "../src/search/memory-session-store.js";
import type { SessionStore } from "../src/search/session-store.js";
import { noopMetrics } from "../src/telemetry/service-metrics.js";
import { fastSources, NOW, post, QUERY, testApp, type Answer } from "./support/app.js";
import { readStream, settle } from "./support/sse.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** A store that counts the reads a stream makes: watches, changes and records. */
const countingStore = (inner: SessionStore) => {
  const reads = { watch: 0, changes: 0, get: 0 };
  const store: SessionStore = {
    ...inner,
    watch: (id, listener) => (reads.watch++, inner.watch(id, listener)),
    changes: (id, after) => (reads.changes++, inner.changes(id, after)),
    get: (id) => (reads.get++, inner.get(id)),
  };
  return { store, reads };
};

describe("SSE fan-out: one search followed by many streams on one instance", () => {
  it("200 streams of one query cost the store one watch and one read per version, like one stream; every stream gets every version and ends complete", async () => {
    const sources = fastSources({ latencyMs: (id) => 100 + 40 * id.length, batches: 3 });
    const counted = countingStore(createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 }));
    const { app } = testApp({ sources, store: counted.store });
    const first = await post(app, "/api/ConsultaAereo/Stream", QUERY);
    const rest = await Promise.all(Array.from({ length: 199 }, () => post(app, "/api/ConsultaAereo/Stream", QUERY)));
    const streams = await settle(Promise.all([first, ...rest].map((res) => readStream(res))));
    const versions = streams.map((events) => events.filter((e) => e.data !== undefined).map((e) => Number(e.id)));
    const last = Math.max(...versions[0]!);
    expect(last).toBeGreaterThan(3);
    for (const v of versions) {
      expect(v).toEqual([...v].sort((a, b) => a - b));
      expect(v.at(-1)).toBe(last);
    }
    for (const events of streams) expect((JSON.parse(events.at(-1)!.data!) as Answer).Completed).toBe(true);
    // One watch for the whole feed, and at most one read of the changes per version (a read may carry several).
    expect(counted.reads.watch).toBe(1);
    expect(counted.reads.changes).toBeLessThanOrEqual(last);
  });

  it("a stream that joins a feed already running starts at its latest version; the feed ends with its last stream and a new stream starts a new one", async () => {
    const sources = fastSources({ latencyMs: (id) => 100 + 40 * id.length, batches: 3 });
    const counted = countingStore(createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 }));
    const { app } = testApp({ sources, store: counted.store });
    const a = await readStream(await post(app, "/api/ConsultaAereo/Stream", QUERY));
    expect(counted.reads.watch).toBe(1);
    const b = await readStream(await post(app, "/api/ConsultaAereo/Stream", QUERY));
    // The search is complete: the second stream gets the final snapshot alone, from a new feed.
    expect(b.filter((e) => e.data !== undefined).map((e) => e.id)).toEqual([a.filter((e) => e.data !== undefined).at(-1)!.id]);
    expect(counted.reads.watch).toBe(2);
  });
});

describe("a stream whose announcements never come (pub/sub lost in a failover, a reconnection, a slot moved)", () => {
  const slowSources = () => fastSources({ latencyMs: (id) => 1_500 + 900 * id.length, batches: 3 });

  it("reads the store on a timer, ends complete with the same versions as a stream that hears them; the stall is logged and counted, and the search watched again", async () => {
    const reference = testApp({ sources: slowSources(), store: createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 }) });
    const heard = await readStream(await post(reference.app, "/api/ConsultaAereo/Stream", QUERY));

    const inner = createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 });
    let watches = 0;
    const deaf: SessionStore = { ...inner, watch: () => (watches++, Promise.resolve(() => undefined)) };
    let stalls = 0;
    const { app, logs } = testApp({ sources: slowSources(), store: deaf, metrics: { ...noopMetrics, watchStalled: () => void stalls++ } });
    const events = await readStream(await post(app, "/api/ConsultaAereo/Stream", QUERY));
    const last = (e: typeof events) => JSON.parse(e.filter((x) => x.data !== undefined).at(-1)!.data!) as Answer;
    expect(last(events).Completed).toBe(true);
    expect(last(events).TotalItens).toBe(last(heard).TotalItens);
    const stalled = logs.records.filter((r) => r.msg === "stream.stalled");
    expect(stalled.length).toBeGreaterThan(0);
    expect(stalls).toBe(stalled.length);
    expect(watches).toBe(1 + stalled.length); // watched again at each stall
  });

  it("a watch that is never confirmed (a subscriber still reconnecting) does not hold the stream: it starts and ends complete", async () => {
    const inner = createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 });
    const stuck: SessionStore = { ...inner, watch: () => new Promise(() => undefined) };
    const { app } = testApp({ sources: slowSources(), store: stuck });
    const events = await readStream(await post(app, "/api/ConsultaAereo/Stream", QUERY));
    expect((JSON.parse(events.filter((x) => x.data !== undefined).at(-1)!.data!) as Answer).Completed).toBe(true);
  });
});
