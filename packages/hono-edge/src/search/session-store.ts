import type { SearchQuery } from "@voar/core";
import type { AlertStore } from "../alerts/alert-store.js";
import type { CalendarStore } from "../calendar/calendar-store.js";
import type { SearchChange } from "./search-change.js";

/**
 * The session store port: where searches live between requests. The in-memory store is the default; a
 * shared store (Redis) lets several instances serve the same searches. Everything crossing the port is
 * plain data (JSON-serializable), every method is async, and expiry runs on the store's own clock.
 *
 * What a shared implementation must guarantee:
 * - `openOrJoin` is atomic per `key` (e.g. `SET key id NX`): two instances never both create a search.
 * - `append` checks the lease owner and writes the change, the record's version/completion and the lease
 *   renewal atomically (e.g. a Lua script over a hash and a list), then notifies watchers (pub/sub). Versions
 *   are consecutive: a store that lost changes its owner wrote (a failover of a replicated store) says so
 *   (`"behind"`), and the owner writes the search back from its memory (`restore`).
 * - Completed searches expire `ttl` after completion; the others at their deadline plus `ttl`.
 * - A completing change may carry `rejoinMs`: after that long, `openOrJoin` no longer joins the search for
 *   its key (a new candidate is stored and takes the key over), while `get`/`changes` still answer it by id
 *   until its TTL.
 */

/** Which instance runs a search's engine, and until when (store clock, epoch ms) its claim holds. */
export interface SearchLease {
  readonly owner: string;
  readonly expiresAt: number;
}

/** A search as the store keeps it. */
export interface SearchRecord {
  /** The search id: the envelope's `Token` / `LeaseId`. */
  readonly id: string;
  /** What makes two requests the same search: tenant, normalized query, Pagante state (see `searchKey`). */
  readonly key: string;
  /** The tenant that owns it; other tenants cannot poll it. */
  readonly tenant: string;
  readonly query: SearchQuery;
  /** The sources the search runs, in order: with the query, what rebuilds its empty snapshot. */
  readonly sources: readonly { readonly id: string; readonly name: string }[];
  /** Airlines whose cash offers the search leaves out (Pagante switch off when it started). */
  readonly hiddenCashAirlines: readonly number[];
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms by which the search completes (creation + deadline). */
  readonly deadlineAt: number;
  /** Version of the latest change; 0 before any. */
  readonly version: number;
  readonly completed: boolean;
  /** Epoch ms of completion; the TTL counts from here. */
  readonly completedAt?: number | undefined;
  readonly lease?: SearchLease | undefined;
}

/** The outcome of {@link SessionStore.openOrJoin}. */
export interface OpenResult {
  readonly record: SearchRecord;
  /** True when the candidate was stored: the caller holds its lease and must run the search. */
  readonly created: boolean;
}

/**
 * Thrown by {@link SessionStore.openOrJoin} when the store keeps as many searches as it may and none can make
 * room (each is running: a running search is never evicted). `scope` says which cap was hit: the tenant's
 * (`maxSessionsPerTenant`) or the whole store's (`maxSessions`); `retryAfterSeconds` is how long until a
 * running search reaches its deadline and so frees its place. Plain data, so any store can throw it.
 */
export class SessionCapacityReached extends Error {
  readonly _tag = "SessionCapacityReached";
  constructor(
    readonly scope: "tenant" | "instance",
    readonly retryAfterSeconds: number,
  ) {
    super(`session store full (${scope}): retry in ${retryAfterSeconds} s`);
  }
}

/** Stops a watch. */
export type Unwatch = () => void;

