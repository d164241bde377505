/**
 * Keeps fixtures small: sources that only pass on the offers of a few chosen flights, the same flights for
 * every source, so that OTAs still compare the same flight.
 */
import type { Offer, SearchQuery, SearchSource } from "@voar/core";

/**
 * The flights kept for a query: per direction and validating airline, the first `perAirline` flight keys in a
 * stable order, among every offer the pure view of the simulator gives. By the airline that flies, not the
 * source: a programme selling airlines' seats (Livelo) adds no flights of its own.
 */
export const chooseFlights = (offers: readonly Offer[], perAirline: number): ReadonlySet<string> => {
  const byGroup = new Map<string, Set<string>>();
  for (const o of [...offers].sort((a, b) => a.flightKey.localeCompare(b.flightKey))) {
    const group = `${o.itinerary.direction}|${o.validatingCarrier.iata}`;
    const keys = byGroup.get(group) ?? new Set<string>();
    if (keys.size < perAirline) keys.add(o.flightKey);
    byGroup.set(group, keys);
  }
  return new Set([...byGroup.values()].flatMap((keys) => [...keys]));
};

/**
 * A source that yields only the offers of the flights `keep(query)` names (an empty batch is dropped).
 *
 * @example
 * const sources = simulator.sources.map((s) => fewFlights(s, (q) => chooseFlights(simulator.offers(q), 2)));
 */
export const fewFlights = (source: SearchSource, keep: (query: SearchQuery) => ReadonlySet<string>): SearchSource => ({
  ...source,
  async *search(query, signal) {
    const kept = keep(query);
    for await (const batch of source.search(query, signal)) {
      const offers = batch.filter((o) => kept.has(o.flightKey));
      if (offers.length > 0) yield offers;
    }
  },
});
