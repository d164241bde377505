/**
 * Airline times that vary from one search to the next, as a real upstream's do: a fixed time or a uniform range,
 * a heavy tail (one search in N much slower), searches that never answer (a hang, ended by the upstream's own
 * deadline), and airlines that sell nothing on a route until switched on. For `createSimulator({ latencyMs,
 * selling })`, so the fake upstream answers with these times, and users can test their own pacing against them.
 *
 * Each draw is keyed by the seed, the source, the query and how many searches of that query the source ran before
 * it, so two simulators with the same seed draw the same times for the same sequence of searches: a plain client on
 * one fake upstream and the service on another see the same airline times, search by search.
 */
import { queryKey, type SearchQuery } from "@voar/core";
import { rngFor } from "./prng.js";

/** How long one source takes to answer a search, drawn anew for each search. */
export interface LatencyDistribution {
  /** The time of an ordinary search, in ms: a fixed time, or uniform between two times. */
  readonly ms: number | readonly [min: number, max: number];
  /**
   * A heavy tail: this share of searches (0..1) take longer, uniform from the ordinary time up to `upToMs`
   * (Azul answering in 4 s, one search in seven up to 50 s: `{ ms: 4_000, tail: { share: 1 / 7, upToMs: 50_000 } }`).
   */
  readonly tail?: { readonly share: number; readonly upToMs: number } | undefined;
  /** This share of searches (0..1) never answer: the source hangs until the search ends (its deadline, or the caller). */
  readonly hang?: number | undefined;
}

/** Options of {@link variableLatency}. */
export interface VariableLatencyOptions {
  /** Seed of the draws. Default 1. */
  readonly seed?: number | undefined;
  /** By source id (`latam`, `gol`...): a distribution, or a fixed time in ms. Sources left out answer in `otherMs`. */
  readonly sources: Readonly<Record<string, LatencyDistribution | number>>;
  /** Time of the sources not listed, in ms. Default 1 000. */
  readonly otherMs?: number | undefined;
}

/** One drawn time: what a search of a source took (or `Infinity`: it hung). */
export interface DrawnLatency {
  readonly sourceId: string;
  /** `queryKey` of the search's query. */
  readonly query: string;
  /** 1 for the first search of this query by this source, 2 for the next... */
  readonly occurrence: number;
  readonly ms: number;
}

/** Times drawn per search, for `createSimulator({ latencyMs })`. */
export interface VariableLatency {
  /** The time of the source's search of `query`, drawn at the search's start; `Infinity` when it hangs. */
  readonly latencyMs: (sourceId: string, query: SearchQuery) => number;
  /** Every time drawn so far, oldest first. */
  drawn(): readonly DrawnLatency[];
}

/** Draws one time of a distribution. */
export const drawLatency = (d: LatencyDistribution | number, random: () => number): number => {
  if (typeof d === "number") return d;
  // Four draws, always made, so that a change of one share does not shift the others' sequence.
  const [hang, tail, where, far] = [random(), random(), random(), random()];
  if (d.hang !== undefined && hang < d.hang) return Number.POSITIVE_INFINITY;
  const base = typeof d.ms === "number" ? d.ms : d.ms[0] + where * (d.ms[1] - d.ms[0]);
  if (d.tail !== undefined && tail < d.tail.share) return Math.round(base + far * Math.max(0, d.tail.upToMs - base));
  return Math.round(base);
};

/**
 * Airline times that vary per search.
 *
 * @example
 * const times = variableLatency({ seed: 7, sources: {
 *   latam: { ms: [1_000, 6_000] },                               // uniform 1-6 s
 *   gol: { ms: [5_000, 40_000] },
 *   azul: { ms: 4_000, tail: { share: 1 / 7, upToMs: 50_000 } }, // one search in seven up to 50 s
 *   iberia: { ms: 45_000, hang: 0.25 },                          // one search in four never answers
 * } });
 * const upstream = createFakeUpstream({ backend: liveBackend({ sources: createSimulator({ latencyMs: times.latencyMs, batches: 1 }).sources }) });
 */
export const variableLatency = (options: VariableLatencyOptions): VariableLatency => {
  const seed = options.seed ?? 1;
  const counts = new Map<string, number>();
  const drawn: DrawnLatency[] = [];
  return {
    latencyMs: (sourceId, query) => {
      const key = queryKey(query);
      const count = `${sourceId}|${key}`;
      const occurrence = (counts.get(count) ?? 0) + 1;
      counts.set(count, occurrence);
      const d = options.sources[sourceId] ?? options.otherMs ?? 1_000;
      const ms = drawLatency(d, rngFor(seed, "latency", sourceId, key, occurrence).next);
      drawn.push({ sourceId, query: key, occurrence, ms });
      return ms;
    },
    drawn: () => drawn,
  };
};

/** Which sources sell on which routes: an airline with nothing on a route until it starts selling there. */
export interface SellingSwitch {
  /** For `createSimulator({ selling })`: false while the source is switched off on the query's route. */
  readonly sells: (sourceId: string, query: SearchQuery) => boolean;
  /** The source sells on the route (`GRU-SSA`, origin and destination) from its next search on. */
  turnOn(sourceId: string, route: string): void;
  /** The source sells nothing on the route from its next search on. */
  turnOff(sourceId: string, route: string): void;
}

/**
 * A switch of the sources' sales per route: each source switched off on a route answers there in its usual time
 * with no offers, until it is switched on.
 *
 * @example
 * const selling = sellingSwitch([{ sourceId: "azul", route: "GRU-SSA" }]); // Azul sells nothing on GRU-SSA yet
 * const simulator = createSimulator({ selling: selling.sells });
 * selling.turnOn("azul", "GRU-SSA"); // now it does
 */
export const sellingSwitch = (off: readonly { readonly sourceId: string; readonly route: string }[] = []): SellingSwitch => {
  const stopped = new Set(off.map((o) => `${o.sourceId}|${o.route}`));
  return {
    sells: (sourceId, query) => !stopped.has(`${sourceId}|${query.origin}-${query.destination}`),
    turnOn: (sourceId, route) => void stopped.delete(`${sourceId}|${route}`),
    turnOff: (sourceId, route) => void stopped.add(`${sourceId}|${route}`),
  };
};
