import type { AirportDirectory, SearchQuery, SourceError } from "@voar/core";
import { hash53 } from "./prng.js";

/** Makes a simulated source fail, for demos and tests of partial failure and retries. */
export interface SimulatedFailure {
  /** The tagged error the source throws, e.g. `new HttpStatusError({ status: 503 })`. */
  readonly error: SourceError;
  /** Batches the source yields before it fails; default 0 (it fails at its first batch's time). */
  readonly afterBatches?: number | undefined;
  /**
   * How many calls of `search` fail; later calls succeed, to show a retry recovering.
   * Default: every call. Counted per simulator instance.
   */
  readonly times?: number | undefined;
}

/** Options of {@link createSimulator}; every field has a default. */
export interface SimulatorOptions {
  /** Seed of every random choice: the same seed and query always give the same offers. Default 42. */
  readonly seed?: number | undefined;
  /**
   * Time a source takes to answer completely, in ms: one number for every source, a map by source id
   * (sources left out keep their default), or a function of the source id and query, called at the start of each
   * search (`variableLatency(...).latencyMs` draws a time per search). `Infinity`: the search never answers (it
   * hangs until aborted). Default: between 300 ms and 2.5 s, fixed per source id, so progress is visible.
   */
  readonly latencyMs?: number | Readonly<Record<string, number>> | ((sourceId: string, query: SearchQuery) => number) | undefined;
  /** Batches a source splits its offers into, spread evenly over its latency: a number or a map by source id. Default 2-4 per source. */
  readonly batches?: number | Readonly<Record<string, number>> | undefined;
  /**
   * Whether a source sells on a query (called at the start of each search): false, it answers in its time with no
   * offers, as an airline with nothing on a route does (`sellingSwitch(...).sells` turns routes on and off).
   * Default: every source sells what it flies.
   */
  readonly selling?: ((sourceId: string, query: SearchQuery) => boolean) | undefined;
  /** Failures to simulate, by source id (`latam`, `ota:voaja`...). */
  readonly failures?: Readonly<Record<string, SimulatedFailure>> | undefined;
  /** Airport directory; default the core one (`airports` of `@voar/core/airports`). */
  readonly airports?: AirportDirectory | undefined;
}

/** Default seed of the simulator. */
export const DEFAULT_SEED = 42;

/** The default latency of a source: 300 ms to 2.5 s in steps of 50 ms, fixed by its id. */
export const defaultLatencyMs = (sourceId: string): number => 300 + (hash53(`latency|${sourceId}`) % 45) * 50;

/** The default number of batches of a source: 2 to 4, fixed by its id. */
export const defaultBatches = (sourceId: string): number => 2 + (hash53(`batches|${sourceId}`) % 3);

/** The latency of a source for a query under the options. */
export const latencyOf = (options: SimulatorOptions, sourceId: string, query: SearchQuery): number => {
  const l = options.latencyMs;
  const ms = typeof l === "number" ? l : typeof l === "function" ? l(sourceId, query) : l?.[sourceId] ?? defaultLatencyMs(sourceId);
  return Math.max(0, ms);
};

/** The number of batches of a source under the options, at least 1. */
export const batchesOf = (options: SimulatorOptions, sourceId: string): number => {
  const b = options.batches;
  const n = typeof b === "number" ? b : b?.[sourceId] ?? defaultBatches(sourceId);
  return Math.max(1, Math.floor(n));
};
