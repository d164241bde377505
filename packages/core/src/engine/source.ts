import type { Offer } from "../domain/offer.js";
import type { SearchQuery } from "../query/query.js";

/**
 * A place offers come from: an airline, an OTA, an upstream service, the simulator, a recorded fixture.
 *
 * Given a query and an AbortSignal, it yields batches of offers as it finds them, and returns when done.
 * It fails by throwing a tagged `SourceError` (see `errors/source-errors.ts`); the engine retries the
 * retryable ones. It must stop promptly when the signal aborts.
 *
 * @example
 * const source: SearchSource = {
 *   id: "latam", name: "LATAM", kind: "airline", airlineId: 1,
 *   async *search(query, signal) { yield await fetchOffers(query, signal); },
 * };
 */
export interface SearchSource {
  /** Stable id, unique within a search (`latam`, `ota:voaja`, `upstream:agency`). */
  readonly id: string;
  /** Display name shown in progress. */
  readonly name: string;
  /** Airline sources serve Mode A and single-airline searches; OTA sources serve Mode B. */
  readonly kind: "airline" | "ota";
  /** Companhia id of the airline this source covers, for single-airline searches. */
  readonly airlineId?: number | undefined;
  /** Overrides the default rule of which queries this source serves (see {@link sourcesFor}). */
  readonly serves?: ((query: SearchQuery) => boolean) | undefined;
  /** Yields batches of offers for a query. */
  search(query: SearchQuery, signal: AbortSignal): AsyncIterable<readonly Offer[]>;
  /**
   * While an answer for the query is on its way to this source (a request an upstream is still answering), how long
   * until it is expected, in ms; undefined when none is. At the search's deadline the engine waits for it, up to
   * `SearchOptions.deadlineHoldMs`, so that a slow upstream's answer is not thrown away.
   */
  answerDueMs?(query: SearchQuery): number | undefined;
}

/** The sources that serve a query's mode: airlines for Mode A, OTAs for Mode B, one airline for single-airline. */
export const sourcesFor = (query: SearchQuery, sources: readonly SearchSource[]): readonly SearchSource[] =>
  sources.filter((s) => (s.serves ? s.serves(query) : servesByDefault(query, s)));

const servesByDefault = (query: SearchQuery, s: SearchSource): boolean => {
  switch (query.mode.kind) {
    case "all-airlines":
      return s.kind === "airline";
    case "ota-comparison":
      return s.kind === "ota";
    case "single-airline":
      return s.kind === "airline" && s.airlineId === query.mode.airlineId;
  }
};
