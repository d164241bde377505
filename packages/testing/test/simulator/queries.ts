import type { Passengers, SearchMode, SearchQuery } from "@voar/core";

/** Options of a test query; defaults: one adult, one-way, all airlines. */
export interface QueryOptions {
  readonly returnDate?: string;
  readonly passengers?: Partial<Passengers>;
  readonly mode?: SearchMode;
}

/** A search query for tests, dated in the future of any recorded capture. */
export const query = (origin: string, destination: string, departureDate = "2025-07-22", options: QueryOptions = {}): SearchQuery => ({
  origin,
  destination,
  departureDate,
  ...(options.returnDate === undefined ? {} : { returnDate: options.returnDate }),
  passengers: { adults: 1, children: 0, infants: 0, ...options.passengers },
  mode: options.mode ?? { kind: "all-airlines" },
});

/** Mode B: every OTA. */
export const OTAS: SearchMode = { kind: "ota-comparison" };
