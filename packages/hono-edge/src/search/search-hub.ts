import { sourcesFor, type SearchQuery, type SearchSnapshot, type SearchSource } from "@voar/core";
import { isStoreUnavailable, SearchCapacityReached, StoreUnavailable } from "../errors/service-errors.js";
import { loggerInTrace } from "../logging/logger.js";
import { runSearch, type RunningSearch, type TraceContext } from "./run-search.js";
import { applyChanges, emptySnapshotOf, secondsUntilRejoinEnds } from "./search-change.js";
import { searchKey } from "./search-key.js";
import { holdsExpiredOffer } from "./offer-validity.js";
import { SnapshotCache } from "./snapshot-cache.js";
import { SessionCapacityReached, type OpenResult, type SearchRecord, type Unwatch } from "./session-store.js";
import { StoreAvailability } from "./store-availability.js";
import { watchSearch, type SearchUpdate } from "./watch-search.js";
import { SearchFeeds } from "./search-feeds.js";
import type { SearchHubOptions } from "./search-hub-options.js";
export type { SearchHubOptions };
/**
 * The searches of one instance, over the session store: starts a search or joins the one already running
 * for the same tenant and query (one engine subscription per search across instances), takes over a search
 * whose owner stopped renewing its lease, and rebuilds snapshots from the store's changes (cached per
 * search, so a poll only folds what is new).
 */
export class SearchHub {
  private readonly running = new Map<string, RunningSearch>();
  /** Searches this instance is taking over right now (between its lease and its run). */
  private readonly takingOver = new Set<string>();
  private readonly servedBy = new WeakMap<SearchQuery, readonly SearchSource[]>();
  private readonly cache: SnapshotCache;
  private readonly availability: StoreAvailability;
  private readonly unwatchStore: Unwatch | undefined;
  /** One feed per search streamed here: one store read per version for all its streams. */
  private readonly feeds: SearchFeeds;

  constructor(private readonly o: SearchHubOptions) {
    this.cache = new SnapshotCache({ clock: o.clock, size: o.cacheSize, ttlMs: o.ttlMs, onExpired: o.onExpired });
    this.availability = new StoreAvailability(o, this.running, () => this.cache.size);
    this.feeds = new SearchFeeds(o.store, o);
    this.unwatchStore = o.store.onAvailability?.((available) => this.availability.changed(available));
  }

  /** Whether the store answers now (`/ready`): always, for a store that cannot be unreachable. */
  ready = async (): Promise<boolean> => (this.o.store.ready ? this.o.store.ready() : true);

  /** How many searches this instance runs now. */
  readonly runningCount = (): number => this.running.size;

  /**
   * Starts the search of a query for a tenant, or joins the live one with the same key. Throws
   * {@link SearchCapacityReached} (logged) when the store has no room for a new one, and `InstanceOverloaded`
   * when admission control sheds new searches (a query served here lately still joins its search).
   */
  async open(tenant: string, query: SearchQuery, hiddenCashAirlines: readonly number[], trace?: TraceContext, receivedAt?: number): Promise<SearchRecord> {
    const logger = loggerInTrace(this.o.logger, trace); // its records come after awaits: the request's trace kept
    const key = searchKey(tenant, query, hiddenCashAirlines);
    this.o.admission?.admit(key, receivedAt === undefined || this.availability.changedSince(receivedAt) ? 0 : this.o.clock.now() - receivedAt);
    const active = this.sourcesOf(query);
    const now = this.o.clock.now();
    const candidate: SearchRecord = {
      id: this.o.store.searchIdFor?.(key, this.o.newId()) ?? this.o.newId(),
      key,
      tenant,
      query,
      sources: active.map((s) => ({ id: s.id, name: s.name })),
      hiddenCashAirlines: [...hiddenCashAirlines],
      createdAt: now,
      deadlineAt: now + this.o.deadlineMs,
      version: 0,
      // No source serves the query: the search is complete (and empty) from the start.
      completed: active.length === 0,
      completedAt: active.length === 0 ? now : undefined,
      lease: { owner: this.o.instanceId, expiresAt: now + this.o.leaseMs },
    };
    let opened: OpenResult;
    try {
      opened = await this.o.store.openOrJoin(candidate);
    } catch (e) {
      if (!(e instanceof SessionCapacityReached)) throw e;
      logger.log({ level: "warn", msg: "search.refused", tenant, scope: e.scope, retryAfterSeconds: e.retryAfterSeconds });
      this.o.metrics?.searchRefused("capacity");
      throw new SearchCapacityReached(e.scope, e.retryAfterSeconds);
    }
    const { record, created } = opened;
    this.o.admission?.served(key);
    if (created) {
      this.o.metrics?.searchStarted();
      logger.log({ level: "info", msg: "search.started", searchId: record.id, tenant, sources: active.length });
      if (!record.completed) this.start(record, emptySnapshotOf(record), active, trace);
    } else {
      this.o.metrics?.searchJoined();
      await this.ensureRunning(record);
      if (holdsExpiredOffer(await this.snapshot(record), this.o.clock.now())) throw new StoreUnavailable("its offers just stopped being current, its run is completing it: ask again");
    }
    return record;
  }

  /** Seconds until a repeat of a completed search's query starts a new search (see `secondsUntilRejoinEnds`). */
  retryAfterSeconds(record: SearchRecord, s: SearchSnapshot): number | undefined {
    return secondsUntilRejoinEnds(record, s, Math.min(this.o.failedTtlMs, this.o.ttlMs), this.o.clock.now());
  }

