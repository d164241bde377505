/**
 * Where the answer cache keeps the upstream's answers: in this instance's memory, or in Redis so that every
 * instance of the deployment shares them (`redis/redis-answer-store.ts`).
 */
import type { Offer } from "@voar/core";
import type { Clock } from "../clock.js";
import { BoundedMap } from "../util/bounded-map.js";
import { sweepTimer } from "../expiry/sweep-timer.js";

/** A source's complete answer to one query, as cached. */
export interface CachedAnswer {
  /** Every offer of the answer (the latest version of each). */
  readonly offers: readonly Offer[];
  /** When the answer completed (ms since the epoch): its age counts from here. */
  readonly storedAt: number;
}

/** A place for cached answers. Keys are built by the cache; entries expire on their own after `ttlMs`. */
export interface AnswerStore {
  /** The answer under a key; undefined when none or expired. May reject (a store that is unreachable): the cache then asks the source. */
  get(key: string): Promise<CachedAnswer | undefined>;
  /** Keeps an answer for `ttlMs`. */
  set(key: string, answer: CachedAnswer, ttlMs: number): Promise<void>;
}

/** Options of {@link createMemoryAnswerStore}. */
export interface MemoryAnswerStoreOptions {
  /** Answers kept at most, the least recently used forgotten first. */
  readonly maxEntries: number;
  readonly clock: Clock;
}

/**
 * The answers in this instance's memory, at most `maxEntries`, each until its TTL passes.
 *
 * @example
 * const store = createMemoryAnswerStore({ maxEntries: 2_000, clock: systemClock });
 */
export const createMemoryAnswerStore = (o: MemoryAnswerStoreOptions): AnswerStore => {
  const entries = new BoundedMap<string, { readonly answer: CachedAnswer; readonly expiresAt: number }>(o.maxEntries);
  // Expired answers leave on a timer too (every minute while any is kept), not only when asked for again.
  const sweeper = sweepTimer({
    everyMs: 60_000,
    sweep: () => {
      const now = o.clock.now();
      for (const [key, e] of entries.all()) if (e.expiresAt <= now) entries.delete(key);
      return entries.size > 0;
    },
  });
  return {
    get: (key) => {
      const e = entries.get(key);
      if (e && e.expiresAt <= o.clock.now()) entries.delete(key);
      return Promise.resolve(e && e.expiresAt > o.clock.now() ? e.answer : undefined);
    },
    set: (key, answer, ttlMs) => {
      entries.set(key, { answer, expiresAt: o.clock.now() + ttlMs });
      sweeper.arm();
      return Promise.resolve();
    },
  };
};
