/** Passenger counts of a search. */
export interface Passengers {
  readonly adults: number;
  readonly children: number;
  readonly infants: number;
}

/**
 * What a search covers, chosen on the wire by `Companhia`:
 * all airlines (Mode A), all OTAs (Mode B) or one airline (Mode B shape without `Outros`).
 */
export type SearchMode =
  | { readonly kind: "all-airlines" }
  | { readonly kind: "ota-comparison" }
  | { readonly kind: "single-airline"; readonly airlineId: number };

/** A validated, normalized flight search query. */
export interface SearchQuery {
  /** IATA airport code, upper case. */
  readonly origin: string;
  /** IATA airport code, upper case. */
  readonly destination: string;
  /** Outbound date, `YYYY-MM-DD`. */
  readonly departureDate: string;
  /** Return date, `YYYY-MM-DD`; absent for a one-way search. */
  readonly returnDate?: string | undefined;
  readonly passengers: Passengers;
  readonly mode: SearchMode;
}

/** The `Companhia` wire value of a mode. */
export const companhiaOf = (mode: SearchMode): number =>
  mode.kind === "all-airlines" ? -1 : mode.kind === "ota-comparison" ? 1300 : mode.airlineId;

/**
 * A stable key of a query: two requests with the same key are the same search (decisions.md).
 * Paging fields are not part of a query, so they never start a new search.
 */
export const queryKey = (q: SearchQuery): string =>
  [
    q.origin,
    q.destination,
    q.departureDate,
    q.returnDate ?? "",
    q.passengers.adults,
    q.passengers.children,
    q.passengers.infants,
    companhiaOf(q.mode),
  ].join("|");
