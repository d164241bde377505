import { isStoreUnavailable } from "../errors/service-errors.js";
import type { Logger } from "../logging/logger.js";
import type { SearchChange } from "./search-change.js";
import type { SearchRecord, SessionStore } from "./session-store.js";

/**
 * What an attempt to bring the store up to date with a run gave: `current` (nothing was missing),
 * `resumed` (the changes the store missed during an outage were appended), `rewritten` (the store had lost
 * the search and it was written back whole), `unavailable` (the store is still down: kept, tried again),
 * `ended` (the run is over: lease lost, search gone for good, or stopped).
 */
export type SyncOutcome = "current" | "resumed" | "rewritten" | "unavailable" | "ended";

/** What {@link createStoreSync} needs. */
export interface StoreSyncOptions {
  readonly record: SearchRecord;
  readonly store: SessionStore;
  readonly owner: string;
  readonly leaseMs: number;
  readonly logger: Logger;
  /** The whole state of the search as this instance knows it, after `latest`, as one cumulative change. */
  readonly wholeState: (latest: SearchChange | undefined) => SearchChange;
  /** Ends the run (stops the engine and the heartbeat); called at most once by the sync. */
  readonly end: () => void;
  readonly ended: () => boolean;
  /** Called after the store accepted a change (appended under this owner's lease). */
  readonly appended?: ((change: SearchChange) => void) | undefined;
}

