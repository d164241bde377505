import { AIRLINES, LIVELO, airlineById, sourcesFor, type Airline, type Offer, type SearchQuery, type SearchSource } from "@voar/core";
import { airports } from "@voar/core/airports";
import { airlineOffers } from "./airline-offers.js";
import { LIVELO_PARTNERS, liveloOffers } from "./livelo.js";
import { carrierProfile } from "./carriers.js";
import { searchTokenOf } from "./offer-builder.js";
import { DEFAULT_SEED, type SimulatorOptions } from "./options.js";
import { otaOffers, SIMULATED_OTAS, type SimulatedOta } from "./otas.js";
import { timedSource, type SourceDefinition } from "./timed-source.js";
import { createWorld } from "./world.js";

/** An airline the simulator flies: the core's airline plus its source id and hubs. */
export interface SimulatedAirline extends Airline {
  /** Id of its source and seller, e.g. `latam`. */
  readonly sourceId: string;
  /** Airports it connects passengers through. */
  readonly hubs: readonly string[];
}

/** A running simulator: its sources, and what they fly. */
export interface Simulator {
  /** One airline source per airline (kind `airline`), then one source per OTA (kind `ota`). */
  readonly sources: readonly SearchSource[];
  readonly airlines: readonly SimulatedAirline[];
  readonly otas: readonly SimulatedOta[];
  readonly seed: number;
  /**
   * Every offer the sources serving a query's mode would find (see `sourcesFor`), at once, without
   * latency or simulated failures: the pure view of the same data, for tests and benchmarks.
   */
  offers(query: SearchQuery): readonly Offer[];
}

/**
 * Creates the embedded flight simulator: the default source of the product, so it runs with no account
 * anywhere. Deterministic for a seed, query and date; realistic enough to be worth looking at.
 *
 * @example
 * import { HttpStatusError, search } from "@voar/core";
 *
 * const simulator = createSimulator({
 *   seed: 7,
 *   latencyMs: { latam: 500 },
 *   failures: { gol: { error: new HttpStatusError({ status: 503 }), times: 1 } }, // fails once, then recovers
 * });
 * const latam = simulator.sources.find((s) => s.id === "latam")!;
 * for await (const batch of latam.search(query, AbortSignal.timeout(10_000))) console.log(batch.length, "offers");
 */
export const createSimulator = (options: SimulatorOptions = {}): Simulator => {
  const seed = options.seed ?? DEFAULT_SEED;
  const world = createWorld(seed, options.airports ?? airports);
  const airlines: SimulatedAirline[] = [];
  const definitions: SourceDefinition[] = [];
  for (const airline of AIRLINES) {
    const profile = carrierProfile(airline.id);
    if (!profile) continue;
    airlines.push({ ...airline, sourceId: profile.slug, hubs: profile.hubs });
    definitions.push({
      id: profile.slug,
      name: airline.name,
      kind: "airline",
      airlineId: airline.id,
      offers: (query) =>
        airlineOffers(
          {
            seed,
            sourceId: profile.slug,
            seller: { kind: "airline", id: profile.slug, name: airline.name, site: `${profile.slug}.example`, url: `https://${profile.slug}.example` },
            searchToken: searchTokenOf(seed, profile.slug, query),
          },
          world.flights(airline.id, query),
        ),
    });
  }
  const livelo = airlineById(LIVELO);
  if (livelo) {
    // Livelo flies nothing: it sells its partners' seats for its own points, as a source of its own (Companhia 34).
    airlines.push({ ...livelo, sourceId: "livelo", hubs: [] });
    definitions.push({
      id: "livelo",
      name: livelo.name,
      kind: "airline",
      airlineId: LIVELO,
      offers: (query) =>
        liveloOffers(
          {
            seed,
            sourceId: "livelo",
            seller: { kind: "airline", id: "livelo", name: livelo.name, site: "livelo.example", url: "https://livelo.example" },
            searchToken: searchTokenOf(seed, "livelo", query),
          },
          LIVELO_PARTNERS.flatMap((id) => world.flights(id, query)),
        ),
    });
  }
  for (const ota of SIMULATED_OTAS) {
    definitions.push({
      id: ota.id,
      name: ota.name,
      kind: "ota",
      offers: (query) =>
        otaOffers(
          {
            seed,
            sourceId: ota.id,
            seller: { kind: "ota", id: ota.id, name: ota.name, site: ota.site, url: `https://${ota.site}` },
            searchToken: searchTokenOf(seed, ota.id, query),
          },
          ota,
          AIRLINES.flatMap((a) => world.flights(a.id, query)),
        ),
    });
  }
  const byId = new Map(definitions.map((d) => [d.id, d]));
  const sources = definitions.map((d) => timedSource(d, options));
  return {
    sources,
    airlines,
    otas: SIMULATED_OTAS,
    seed,
    offers: (query) => sourcesFor(query, sources).flatMap((s) => byId.get(s.id)?.offers(query) ?? []),
  };
};

/**
 * Every offer a search of the query would find in the simulator, at once: the pure function behind the
 * simulated sources, for tests and benchmarks. Creates a simulator each call; keep one with
 * {@link createSimulator} to reuse its cache.
 *
 * @example
 * const offers = simulateOffers({ origin: "CNF", destination: "SDU", departureDate: resolveRelativeDate("+30"),
 *   passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } });
 */
export const simulateOffers = (query: SearchQuery, options: SimulatorOptions = {}): readonly Offer[] => createSimulator(options).offers(query);
