import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemorySessionStore } from "../src/search/memory-session-store.js";
import type { SessionStore } from "../src/search/session-store.js";
import { consultar, fastSources, NOW, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

describe("a search taken over from an owner that stopped renewing its lease", () => {
  it("completes when its sources finish, each source in its final state, even when the owner's last change landed after the taker read the search", async () => {
    const inner = createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 });
    let raced = false;
    // The owner's last change reaches the store between the taker's read and its lease (the owner was slow,
    // not dead: its lease lapsed with a write in flight), then its lease goes.
    const store: SessionStore = {
      ...inner,
      // As the Redis store's script does: a version that does not follow the recorded one is refused.
      append: async (id, change, owner, leaseMs) => change.version > ((await inner.get(id))?.version ?? 0) && inner.append(id, change, owner, leaseMs),
      acquireLease: async (id, owner, leaseMs) => {
        if (owner === "b" && !raced) {
          raced = true;
          const stored = (await inner.get(id))!;
          const last = (await inner.changes(id, 0)).at(-1)!;
          await inner.append(id, { version: stored.version + 1, offers: [], sources: last.sources, completed: false }, "a", leaseMs);
          await inner.releaseLease(id, "a");
        }
        return inner.acquireLease(id, owner, leaseMs);
      },
    };
    const shutdownA = new AbortController();
    const a = testApp({ store, sources: fastSources({ latencyMs: 1_000 }), instanceId: "a", signal: shutdownA.signal });
    const b = testApp({ store, sources: fastSources({ latencyMs: 1_000 }), instanceId: "b" });
    const token = (await consultar(a.app, QUERY)).body.Token as string;
    await vi.advanceTimersByTimeAsync(600); // first batches in, every source still pending
    expect((await consultar(b.app, { Token: token })).body.Completed).toBe(false);
    shutdownA.abort(); // A stops and lets its lease go
    await vi.advanceTimersByTimeAsync(0);

    const started = Date.now();
    let answer = await consultar(b.app, { Token: token }); // B takes it over
    for (let i = 0; i < 600 && !answer.body.Completed; i++) {
      await vi.advanceTimersByTimeAsync(100);
      answer = await consultar(b.app, { Token: token });
    }
    expect(raced).toBe(true);
    expect(answer.body).toMatchObject({ Token: token, Completed: true, Success: true });
    expect(Date.now() - started).toBeLessThan(2_000); // the sources' second, not the lease nor the deadline
    expect(answer.body.Progresso.Fontes.map((f) => f.Estado)).toEqual(answer.body.Progresso.Fontes.map(() => "concluida"));
    expect(b.logs.records.filter((r) => r.msg === "search.taken_over")).toHaveLength(1);
    expect(b.logs.records.filter((r) => r.msg === "search.lease_lost")).toEqual([]);
  });
});