/** The writer of one run's changes: in order, one step at a time, surviving store outages. */
export interface StoreSync {
  /** Queues a change; writes it at once unless the store is known to be down. */
  push(change: SearchChange): void;
  /** The heartbeat: renews the lease (checking the store still holds what was written), or writes what is pending. */
  beat(): Promise<void>;
  /** Writes what the store is missing now, or checks that it misses nothing (as the heartbeat does). */
  sync(): Promise<SyncOutcome>;
  /** Waits for the steps queued so far. */
  drain(): Promise<void>;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Writes a run's changes to the store in order. While the store is unreachable (`StoreUnavailable`) the
 * changes wait here and each heartbeat tries again. When it answers, the changes it missed are appended;
 * if it came back without the search (restarted empty), or behind what this run wrote (a replicated store
 * failed over before its replica had the last writes: an append or the heartbeat says so), the search is
 * written back whole (`restore`): the record at the latest version, with this instance's lease, and one
 * cumulative change with every offer, so its Token keeps working and nothing a client received disappears.
 * Once the completing change is in (and, on a replicated store, confirmed by a replica), the run ends and the
 * lease is released.
 */
export const createStoreSync = (o: StoreSyncOptions): StoreSync => {
  const id = o.record.id;
  /** Changes made but not yet in the store, oldest first. */
  let pending: SearchChange[] = [];
  /** The latest change made (written or not). */
  let latest: SearchChange | undefined;
  /** The latest version the store acknowledged: what it must still hold (the heartbeat checks it). */
  let written = o.record.version;
  /** Set by a `StoreUnavailable`: the next sync first checks what the store still has. */
  let outage = false;
  /** Whether this outage was logged: once until a write goes through, however many tries fail meanwhile. */
  let told = false;
  let chain: Promise<unknown> = Promise.resolve();

  /** Runs steps one at a time, in order, whatever the previous one gave. */
  const serial = <T>(step: () => Promise<T>): Promise<T> => {
    const next = chain.then(step);
    chain = next.catch(() => undefined);
    return next;
  };

  const wentDown = (e: unknown) => {
    // Per search, so `info`: the outage itself is the store's `store.down` (once per instance, with the counts).
    if (!told) o.logger.log({ level: "info", msg: "search.store_unavailable", searchId: id, pending: pending.length, error: errorText(e) });
    outage = told = true;
  };

  const stop = (msg: string, level: "warn" | "error", error?: unknown): SyncOutcome => {
    o.logger.log({ level, msg, searchId: id, ...(error === undefined ? {} : { error: errorText(error) }) });
    o.end();
    return "ended";
  };

  /** Writes the search back into a store that lost it. */
  const rewrite = async (): Promise<SyncOutcome> => {
    if (!o.store.restore) return stop("search.lost", "warn");
    const whole = o.wholeState(latest);
    const now = Date.now();
    const lease = { owner: o.owner, expiresAt: now + o.leaseMs };
    const record: SearchRecord = { ...o.record, version: whole.version, completed: whole.completed, completedAt: whole.completed ? now : undefined, lease };
    if (!(await o.store.restore(record, whole, o.owner, o.leaseMs))) {
      outage = true; // someone wrote it meanwhile, or it is past its expiry: look again at the next sync
      return "unavailable";
    }
    pending = [];
    outage = told = false;
    written = whole.version;
    o.logger.log({ level: "info", msg: "search.rewritten", searchId: id, version: whole.version, offers: whole.offers.length, completed: whole.completed });
    return "rewritten";
  };

  /** After a refused append or lease renewal: the search is gone from the store (write it back) or another's. */
  const refused = async (stored?: SearchRecord): Promise<SyncOutcome> => ((stored ?? (await o.store.get(id))) === undefined ? rewrite() : stop("search.lease_lost", "warn"));

  /** The store lacks changes this run wrote (a failover lost them): the whole search goes back. */
  const behind = (): Promise<SyncOutcome> => {
    o.logger.log({ level: "warn", msg: "search.store_behind", searchId: id, written });
    return rewrite();
  };

  /** Once the completing change is in the store, the run is over and the lease goes. */
  const finishIfComplete = async (outcome: SyncOutcome): Promise<SyncOutcome> => {
    if (o.ended() || outcome === "unavailable" || pending.length > 0 || !latest?.completed) return outcome;
    o.end();
    await o.store.releaseLease(id, o.owner).catch((e: unknown) => o.logger.log({ level: "warn", msg: "search.release_failed", searchId: id, error: errorText(e) }));
    return outcome;
  };

  const syncStep = async (): Promise<SyncOutcome> => {
    if (o.ended()) return "ended";
    let outcome: SyncOutcome = "current";
    try {
      if (outage) {
        const stored = await o.store.get(id);
        if (stored === undefined) return await finishIfComplete(await rewrite());
        if (stored.version < written) return await finishIfComplete(await behind());
        // A change whose reply was lost in the outage may have been written: keep only the newer ones (and the
        // completing one: appending it again is harmless, and on a replicated store it waits for its confirmation).
        pending = pending.filter((c) => c.version > stored.version || c.completed);
        outage = false;
        outcome = "resumed";
      }
      while (pending.length > 0) {
        const change = pending[0]!;
        const appended = await o.store.append(id, change, o.owner, o.leaseMs);
        if (appended === "behind") return await finishIfComplete(await behind());
        if (!appended) {
          const stored = await o.store.get(id);
          // A write of ours sent before an outage may land after it (a script sent again on NOSCRIPT once Redis
          // woke): still under our lease, the store already has this version; go on after it.
          if (stored?.lease?.owner === o.owner && stored.version >= change.version) {
            pending = pending.filter((c) => c.version > stored.version);
            written = Math.max(written, stored.version);
            continue;
          }
          return await finishIfComplete(await refused(stored));
        }
        pending.shift();
        told = false;
        written = Math.max(written, change.version);
        o.appended?.(change);
      }
      return await finishIfComplete(outcome);
    } catch (e) {
      if (!isStoreUnavailable(e)) return stop("search.append_failed", "error", e); // the search is taken over or expires
      wentDown(e);
      return "unavailable";
    }
  };

  /**
   * With nothing to write: renews the lease, the store checking that it still holds what this run wrote (a
   * failover may have lost it: then the search goes back whole). The renewal also confirms the search to readers
   * after a failover.
   */
  const renew = async (): Promise<SyncOutcome> => {
    if (o.ended()) return "ended";
    if (outage || pending.length > 0) return syncStep();
    try {
      const renewed = await o.store.acquireLease(id, o.owner, o.leaseMs, written);
      if (renewed === "behind") return await finishIfComplete(await behind());
      if (!renewed) return await refused();
      told = false;
      return "current";
    } catch (e) {
      if (!isStoreUnavailable(e)) return stop("search.lease_failed", "error", e);
      wentDown(e);
      return "unavailable";
    }
  };

  return {
    push(change) {
      latest = change;
      pending.push(change);
      if (!outage) void serial(syncStep); // while the store is down, changes only queue up
    },
    beat: () => serial(renew).then(() => undefined),
    sync: () => serial(renew),
    drain: () => serial(() => Promise.resolve()),
  };
};
