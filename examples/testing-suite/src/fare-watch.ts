import { isCashOffer, search, type Money, type SearchOptions, type SearchQuery, type SearchSnapshot, type SearchSource } from "@voar/core";
import { distinctUntilChanged, map, type Observable } from "rxjs";

/** What a fare alert shows: the cheapest cash fare found so far, and how far the search has come. */
export interface FareWatch {
  /** The cheapest cash total so far (all passengers, taxes included); undefined until one arrives. */
  readonly cheapest: Money | undefined;
  /** Sources that failed, by id. */
  readonly failed: readonly string[];
  readonly completed: boolean;
}

const watchOf = (s: SearchSnapshot): FareWatch => {
  let cheapest: Money | undefined;
  for (const offer of s.offers.values()) {
    if (isCashOffer(offer) && (cheapest === undefined || offer.total.amount < cheapest.amount)) cheapest = offer.total;
  }
  return { cheapest, failed: s.sources.filter((p) => p.state === "failed").map((p) => p.id), completed: s.completed };
};

const same = (a: FareWatch, b: FareWatch) => a.cheapest?.amount === b.cheapest?.amount && a.completed === b.completed && a.failed.length === b.failed.length;

/**
 * This application's own code under test: a fare alert over a Voar search. It emits when the cheapest cash
 * fare drops, a source fails, or the search completes; nothing else.
 */
export const watchFare = (query: SearchQuery, sources: readonly SearchSource[], options?: SearchOptions): Observable<FareWatch> =>
  search(query, sources, options).pipe(map(watchOf), distinctUntilChanged(same));