/** The session store port. */
export interface SessionStore {
  /**
   * The id of a new search of `key`, from a fresh unique `id`: a store that spreads searches over shards puts
   * the shard of the key in it. Absent: `id` itself.
   */
  searchIdFor?(key: string, id: string): string;
  /**
   * Atomically returns the live search of `candidate.key`, or stores `candidate` (its `lease` already set to
   * the caller) when there is none, it expired, or it completed longer than its change's `rejoinMs` ago. A store
   * may keep it under another id than a candidate's not minted by {@link searchIdFor}: the record returned says.
   * Joining never counts against a cap; storing does: throws {@link SessionCapacityReached} when the store
   * (or the candidate's tenant) is at its cap and only running searches are kept.
   */
  openOrJoin(candidate: SearchRecord): Promise<OpenResult>;
  /** A live search by id; undefined when unknown, evicted or expired. */
  get(id: string): Promise<SearchRecord | undefined>;
  /**
   * Appends the next change of a search if `owner` holds its lease, renewing the lease for `leaseMs` and
   * recording the version and completion. True also when the store had this version already (a retry whose answer
   * was lost). False when the lease is someone else's or the search is gone: the caller must stop running it.
   * `"behind"` when the store lacks versions before this one (it lost writes): the owner writes it back whole.
   */
  append(id: string, change: SearchChange, owner: string, leaseMs: number): Promise<boolean | "behind">;
  /**
   * The changes after a version, oldest first. If older changes were compacted, the first one returned is
   * `cumulative` (the whole state at its version). Empty when the search is unknown.
   */
  changes(id: string, afterVersion: number): Promise<readonly SearchChange[]>;
  /**
   * Takes or renews the lease for `leaseMs` when it is free, expired or already `owner`'s. `written`, from the
   * owner's heartbeat: the last version it wrote; `"behind"` (nothing renewed) when the store holds less. A store
   * with caps may refuse a takeover while a cap is reached (false): the search is taken over once there is room.
   */
  acquireLease(id: string, owner: string, leaseMs: number, written?: number): Promise<boolean | "behind">;
  /** Gives the lease up (after completion, or at shutdown so another instance may take over at once). */
  releaseLease(id: string, owner: string): Promise<void>;
  /**
   * Calls `listener` with the new version after every append to the search. A store that can lose its
   * connection also calls it when the connection drops (with the version it last announced, or 0), so a
   * watcher reads the store at once and learns that it is unavailable instead of waiting in silence.
   */
  watch(id: string, listener: (version: number) => void): Promise<Unwatch>;

  /**
   * Where the price calendars live (what each is: its days and their search ids), beside the searches and on
   * the same store, so a calendar's `Token` works on every instance that shares it. Absent: no calendars
   * (`POST /ConsultaAereo/Calendario` answers 404).
   */
  readonly calendars?: CalendarStore | undefined;

  /**
   * Where the price watches live (the watches, their checks' schedule and leases, their alerts and deliveries), on
   * the same store, so every instance that shares it serves them and one of them checks each day. Absent: no
   * alerts (the `/Alertas` routes answer 404).
   */
  readonly alerts?: AlertStore | undefined;

  // A store that can be unreachable (Redis) implements the three below; one that cannot (in memory) may omit them.

  /**
   * Whether the store answers now (readiness): false while it is unreachable or its circuit breaker is
   * open. Never throws, answers within the store's command timeout. Absent: always ready.
   */
  ready?(): Promise<boolean>;
  /**
   * Calls `listener(false)` when the store becomes unreachable and `listener(true)` when it answers again.
   * While it is unreachable every other method rejects at once with `StoreUnavailable`.
   */
  onAvailability?(listener: (available: boolean) => void): Unwatch;
  /**
   * Writes a search back that the store lost (restarted empty), or holds at an older version than its owner
   * wrote (a failover lost its last writes), from the memory of the instance that runs it: the record at
   * `change.version`, with `owner`'s lease for `leaseMs`, and one cumulative change (the whole state). The query
   * mapping is set again only if no other search took it meanwhile. False (nothing written) when the store holds
   * this version or a later one, the lease is another's, or the search would already have expired.
   */
  restore?(record: SearchRecord, change: SearchChange, owner: string, leaseMs: number): Promise<boolean>;
}
