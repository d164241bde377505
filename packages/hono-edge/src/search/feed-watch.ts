import type { SessionStore, Unwatch } from "./session-store.js";

/**
 * How long a feed waits for an announcement before it reads the store anyway: pub/sub is a notice, not the record,
 * and a failover, a reconnection or a slot moved can lose notices (or a subscription) without a word.
 */
export const FALLBACK_MS = 2_000;

/** What a {@link FeedWatch} needs. */
export interface FeedWatchOptions {
  readonly store: SessionStore;
  readonly searchId: string;
  /** How long without an announcement before the store is read anyway (and the watch confirmed before the feed goes on without it). */
  readonly fallbackMs: number;
  /** An announcement came: the feed reads what changed. */
  readonly notice: () => void;
  /** Reads the store now; resolves with how many versions the feed advanced by. */
  readonly read: () => Promise<number>;
  /** Whether nothing more can come (the search is complete, or the feed closed): the timer stops. */
  readonly over: () => boolean;
  /** Told when the store advanced without an announcement: the search is watched again. */
  readonly onStall?: ((searchId: string, missed: number) => void) | undefined;
}

/**
 * A feed's watch of its search in the store, with a timer behind it: when no announcement came for `fallbackMs`
 * while the search runs, the store is read anyway; versions found there that were never announced are a stall,
 * told (`onStall`), and the search is watched again (a subscription a failover or a slot move lost comes back).
 */
export class FeedWatch {
  private unwatch: Unwatch | undefined;
  private closed = false;
  private noticedAt = Date.now();
  /** Announcements heard: a read on the timer that finds versions while none came found a stall. */
  private notices = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly o: FeedWatchOptions) {}

  /**
   * Watches the search. A watch not confirmed within `fallbackMs` (a subscriber connection still reconnecting after
   * a failover) does not hold the feed: it goes on, reads on its timer meanwhile, and the watch counts once confirmed.
   * A watch refused at once (the store unavailable) rejects.
   */
  async subscribe(): Promise<void> {
    const watching = this.o.store.watch(this.o.searchId, () => {
      this.notices += 1;
      this.noticedAt = Date.now();
      this.o.notice();
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), this.o.fallbackMs)));
    try {
      const first = await Promise.race([watching, late]);
      if (first !== "late") return void (this.closed ? first() : (this.unwatch = first));
    } finally {
      clearTimeout(timer);
    }
    watching.then(
      (unwatch) => (this.closed ? unwatch() : (this.unwatch = unwatch)),
      () => undefined, // the timer reads the store meanwhile; the next stall watches again
    );
  }

  /** (Re)starts the timer: the store is read `fallbackMs` after the last announcement, while the search runs. */
  arm(): void {
    clearTimeout(this.timer);
    if (this.closed || this.o.over()) return;
    const wait = Math.max(1, this.noticedAt + this.o.fallbackMs - Date.now());
    this.timer = setTimeout(() => void this.check(), wait);
  }

  private async check(): Promise<void> {
    if (this.closed) return;
    if (Date.now() - this.noticedAt < this.o.fallbackMs) return this.arm();
    const heard = this.notices;
    this.noticedAt = Date.now();
    const missed = await this.o.read();
    if (this.closed) return;
    if (missed > 0 && this.notices === heard) this.stalled(missed);
    this.arm();
  }

  private stalled(missed: number): void {
    this.o.onStall?.(this.o.searchId, missed);
    const old = this.unwatch;
    this.unwatch = undefined;
    old?.();
    void this.subscribe().catch(() => undefined); // refused: the timer goes on reading
  }

  /** Stops watching. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.unwatch?.();
    this.unwatch = undefined;
  }
}
