import type { Offer, SearchQuery, SearchSource } from "@voar/core";
import { abortableSleep } from "./abortable-sleep.js";
import { batchesOf, latencyOf, type SimulatorOptions } from "./options.js";
import { hash53 } from "./prng.js";

/** A simulated source before timing: who it is and what it answers, computed at once. */
export interface SourceDefinition {
  readonly id: string;
  readonly name: string;
  readonly kind: "airline" | "ota";
  readonly airlineId?: number | undefined;
  /** Every offer the source finds for a query, without latency. */
  offers(query: SearchQuery): readonly Offer[];
}

/** Splits offers into `n` batches of near equal size, in an order fixed by their ids. */
export const splitIntoBatches = (offers: readonly Offer[], n: number): readonly (readonly Offer[])[] => {
  const ordered = offers
    .map((offer) => ({ offer, rank: hash53(offer.id) }))
    .sort((a, b) => a.rank - b.rank || a.offer.id.localeCompare(b.offer.id))
    .map((x) => x.offer);
  const size = Math.ceil(ordered.length / n);
  return Array.from({ length: n }, (_, i) => ordered.slice(i * size, (i + 1) * size));
};

/**
 * Wraps a definition as a {@link SearchSource} that answers over time: its offers arrive in batches
 * spread evenly over its latency (batch i of n at latency × i / n), and it fails as configured; a latency of
 * `Infinity` never answers, and a source that does not sell on the query (`selling`) answers with no offers.
 * Waits use `setTimeout` and end at once, timers cleared, when the signal aborts: the source then
 * throws the signal's reason.
 */
export const timedSource = (def: SourceDefinition, options: SimulatorOptions): SearchSource => {
  let failedCalls = 0;
  return {
    id: def.id,
    name: def.name,
    kind: def.kind,
    ...(def.airlineId === undefined ? {} : { airlineId: def.airlineId }),
    async *search(query, signal) {
      signal.throwIfAborted();
      const configured = options.failures?.[def.id];
      const failure = configured && (configured.times === undefined || failedCalls < configured.times) ? configured : undefined;
      if (failure) failedCalls++;
      const latency = latencyOf(options, def.id, query);
      const n = batchesOf(options, def.id);
      const sells = options.selling?.(def.id, query) ?? true;
      // A hang: nothing ever comes; the search ends it (its deadline, or the caller giving up).
      if (latency === Number.POSITIVE_INFINITY) await new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
      const batches = splitIntoBatches(sells ? def.offers(query) : [], n);
      let elapsed = 0;
      for (let i = 0; i < n; i++) {
        const at = Math.round((latency * (i + 1)) / n);
        if (at > elapsed) await abortableSleep(at - elapsed, signal);
        elapsed = at;
        signal.throwIfAborted();
        if (failure && i >= (failure.afterBatches ?? 0)) throw failure.error;
        const batch = batches[i] ?? [];
        if (batch.length > 0) yield batch;
      }
      if (failure) throw failure.error;
    },
  };
};
