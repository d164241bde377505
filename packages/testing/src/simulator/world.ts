import type { AirportDirectory, SearchQuery } from "@voar/core";
import { carrierProfile } from "./carriers.js";
import { priceFlight, type FlightFares } from "./flight-fares.js";
import { buildItineraries } from "./itineraries.js";
import { createNetwork } from "./network.js";

/** The simulated world of one seed: who flies where, when and at what price. */
export interface SimulatedWorld {
  readonly seed: number;
  /**
   * The flights an airline sells for a query, priced for its passengers: outbound on the departure date
   * and, for a round trip, return (destination to origin) on the return date, each direction priced on
   * its own as Brazilian airlines price one-ways. Empty when the airline does not fly the route.
   */
  flights(airlineId: number, query: SearchQuery): readonly FlightFares[];
}

/** How many (airline, query) answers a world remembers, so OTAs quoting the same flights reuse them. */
const CACHE_SIZE = 128;

/** Builds the world of a seed over an airport directory. Pure: the cache only saves recomputation. */
export const createWorld = (seed: number, directory: AirportDirectory): SimulatedWorld => {
  const network = createNetwork(directory);
  const cache = new Map<string, readonly FlightFares[]>();
  const compute = (airlineId: number, query: SearchQuery): readonly FlightFares[] => {
    const profile = carrierProfile(airlineId);
    if (!profile) return [];
    const legs = [
      { origin: query.origin, destination: query.destination, date: query.departureDate, direction: "outbound" as const },
      ...(query.returnDate === undefined
        ? []
        : [{ origin: query.destination, destination: query.origin, date: query.returnDate, direction: "return" as const }]),
    ];
    return legs.flatMap((leg) =>
      buildItineraries(network, { seed, airlineId, ...leg }).map((sim) => priceFlight(seed, profile, sim, query.passengers)),
    );
  };
  return {
    seed,
    flights(airlineId, query) {
      const p = query.passengers;
      const key = [airlineId, query.origin, query.destination, query.departureDate, query.returnDate ?? "", p.adults, p.children, p.infants].join("|");
      let found = cache.get(key);
      if (!found) {
        found = compute(airlineId, query);
        if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(key, found);
      }
      return found;
    },
  };
};
