import type { SearchSnapshot } from "@voar/core";
import { earliestValidUntil, snapshotValidUntil } from "./offer-validity.js";

/** The timer of a running search's offers (see {@link offersExpiry}). */
export interface OffersExpiry {
  /** The engine's latest snapshot: the timer follows the earliest `validUntil` of what the search holds. */
  watch(s: SearchSnapshot): void;
  stop(): void;
}

/**
 * A search never outlives its offers: a timer at the earliest `validUntil` of what a running search holds
 * (its base's offers, those its engine found), calling `expired` when it passes with the search still
 * running (offers valid for less than the search runs). The run then completes the search there, its
 * pending sources stopped, so that its polls answer `BUSCA_EXPIRADA` and the next request for the query
 * searches again instead of joining it.
 */
export const offersExpiry = (base: SearchSnapshot, now: () => number, expired: () => void): OffersExpiry => {
  const baseValidUntil = earliestValidUntil(base.offers.values());
  let timer: ReturnType<typeof setTimeout> | undefined;
  let at: number | undefined;
  return {
    watch(s) {
      const found = snapshotValidUntil(s);
      const until = found === undefined ? baseValidUntil : baseValidUntil === undefined ? found : Math.min(found, baseValidUntil);
      if (until === undefined || until === at) return;
      clearTimeout(timer);
      at = until;
      timer = setTimeout(expired, Math.max(0, until - now()));
    },
    stop: () => clearTimeout(timer),
  };
};
