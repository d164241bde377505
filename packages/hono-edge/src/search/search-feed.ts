import type { SearchSnapshot } from "@voar/core";
import { applyChange, applyChanges } from "./search-change.js";
import type { SearchChange } from "./search-change.js";
import type { SearchRecord, SessionStore, Unwatch } from "./session-store.js";

/** What a {@link SearchFeed} needs. */
export interface SearchFeedOptions {
  readonly store: SessionStore;
  readonly record: SearchRecord;
  /** The latest snapshot of the search (the hub's cached rebuild), read once when the feed starts. */
  readonly latest: () => Promise<SearchSnapshot>;
  /** Called once, when the last follower left or the feed failed: the hub forgets the feed. */
  readonly onClosed: () => void;
  /**
   * How long the feed waits for an announcement before it reads the store anyway (and for its watch to be confirmed
   * before it starts without it). Default {@link FALLBACK_MS}.
   */
  readonly fallbackMs?: number | undefined;
  /** Told when the store advanced without an announcement (`stream.stalled`): the watch is made again. */
  readonly onStall?: ((searchId: string, missed: number) => void) | undefined;
}

/**
 * How long a feed waits for an announcement before it reads the store anyway: pub/sub is a notice, not the record,
 * and a failover, a reconnection or a slot moved can lose notices (or a subscription) without a word.
 */
export const FALLBACK_MS = 2_000;

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
  private unwatch: Unwatch | undefined;
  private started: Promise<void> | undefined;
  private reading = false;
  private again = false;
  private closedFlag = false;
  private stored: { readonly at: number; readonly record: Promise<SearchRecord | undefined> } | undefined;
  private replay: Promise<readonly SearchChange[]> | undefined;
  /** When the last announcement came (or the last read on the timer): the timer reads when none came for `fallbackMs`. */
  private noticedAt = 0;
  /** Announcements heard: a read on the timer that finds versions while none came found a stall. */
  private notices = 0;
  private fallback: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly o: SearchFeedOptions) {}

  private get fallbackMs(): number {
    return this.o.fallbackMs ?? FALLBACK_MS;
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
    await this.subscribe();
    this.push(await this.o.latest());
    this.noticedAt = Date.now();
    this.armFallback();
    if (this.again) this.refresh(); // a notice came while the latest snapshot was read
  }

  /**
   * Watches the search in the store. A watch not confirmed within `fallbackMs` (a subscriber connection that is
   * still reconnecting after a failover) does not hold the feed: it starts, reads on its timer meanwhile, and the
   * watch counts once confirmed. A watch refused at once (the store unavailable) fails the feed.
   */
  private async subscribe(): Promise<void> {
    const watching = this.o.store.watch(this.o.record.id, () => this.notice());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), this.fallbackMs)));
    try {
      const first = await Promise.race([watching, late]);
      if (first !== "late") return void (this.unwatch = first);
    } finally {
      clearTimeout(timer);
    }
    watching.then(
      (unwatch) => (this.closedFlag ? unwatch() : (this.unwatch = unwatch)),
      () => undefined, // the timer reads the store meanwhile; the next stall watches again
    );
  }

  private notice(): void {
    this.notices += 1;
    this.noticedAt = Date.now();
    this.refresh();
  }

  /**
   * The feed's timer: when no announcement came for `fallbackMs` while the search runs, the store is read anyway.
   * Versions found there were never announced: the stall is told (`onStall`) and the search watched again.
   */
  private armFallback(): void {
    clearTimeout(this.fallback);
    if (this.closedFlag || this.latest()?.completed) return;
    const wait = Math.max(1, this.noticedAt + this.fallbackMs - Date.now());
    this.fallback = setTimeout(() => {
      if (this.closedFlag) return;
      if (Date.now() - this.noticedAt < this.fallbackMs || this.reading) return this.armFallback();
      const before = this.latest().version;
      const heard = this.notices;
      this.noticedAt = Date.now();
      this.refresh(() => {
        if (this.closedFlag) return;
        const missed = this.latest().version - before;
        if (missed > 0 && this.notices === heard) this.stalled(missed);
        this.armFallback();
      });
    }, wait);
  }

  private stalled(missed: number): void {
    this.o.onStall?.(this.o.record.id, missed);
    const old = this.unwatch;
    this.unwatch = undefined;
    old?.();
    void this.subscribe().catch(() => undefined); // refused: the timer goes on reading
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
    clearTimeout(this.fallback);
    this.unwatch?.();
    this.o.onClosed();
  }
}

/** The feeds of an instance's searches, one per search followed by at least one stream. */
export class SearchFeeds {
  private readonly feeds = new Map<string, SearchFeed>();

  constructor(
    private readonly store: SessionStore,
    private readonly watch: Pick<SearchFeedOptions, "fallbackMs" | "onStall"> = {},
  ) {}

  /** The open feed of a search, or a new one (`latest` reads its latest snapshot when it starts). */
  of(record: SearchRecord, latest: () => Promise<SearchSnapshot>): SearchFeed {
    const open = this.feeds.get(record.id);
    if (open && !open.closed) return open;
    const feed: SearchFeed = new SearchFeed({
      store: this.store,
      record,
      latest,
      onClosed: () => void (this.feeds.get(record.id) === feed && this.feeds.delete(record.id)),
      fallbackMs: this.watch.fallbackMs,
      onStall: this.watch.onStall,
    });
    this.feeds.set(record.id, feed);
    return feed;
  }
}
