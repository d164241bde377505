import { StringMap } from "./string-map.js";
import type { Offer } from "../domain/offer.js";
import type { SearchQuery } from "../query/query.js";
import type { SourceProgress } from "../errors/source-progress.js";
import { emptyDirectionIndex, groupingFor, type DirectionIndex, type GroupingKind } from "./result-index.js";

/**
 * The state of a search at one moment. Snapshots are immutable values: each event yields a new one that
 * shares structure with the previous (persistent maps and trees), so a snapshot costs little to keep.
 */
export interface SearchSnapshot {
  readonly query: SearchQuery;
  /** Grows by one with every change. */
  readonly version: number;
  /** True once every source finished or failed, or the deadline passed. */
  readonly completed: boolean;
  /** Why the search completed. */
  readonly completion?: "finished" | "deadline" | undefined;
  /** Per-source progress, in the order the sources were given. */
  readonly sources: readonly SourceProgress[];
  /** Every offer received, by id (refined in place when a source sends the same id again). */
  readonly offers: StringMap<Offer>;
  /** How offers are grouped for presentation (follows the query's mode). */
  readonly grouping: GroupingKind;
  readonly outbound: DirectionIndex;
  readonly inbound: DirectionIndex;
  /** Airlines (Companhia ids) whose cash offers are hidden: their Pagante switch is off. */
  readonly hiddenCashAirlines: ReadonlySet<number>;
}

/** Options of a new snapshot. */
export interface InitialSnapshotOptions {
  /** Airlines whose Pagante switch is off: their cash offers never enter the search. */
  readonly hiddenCashAirlines?: Iterable<number> | undefined;
}

/** The snapshot of a search that has not heard from any source yet. */
export const initialSnapshot = (
  query: SearchQuery,
  sources: readonly { readonly id: string; readonly name: string }[],
  options: InitialSnapshotOptions = {},
): SearchSnapshot => ({
  query,
  version: 0,
  completed: sources.length === 0,
  completion: sources.length === 0 ? "finished" : undefined,
  sources: sources.map((s) => ({ id: s.id, name: s.name, state: "pending", items: 0, attempts: 1 })),
  offers: StringMap.empty(),
  grouping: groupingFor(query.mode),
  outbound: emptyDirectionIndex(),
  inbound: emptyDirectionIndex(),
  hiddenCashAirlines: new Set(options.hiddenCashAirlines ?? []),
});

/** Number of offers in a snapshot. */
export const offerCount = (s: SearchSnapshot): number => s.offers.size;

/** Whether any source has produced offers. */
export const hasResults = (s: SearchSnapshot): boolean => s.offers.size > 0;

/** Sources that failed. */
export const failedSources = (s: SearchSnapshot): readonly SourceProgress[] => s.sources.filter((p) => p.state === "failed");
