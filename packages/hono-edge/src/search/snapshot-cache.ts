import type { SearchSnapshot } from "@voar/core";
import type { Clock } from "../clock.js";
import type { SearchRecord } from "./session-store.js";

/**
 * The materialized snapshots of an instance's searches, one per search (its latest), most recently used
 * last: at most `size`, and each dropped once its search's TTL passed (swept at most once a second: the
 * store forgets a search on its own, and without the sweep its offers would stay here until evicted by count).
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { readonly snapshot: SearchSnapshot; readonly expiresAt: number }>();
  private lastSweep = 0;

  constructor(private readonly o: { readonly clock: Clock; readonly size: number; readonly ttlMs: number }) {}

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
    return s;
  }

  /** Keeps `s` unless the snapshot kept is already at its version or a newer one. */
  keepNewer(record: SearchRecord, s: SearchSnapshot): void {
    const kept = this.get(record.id);
    if (!kept || kept.version < s.version) this.keep(record, s);
  }

  private sweep(): void {
    const now = this.o.clock.now();
    if (now - this.lastSweep < 1_000) return;
    this.lastSweep = now;
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}