  /** A live search of the tenant by id; undefined when unknown, expired (or an offer it holds is), or another tenant's. */
  async find(tenant: string, id: string): Promise<SearchRecord | undefined> {
    let record = await this.o.store.get(id);
    const run = this.running.get(id);
    if (!record && run) {
      // The store lost a search this instance runs (it restarted empty): write it back now and answer it.
      const outcome = await run.sync();
      if (outcome !== "ended" && outcome !== "unavailable") record = await this.o.store.get(id);
    }
    // Just after the store came back empty, a search it lacks may be one its owner is writing back: not
    // "expired" yet, but "try again in a moment" (retryable); after it, gone for good.
    if (!record && this.availability.recovering()) throw new StoreUnavailable("the store is recovering its searches");
    if (!record || record.tenant !== tenant) return undefined;
    if (holdsExpiredOffer(await this.snapshot(record), this.o.clock.now())) return undefined; // searched again: no stale price
    await this.ensureRunning(record);
    return record;
  }

  /** The latest snapshot of a search, rebuilt from the store (only the changes since the cached one). */
  async snapshot(record: SearchRecord): Promise<SearchSnapshot> {
    const cached = this.cache.get(record.id);
    // The record was just read from the store: when the cached snapshot is at its version, nothing is new
    // (the common poll of a completed or quiet search), and the store is not asked for changes.
    if (cached && cached.version >= record.version && cached.completed === record.completed) return this.cache.keep(record, cached);
    if (!cached && record.version === 0) return this.cache.keep(record, emptySnapshotOf(record)); // nothing recorded yet
    const changes = await this.o.store.changes(record.id, cached?.version ?? 0);
    return this.cache.keep(record, applyChanges(record, cached ?? emptySnapshotOf(record), changes));
  }

  /** Every snapshot after a version (`watchSearch`), for SSE; a quiet stream takes a search over whose lease lapsed. */
  updates(record: SearchRecord, lastEventId: number | undefined, keepAliveMs: number, signal: AbortSignal): AsyncGenerator<SearchUpdate> {
    // A store that went away meanwhile is the store's outage (logged once, `store.down`), not this search's.
    const onQuiet = (stored: SearchRecord) =>
      this.ensureRunning(stored).catch((e: unknown) =>
        this.o.logger.log({ level: isStoreUnavailable(e) ? "info" : "warn", msg: "search.takeover_failed", searchId: stored.id, error: e instanceof Error ? e.message : String(e) }),
      );
    return watchSearch({ record, feed: () => this.feeds.of(record, () => this.snapshot(record)), lastEventId, keepAliveMs, signal, onQuiet });
  }

  /** Stops every search this instance runs and gives up their leases, so another instance may take over. */
  async close(): Promise<void> {
    this.unwatchStore?.();
    this.cache.close();
    await Promise.all([...this.running.values()].map((r) => r.stop(true)));
  }

  /** The sources that serve a query, once per query object (a query read from a remembered body is the same object). */
  private sourcesOf(query: SearchQuery): readonly SearchSource[] {
    let active = this.servedBy.get(query);
    if (!active) {
      active = sourcesFor(query, this.o.sources);
      this.servedBy.set(query, active);
    }
    return active;
  }

  private start(record: SearchRecord, base: SearchSnapshot, sources: readonly SearchSource[], trace?: TraceContext): void {
    const run = runSearch({
      trace, record, base, sources,
      store: this.o.store,
      owner: this.o.instanceId,
      leaseMs: this.o.leaseMs,
      deadlineMs: record.deadlineAt - this.o.clock.now(),
      deadlineHoldMs: this.o.deadlineHoldMs,
      timeoutMs: this.o.timeoutMs,
      maxAttempts: this.o.maxAttempts,
      failedTtlMs: Math.min(this.o.failedTtlMs, this.o.ttlMs),
      logger: this.o.logger,
      metrics: this.o.metrics,
      clock: this.o.clock,
      onEnd: () => this.running.delete(record.id),
      recorded: (s) => this.cache.keepNewer(record, s),
    });
    this.running.set(record.id, run);
  }

  /**
   * Takes a search over when it is not complete, not run here, and its lease has lapsed (its instance
   * stopped or died): the sources still pending run again until the original deadline; past the deadline
   * the search just completes with what it has. Only one instance wins it (a capped store may wait for room).
   */
  private async ensureRunning(record: SearchRecord): Promise<void> {
    if (record.completed || this.running.has(record.id) || this.takingOver.has(record.id)) return;
    if (record.lease && record.lease.expiresAt > this.o.clock.now()) return;
    this.takingOver.add(record.id); // a poll and a stream of this instance may both find it ownerless at once
    try {
      if ((await this.o.store.acquireLease(record.id, this.o.instanceId, this.o.leaseMs)) !== true) return;
      // Read again under the lease: a change the previous owner wrote after `record` was read (its lease lapsed with a
      // write in flight) is the base; from an older one this run's first change would be refused and the run stop.
      const current = await this.o.store.get(record.id);
      if (!current || current.completed) return void (await this.o.store.releaseLease(record.id, this.o.instanceId));
      const base = await this.snapshot(current);
      const pending = new Set(base.sources.filter((p) => p.state === "pending").map((p) => p.id));
      const sources = this.o.sources.filter((s) => pending.has(s.id));
      this.o.logger.log({ level: "info", msg: "search.taken_over", searchId: current.id, version: current.version, sources: sources.length });
      this.start(current, base, this.o.clock.now() < current.deadlineAt ? sources : []);
    } finally {
      this.takingOver.delete(record.id);
    }
  }
}
