import type { SessionStore } from "../search/session-store.js";

/** A store that knows which searches run here, and a promise of the moment none does. */
export interface TrackedStore {
  readonly store: SessionStore;
  /** Resolves when every search this instance created or took over has completed or let its lease go. */
  idle(): Promise<void>;
  /** How many searches run here now. */
  running(): number;
}

/**
 * Wraps a session store to follow the searches this instance runs: one starts when `openOrJoin` creates
 * it or `acquireLease` takes it, and ends at its completing `append`, a refused `append` (lease lost) or
 * `releaseLease`. For runtimes that must be told work goes on after an answer: a Worker's
 * `waitUntil(idle())`, or a Durable Object keeping its alarm close while `running()` is above zero.
 */
export const trackSearches = (inner: SessionStore): TrackedStore => {
  const running = new Set<string>();
  let waiters: (() => void)[] = [];
  const end = (id: string) => {
    if (!running.delete(id) || running.size > 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };
  const store: SessionStore = {
    // A calendar's days are searches of this store: tracked as any.
    ...(inner.calendars ? { calendars: inner.calendars } : {}),
    get: (id) => inner.get(id),
    changes: (id, afterVersion) => inner.changes(id, afterVersion),
    watch: (id, listener) => inner.watch(id, listener),
    async openOrJoin(candidate) {
      const result = await inner.openOrJoin(candidate);
      if (result.created && !result.record.completed) running.add(result.record.id);
      return result;
    },
    async acquireLease(id, owner, leaseMs) {
      const taken = await inner.acquireLease(id, owner, leaseMs);
      if (taken === true) running.add(id);
      return taken;
    },
    async append(id, change, owner, leaseMs) {
      const ok = await inner.append(id, change, owner, leaseMs);
      // "behind": the owner writes the search back and goes on running it.
      if (ok === false || (ok === true && change.completed)) end(id);
      return ok;
    },
    async releaseLease(id, owner) {
      await inner.releaseLease(id, owner);
      end(id);
    },
  };
  return { store, running: () => running.size, idle: () => (running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))) };
};
