import { initialSnapshot, reduce, type Offer, type SearchSnapshot, type SourceProgress } from "@voar/core";
import type { SearchRecord } from "./session-store.js";

/**
 * One step of a search as the session store keeps it: plain, serializable data from which any instance
 * rebuilds the engine's snapshot with core's `initialSnapshot` and `reduce`. The store appends one per
 * snapshot version; replaying them in order gives the same offers, progress and version numbers.
 */
export interface SearchChange {
  /** The snapshot version this change leads to; consecutive within a search (1, 2, 3...). */
  readonly version: number;
  /** Offers new or refined at this version (every offer when `cumulative`). */
  readonly offers: readonly Offer[];
  /** Progress of every source at this version. */
  readonly sources: readonly SourceProgress[];
  readonly completed: boolean;
  readonly completion?: "finished" | "deadline" | undefined;
  /**
   * On the completing change only: how long after completion a new request for the same query may still
   * join this search (see `rejoinWindowMs`); absent, for the whole TTL. Polls by id answer it either way.
   */
  readonly rejoinMs?: number | undefined;
  /**
   * True when this change holds the whole state at its version: a store that compacts its log replaces
   * the oldest changes by one cumulative change, and the versions before it are gone.
   */
  readonly cumulative?: boolean | undefined;
}

/** The snapshot of a search before any change (version 0). */
export const emptySnapshotOf = (record: SearchRecord): SearchSnapshot =>
  initialSnapshot(record.query, record.sources, { hiddenCashAirlines: record.hiddenCashAirlines });

/**
 * Applies a change to a snapshot: its offers through core's `reduce` (one batch per source, so the result
 * indexes and groups are built exactly as the engine built them), then the recorded progress and version.
 * A cumulative change starts over from the search's empty snapshot.
 */
export const applyChange = (record: SearchRecord, s: SearchSnapshot, change: SearchChange): SearchSnapshot => {
  let next = change.cumulative ? emptySnapshotOf(record) : s;
  const bySource = new Map<string, Offer[]>();
  for (const offer of change.offers) {
    const list = bySource.get(offer.sourceId);
    if (list) list.push(offer);
    else bySource.set(offer.sourceId, [offer]);
  }
  for (const [sourceId, offers] of bySource) next = reduce(next, { type: "batch", sourceId, offers });
  return { ...next, version: change.version, sources: change.sources, completed: change.completed, completion: change.completion };
};

/** Folds changes, oldest first, onto a snapshot. */
export const applyChanges = (record: SearchRecord, s: SearchSnapshot, changes: readonly SearchChange[]): SearchSnapshot =>
  changes.reduce((acc, c) => applyChange(record, acc, c), s);

/** Two consecutive changes as one cumulative change (a later version of an offer wins). */
export const mergeChanges = (earlier: SearchChange, later: SearchChange): SearchChange => {
  const offers = new Map<string, Offer>();
  for (const o of earlier.offers) offers.set(o.id, o);
  for (const o of later.offers) offers.set(o.id, o);
  return { ...later, offers: [...offers.values()], cumulative: true };
};

/**
 * The offers of an engine snapshot that a previous one did not have, or had in another version. `seen`
 * holds the offers already recorded and is updated; the engine refines an offer by replacing it, so
 * identity tells a change.
 */
export const changedOffers = (snapshot: SearchSnapshot, seen: Map<string, Offer>): Offer[] => {
  const changed: Offer[] = [];
  for (const [id, offer] of snapshot.offers) {
    if (seen.get(id) === offer) continue;
    seen.set(id, offer);
    changed.push(offer);
  }
  return changed;
};

/**
 * When every failed source named how long until it may be asked again (an open breaker's cool-down, a rate
 * limit's `Retry-After`), the soonest of those waits: before it, a new search would fail the same way at once.
 * Undefined when any failure named none (it may pass on the next attempt).
 */
const soonestAskable = (failed: readonly SourceProgress[]): number | undefined => {
  let soonest = Number.POSITIVE_INFINITY;
  for (const p of failed) {
    const wait = p.error?.retryAfterMs;
    if (wait === undefined) return undefined;
    soonest = Math.min(soonest, wait);
  }
  return Number.isFinite(soonest) ? soonest : undefined;
};

/** How long a search in which every source failed still answers a re-sent body (see `rejoinWindowMs`). */
export const FAILED_REJOIN_MS = 12_000;

/**
 * How long a completed search is shared with new requests for the same query (its key), from the progress
 * of its sources when it completed: the rule that keeps a failure from being replayed for the whole TTL.
 * - every source failed and nothing was found (the answer is an error): {@link FAILED_REJOIN_MS} at most
 *   (or `failedTtlMs` if shorter): long enough for a client that polls by re-sending its body (legacy
 *   clients, every 10 s) to receive the failure once; after it the next identical request starts a new
 *   search that asks the sources again. When every source named a wait (breakers open, rate limits), until
 *   the soonest of them ends instead (within `failedTtlMs`): a search started before would fail the same way.
 *   A retryable answer says when in `Retry-After`;
 * - some source failed, for any reason (a timeout or 5xx, but also an unreadable answer or a .NET exception,
 *   which a real upstream often stops sending a minute later): `failedTtlMs`, after which a new search asks
 *   the sources again; the upstream's breaker keeps a source that keeps failing from being asked each time;
 * - otherwise (every source answered): undefined, the whole TTL.
 *
 * A search in which a price calendar's budget stopped a source (a day of that calendar) is never joined by a
 * new request (0): the failure is the calendar's, and a search of the same day outside it has its own budget.
 */
export const rejoinWindowMs = (sources: readonly SourceProgress[], failedTtlMs: number): number | undefined => {
  const failed = sources.filter((p) => p.state === "failed");
  if (failed.some((p) => p.error?.scope === "calendar")) return 0;
  const found = sources.some((p) => p.items > 0);
  if (sources.length > 0 && failed.length === sources.length && !found) return Math.min(Math.max(FAILED_REJOIN_MS, soonestAskable(failed) ?? 0), failedTtlMs);
  if (failed.length > 0) return failedTtlMs;
  return undefined;
};

/**
 * Seconds until a new request for a completed search's query starts a new search that asks the sources
 * again (the end of its rejoin window, see {@link rejoinWindowMs}), at least 1; undefined when every new
 * request would join it for its whole TTL, or the window has passed. `now` on the store's clock.
 */
export const secondsUntilRejoinEnds = (
  record: Pick<SearchRecord, "completedAt">,
  s: Pick<SearchSnapshot, "completed" | "sources">,
  failedTtlMs: number,
  now: number,
): number | undefined => {
  if (!s.completed || record.completedAt === undefined) return undefined;
  const window = rejoinWindowMs(s.sources, failedTtlMs);
  if (window === undefined) return undefined;
  const left = record.completedAt + window - now;
  return left > 0 ? Math.max(1, Math.ceil(left / 1000)) : undefined;
};

const stoppedMessage = "a busca foi interrompida antes desta fonte responder";

/**
 * Progress to record: the engine's for the sources it runs (never fewer items than already recorded), the
 * recorded one for the others; once complete, a source nobody ran any more is failed, so a completed
 * search never shows a pending source.
 */
export const mergeProgress = (recorded: readonly SourceProgress[], engine: readonly SourceProgress[], completed: boolean): SourceProgress[] =>
  recorded.map((p) => {
    const e = engine.find((x) => x.id === p.id);
    if (e) return { ...e, items: Math.max(e.items, p.items) };
    if (completed && p.state === "pending") return { ...p, state: "failed", error: { tag: "DeadlineExceeded", message: stoppedMessage, retryable: true } };
    return p;
  });
