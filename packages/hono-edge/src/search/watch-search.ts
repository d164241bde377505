import type { SearchSnapshot } from "@voar/core";
import { applyChange, applyChanges, emptySnapshotOf } from "./search-change.js";
import type { SearchRecord, SessionStore } from "./session-store.js";

/** What a watcher of a search receives: a snapshot, or a sign of life while nothing changes. */
export type SearchUpdate = { readonly kind: "snapshot"; readonly snapshot: SearchSnapshot } | { readonly kind: "keep-alive" };

/** What {@link watchSearch} needs. */
export interface WatchSearchOptions {
  readonly store: SessionStore;
  readonly record: SearchRecord;
  /** The last version the client received (`Last-Event-ID`); undefined for a new stream. */
  readonly lastEventId: number | undefined;
  /** A keep-alive update after this long without a change. */
  readonly keepAliveMs: number;
  /** Aborting ends the watch at once (the client went away). */
  readonly signal: AbortSignal;
  /** The latest snapshot of the search (the hub's cached rebuild). */
  readonly latest: () => Promise<SearchSnapshot>;
  /**
   * Called with the stored record at every quiet interval (no change for `keepAliveMs`): the hub takes the
   * search over there when its owner stopped renewing the lease, so a follower that only streams (nobody
   * polls) still sees it complete.
   */
  readonly onQuiet?: ((record: SearchRecord) => Promise<void>) | undefined;
}

/** A wake-up flag: `notify` before `wait` is not lost. */
const createWake = () => {
  let pending = false;
  let settle: ((notified: boolean) => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    notify() {
      pending = true;
      settle?.(true);
    },
    wait(ms: number): Promise<boolean> {
      if (pending) {
        pending = false;
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        settle = (notified) => {
          clearTimeout(timer);
          settle = undefined;
          pending = false;
          resolve(notified);
        };
        timer = setTimeout(() => settle?.(false), ms);
      });
    },
    cancel() {
      clearTimeout(timer);
      settle = undefined;
    },
  };
};

const snapshotUpdate = (snapshot: SearchSnapshot): SearchUpdate => ({ kind: "snapshot", snapshot });

/**
 * Every snapshot of a search, as the store records them, ending with the completed one.
 *
 * A new watch starts with the latest snapshot. A resumed one (`lastEventId` = N) replays every version after
 * N; if the store compacted them away it sends the latest snapshot instead. A resume at the current version
 * sends nothing until the next change (a conditional resume: the client has that snapshot), and ends at once
 * when the search is complete. An id newer than anything recorded (a search that expired and started anew)
 * gets the latest.
 */
export async function* watchSearch(o: WatchSearchOptions): AsyncGenerator<SearchUpdate> {
  const { record, store } = o;
  const wake = createWake();
  const onAbort = () => wake.notify();
  o.signal.addEventListener("abort", onAbort);
  // Watch before reading, so that a change between the read and the first wait still wakes us.
  const unwatch = await store.watch(record.id, () => wake.notify());
  try {
    let current: SearchSnapshot;
    if (o.lastEventId === undefined) {
      current = await o.latest();
      yield snapshotUpdate(current);
    } else {
      const last = o.lastEventId;
      const all = await store.changes(record.id, 0);
      const newest = all.at(-1)?.version ?? 0;
      const gone = all[0]?.cumulative === true && all[0].version > last + 1;
      if (last === newest) {
        // The client has the current version: it is not sent again (a completed search ends here); the
        // latest snapshot only goes out when a change landed since the store was read.
        current = await o.latest();
        if (current.version > last) yield snapshotUpdate(current);
      } else if (last > newest || gone) {
        current = applyChanges(record, emptySnapshotOf(record), all);
        yield snapshotUpdate(current);
      } else {
        current = emptySnapshotOf(record);
        for (const change of all) {
          current = applyChange(record, current, change);
          if (change.version > last) yield snapshotUpdate(current);
        }
      }
    }
    while (!current.completed && !o.signal.aborted) {
      const notified = await wake.wait(o.keepAliveMs);
      if (o.signal.aborted) return;
      if (!notified) {
        const stored = await store.get(record.id);
        if (stored === undefined) return; // evicted: nothing more will come
        await o.onQuiet?.(stored);
        yield { kind: "keep-alive" };
        continue;
      }
      const changes = await store.changes(record.id, current.version);
      if (changes[0]?.cumulative) {
        // Versions in between were compacted away: jump to the latest.
        current = applyChanges(record, current, changes);
        yield snapshotUpdate(current);
        continue;
      }
      for (const change of changes) {
        current = applyChange(record, current, change);
        yield snapshotUpdate(current);
      }
    }
  } finally {
    unwatch();
    wake.cancel();
    o.signal.removeEventListener("abort", onAbort);
  }
}
