import type { SearchSnapshot } from "@voar/core";
import type { Clock } from "../clock.js";
import type { SearchRecord } from "./session-store.js";
import { sweepPeriodOf, sweepTimer, type SweepTimer } from "../expiry/sweep-timer.js";

/**
 * The materialized snapshots of an instance's searches, one per search (its latest), most recently used
 * last: at most `size`, and each dropped once its search's TTL passed: swept at most once a second as they are
 * used, and on a timer of its own (`sweepTimer`) while any is kept, so an idle instance lets expired searches go
 * too (the store forgets a search on its own; without the sweep its offers would stay here until traffic came).
 * `onExpired` hears of the searches dropped for their TTL (what else the app keeps of them goes too).
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { readonly snapshot: SearchSnapshot; readonly expiresAt: number }>();
  private lastSweep = 0;
  private readonly timer: SweepTimer;

  constructor(private readonly o: { readonly clock: Clock; readonly size: number; readonly ttlMs: number; readonly onExpired?: ((ids: ReadonlySet<string>) => void) | undefined }) {
    this.timer = sweepTimer({ everyMs: sweepPeriodOf(o.ttlMs), sweep: () => (this.sweep(true), this.entries.size > 0) });
  }

  get size(): number {
    return this.entries.size;
  }

  /** The snapshot kept for a search, if any. */
  get(id: string): SearchSnapshot | undefined {
    return this.entries.get(id)?.snapshot;
  }

  /** Keeps a search's snapshot as its most recently used one; returns it. */
  keep(record: SearchRecord, s: SearchSnapshot): SearchSnapshot {
    this.entries.delete(record.id);
    this.entries.set(record.id, { snapshot: s, expiresAt: (record.completedAt ?? record.deadlineAt) + this.o.ttlMs });
    if (this.entries.size > this.o.size) this.entries.delete(this.entries.keys().next().value!);
    this.sweep();
    this.timer.arm();
    return s;
  }

  /** Keeps `s` unless the snapshot kept is already at its version or a newer one. */
  keepNewer(record: SearchRecord, s: SearchSnapshot): void {
    const kept = this.get(record.id);
    if (!kept || kept.version < s.version) this.keep(record, s);
  }

  /** Stops the sweep's timer (the app shuts down). */
  close(): void {
    this.timer.stop();
  }

  private sweep(force = false): void {
    const now = this.o.clock.now();
    if (!force && now - this.lastSweep < 1_000) return;
    this.lastSweep = now;
    const expired = new Set<string>();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) expired.add(id);
    for (const id of expired) this.entries.delete(id);
    if (expired.size > 0) this.o.onExpired?.(expired);
  }
}
