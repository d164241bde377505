import type { SearchSnapshot } from "@voar/core";
import { applyChange, applyChanges } from "./search-change.js";
import type { SearchChange } from "./search-change.js";
import { FALLBACK_MS, FeedWatch } from "./feed-watch.js";
import type { SearchRecord, SessionStore } from "./session-store.js";

/** What a {@link SearchFeed} needs. */
export interface SearchFeedOptions {
  readonly store: SessionStore;
  readonly record: SearchRecord;
  /** The latest snapshot of the search (the hub's cached rebuild), read once when the feed starts. */
  readonly latest: () => Promise<SearchSnapshot>;
  /** Called once, when the last follower left or the feed failed: the hub forgets the feed. */
  readonly onClosed: () => void;
  /** How long the feed waits for an announcement before it reads the store anyway (`FeedWatch`). Default 2000. */
  readonly fallbackMs?: number | undefined;
  /** Told when the store advanced without an announcement (`stream.stalled`): the watch is made again. */
  readonly onStall?: ((searchId: string, missed: number) => void) | undefined;
}

/** Snapshots a feed keeps for followers a few versions behind (they share most of their structure). */
const HISTORY = 32;
/** Followers woken per turn of the event loop. */
const WAKE_BATCH = 50;
/** How long the stored record read at a quiet interval answers every follower that asks. */
const STORED_MS = 1_000;

/**
 * One search's versions on this instance, shared by every SSE stream that follows it: one store watch, one
 * read of the changes per version (whatever the number of streams), each snapshot built once. A thousand
 * streams of one search cost the store what one costs, so many streams never make a healthy store look slow.
 *
 * Followers read the snapshots after the version they hold ({@link since}); one far behind jumps to the latest
 * (a snapshot is the whole result so far). A failure to read (the store unavailable) is kept and every follower
 * is woken to see it; the feed then closes, and the next stream of the search starts a new one.
 */
export class SearchFeed {
  private history: SearchSnapshot[] = [];
  private failure: { readonly error: unknown } | undefined;
  private readonly followers = new Set<() => void>();
  private readonly watch: FeedWatch;
  private started: Promise<void> | undefined;
  private reading = false;
  private again = false;
  private closedFlag = false;
  private stored: { readonly at: number; readonly record: Promise<SearchRecord | undefined> } | undefined;
  private replay: Promise<readonly SearchChange[]> | undefined;

  constructor(private readonly o: SearchFeedOptions) {
    this.watch = new FeedWatch({
      store: o.store,
      searchId: o.record.id,
      fallbackMs: o.fallbackMs ?? FALLBACK_MS,
      notice: () => this.refresh(),
      read: () =>
        new Promise<number>((resolve) => {
          const before = this.latest().version;
          this.refresh(() => resolve(this.latest().version - before));
        }),
      over: () => this.closedFlag || this.latest()?.completed === true,
      onStall: o.onStall,
    });
  }

  /** Whether the feed stopped (no follower left, or it failed): a new stream needs a new feed. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Joins the feed: resolves once it watches the store and holds the latest snapshot; `wake` hears of every new version and of a failure. */
  async follow(wake: () => void): Promise<() => void> {
    this.followers.add(wake);
    try {
      await (this.started ??= this.start());
    } catch (e) {
      this.fail(e);
      throw e;
    }
    return () => {
      if (this.followers.delete(wake) && this.followers.size === 0) this.close();
    };
  }

  /** The latest snapshot (only after {@link follow} resolved). */
  latest(): SearchSnapshot {
    return this.history.at(-1)!;
  }

  /** The snapshots after `version`, oldest first: every one kept, or the latest alone for a follower further behind. Throws the feed's failure. */
  since(version: number): readonly SearchSnapshot[] {
    if (this.failure) throw this.failure.error;
    const first = this.history.findIndex((s) => s.version > version);
    if (first < 0) return [];
    return first === 0 && this.history[0]!.version > version + 1 ? [this.latest()] : this.history.slice(first);
  }

  /** Whether every version after `version` is kept here (a resumed stream replays them from here, not from the store). */
  holdsAfter(version: number): boolean {
    const oldest = this.history[0];
    return oldest !== undefined && oldest.version <= version + 1 && version <= this.latest().version;
  }

  /** The stored record, read at most once a second for every follower at a quiet interval (undefined: expired). */
  storedRecord(): Promise<SearchRecord | undefined> {
    const now = Date.now();
    if (!this.stored || now - this.stored.at >= STORED_MS) this.stored = { at: now, record: this.o.store.get(this.o.record.id) };
    return this.stored.record;
  }

  /** Every change of the search, read once for the resumed streams that ask at the same time. */
  allChanges(): Promise<readonly SearchChange[]> {
    const read = (this.replay ??= this.o.store.changes(this.o.record.id, 0));
    void read.then(
      () => (this.replay = undefined),
      () => (this.replay = undefined),
    );
    return read;
  }

  private async start(): Promise<void> {
    // Watch before reading, so that a change between the read and the first notice still wakes the feed.
    await this.watch.subscribe();
    this.push(await this.o.latest());
    this.watch.arm(); // the store read on a timer when no announcement comes
    if (this.again) this.refresh(); // a notice came while the latest snapshot was read
  }

  private push(s: SearchSnapshot): void {
    const last = this.history.at(-1);
    if (last && s.version <= last.version && s.completed === last.completed) return;
    this.history.push(s);
    if (this.history.length > HISTORY) this.history.shift();
    this.wakeAll();
  }

  /**
   * Wakes every follower, a batch per turn of the event loop: each stream's event is written in the turn that
   * wakes it, so a thousand streams never make one long turn that the instance's other requests (a liveness
   * probe, a poll) wait behind.
   */
  private wakeAll(): void {
    const all = [...this.followers];
    const batch = (from: number) => {
      for (const wake of all.slice(from, from + WAKE_BATCH)) if (this.followers.has(wake) || this.failure) wake();
      if (from + WAKE_BATCH < all.length) setTimeout(() => batch(from + WAKE_BATCH), 0);
    };
    batch(0);
  }

  /** One read of what changed after the latest snapshot, however many notices came meanwhile; `then` after it (not when another read runs). */
  private refresh(then?: () => void): void {
    if (this.closedFlag) return;
    if (this.reading || this.history.length === 0) {
      this.again = true;
      then?.();
      return;
    }
    this.reading = true;
    void (async () => {
      try {
        do {
          this.again = false;
          const current = this.latest();
          const changes = await this.o.store.changes(this.o.record.id, current.version);
          if (changes[0]?.cumulative) this.push(applyChanges(this.o.record, current, changes));
          else {
            let s = current;
            for (const change of changes) this.push((s = applyChange(this.o.record, s, change)));
          }
        } while (this.again && !this.closedFlag);
      } catch (e) {
        this.fail(e);
      } finally {
        this.reading = false;
      }
      then?.();
    })();
  }

  private fail(error: unknown): void {
    if (this.closedFlag) return;
    this.failure = { error };
    this.wakeAll();
    this.close();
  }

  private close(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.watch.close();
    this.o.onClosed();
  }
}
