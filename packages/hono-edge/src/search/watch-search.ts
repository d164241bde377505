import type { SearchSnapshot } from "@voar/core";
import { applyChange, applyChanges, emptySnapshotOf } from "./search-change.js";
import type { SearchFeed } from "./search-feed.js";
import type { SearchRecord } from "./session-store.js";

/** What a watcher of a search receives: a snapshot, or a sign of life while nothing changes. */
export type SearchUpdate = { readonly kind: "snapshot"; readonly snapshot: SearchSnapshot } | { readonly kind: "keep-alive" };

/** What {@link watchSearch} needs. */
export interface WatchSearchOptions {
  readonly record: SearchRecord;
  /** The feed of the search on this instance, shared with its other streams (taken when the watch starts). */
  readonly feed: () => SearchFeed;
  /** The last version the client received (`Last-Event-ID`); undefined for a new stream. */
  readonly lastEventId: number | undefined;
  /** A keep-alive update after this long without a change. */
  readonly keepAliveMs: number;
  /** Aborting ends the watch at once (the client went away). */
  readonly signal: AbortSignal;
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
 * Every snapshot of a search, as the store records them, ending with the completed one, read from the search's
 * feed (`SearchFeed`: one store read per version for every stream of the search on this instance).
 *
 * A new watch starts with the latest snapshot. A resumed one (`lastEventId` = N) replays every version after
 * N (from the feed when it still holds them, else from the store's log); if the store compacted them away it
 * sends the latest snapshot instead. A resume at the current version sends nothing until the next change (a
 * conditional resume: the client has that snapshot), and ends at once when the search is complete. An id newer
 * than anything recorded (a search that expired and started anew) gets the latest.
 */
export async function* watchSearch(o: WatchSearchOptions): AsyncGenerator<SearchUpdate> {
  const { record } = o;
  const feed = o.feed();
  const wake = createWake();
  const onAbort = () => wake.notify();
  o.signal.addEventListener("abort", onAbort);
  const leave = await feed.follow(() => wake.notify()).catch((e: unknown) => {
    o.signal.removeEventListener("abort", onAbort);
    throw e;
  });
  try {
    let current = feed.latest();
    const last = o.lastEventId;
    if (last === undefined || last > current.version) yield snapshotUpdate(current);
    else if (last < current.version) {
      if (feed.holdsAfter(last)) {
        for (const s of feed.since(last)) yield snapshotUpdate((current = s));
      } else {
        const all = await feed.allChanges();
        const gone = all[0]?.cumulative === true && all[0].version > last + 1;
        if (gone) yield snapshotUpdate((current = applyChanges(record, emptySnapshotOf(record), all)));
        else {
          current = emptySnapshotOf(record);
          for (const change of all) {
            current = applyChange(record, current, change);
            if (change.version > last) yield snapshotUpdate(current);
          }
        }
      }
    }
    // else: the client has the current version (a conditional resume); a completed search ends here.
    while (!current.completed && !o.signal.aborted) {
      const notified = await wake.wait(o.keepAliveMs);
      if (o.signal.aborted) return;
      if (!notified) {
        const stored = await feed.storedRecord();
        if (stored === undefined) return; // evicted: nothing more will come
        await o.onQuiet?.(stored);
        yield { kind: "keep-alive" };
        continue;
      }
      for (const s of feed.since(current.version)) yield snapshotUpdate((current = s));
    }
  } finally {
    leave();
    wake.cancel();
    o.signal.removeEventListener("abort", onAbort);
  }
}
