/**
 * Seeded randomness for the simulator. Every random choice is drawn from a generator keyed by the
 * parts that decide it (seed, airline, route, date...), never from shared state, so the same query
 * gives the same flights whatever the order in which sources are called.
 */

import { hash53 } from "@voar/core";

/** A 53-bit hash of a string (core's cyrb53), salted: fast, well spread, stable across runtimes. */
export { hash53 };

/** A hash of key parts mapped to [0, 1): a deterministic coin for yes/no decisions. */
export const unitHash = (...parts: readonly (string | number)[]): number => hash53(parts.join("|")) / 2 ** 53;

/** An opaque lower-case hex token of `length` characters (at most 52), derived from key parts. */
export const hexToken = (length: number, ...parts: readonly (string | number)[]): string => {
  const key = parts.join("|");
  const a = hash53(key, 1).toString(16).padStart(14, "0");
  const b = hash53(key, 2).toString(16).padStart(14, "0");
  const c = hash53(key, 3).toString(16).padStart(14, "0");
  const d = hash53(key, 4).toString(16).padStart(14, "0");
  return `${a}${b}${c}${d}`.slice(0, Math.min(length, 52));
};

/** A deterministic pseudo-random generator with the few draws the simulator needs. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** Uniform real in [min, max). */
  between(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly [T, ...T[]]): T;
}

/** Mulberry32 over a 32-bit state: tiny, fast and good enough for simulated schedules and prices. */
const mulberry32 = (state: number): (() => number) => {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/**
 * A generator keyed by the parts of a decision.
 *
 * @example
 * const rng = rngFor(42, "LA", "CNF-GRU", query.departureDate);
 * rng.int(1, 6); // the same number for the same key, every time
 */
export const rngFor = (...parts: readonly (string | number)[]): Rng => {
  const next = mulberry32(hash53(parts.join("|")) % 4294967296);
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    between: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)] ?? items[0],
  };
  return rng;
};
