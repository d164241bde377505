import { vi } from "vitest";
import { search, type Offer, type SearchOptions, type SearchQuery, type SearchSnapshot, type SearchSource } from "@voar/core";

/** A search running in virtual time: every snapshot, and the end. */
export interface RunningSearch {
  readonly snapshots: SearchSnapshot[];
  /** When each snapshot came, ms after the start (virtual time). */
  readonly times: number[];
  /** When the first offer came, ms after the start; undefined when none did. */
  firstOfferAt(): number | undefined;
  last(): SearchSnapshot;
  /** The last snapshot's offers, without their freshness members (compared to fixtures; tested apart). */
  offers(): Offer[];
  stop(): void;
}

/** Starts a search; the caller moves the fake timers. */
export const startSearch = (query: SearchQuery, sources: readonly SearchSource[], options: SearchOptions = {}): RunningSearch => {
  const snapshots: SearchSnapshot[] = [];
  const times: number[] = [];
  const started = Date.now();
  const sub = search(query, sources, options).subscribe((s) => {
    snapshots.push(s);
    times.push(Date.now() - started);
  });
  return {
    snapshots,
    times,
    firstOfferAt: () => {
      const i = snapshots.findIndex((s) => s.offers.size > 0);
      return i < 0 ? undefined : times[i];
    },
    last: () => snapshots.at(-1)!,
    offers: () => [...snapshots.at(-1)!.offers.values()].map(withoutFreshness),
    stop: () => sub.unsubscribe(),
  };
};

/** Runs a search to its end in virtual time (fake timers must be on). */
export const runSearch = async (query: SearchQuery, sources: readonly SearchSource[], options: SearchOptions = {}, budgetMs = 300_000): Promise<RunningSearch> => {
  const run = startSearch(query, sources, options);
  for (let t = 0; t < budgetMs && !run.last().completed; t += 250) await vi.advanceTimersByTimeAsync(250);
  return run;
};

/** Offers by id, for equality regardless of order. */
export const byId = (offers: readonly Offer[]): Map<string, Offer> => new Map(offers.map((o) => [o.id, o]));

/** An offer without `seenAt` and `validUntil`, which depend on when it was received. */
export const withoutFreshness = (o: Offer): Offer => {
  if (o.seenAt === undefined && o.validUntil === undefined) return o;
  const { seenAt: _seen, validUntil: _valid, ...rest } = o;
  return rest;
};
