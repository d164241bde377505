/**
 * How long a search's offers stay current: the earliest `validUntil` among them (the answer cache and the
 * upstream adapter stamp it; the simulator's offers carry none). No answer carries an offer past it: a
 * completed search is joined by new requests only until then, and once it passed, polls of the search answer
 * as for an expired one (`BUSCA_EXPIRADA`), so the client's next request searches again.
 */
import type { Offer, SearchSnapshot } from "@voar/core";

/** The earliest `validUntil` of some offers (ms since the epoch); undefined when none says. */
export const earliestValidUntil = (offers: Iterable<Offer>): number | undefined => {
  let earliest: number | undefined;
  for (const o of offers) if (o.validUntil !== undefined && (earliest === undefined || o.validUntil < earliest)) earliest = o.validUntil;
  return earliest;
};

const bySnapshot = new WeakMap<SearchSnapshot, number | null>();

/** {@link earliestValidUntil} of a snapshot's offers, computed once per snapshot (a completed one is polled many times). */
export const snapshotValidUntil = (s: SearchSnapshot): number | undefined => {
  let known = bySnapshot.get(s);
  if (known === undefined) bySnapshot.set(s, (known = earliestValidUntil(s.offers.values()) ?? null));
  return known ?? undefined;
};

/** Whether a snapshot holds an offer no longer current at `now`. */
export const holdsExpiredOffer = (s: SearchSnapshot, now: number): boolean => (snapshotValidUntil(s) ?? Infinity) <= now;

/**
 * The rejoin window of a completed search (see `rejoinWindowMs`; undefined: the whole TTL) within its offers'
 * validity: new requests join it only while every offer it holds is current.
 */
export const rejoinWithinValidity = (window: number | undefined, offers: Iterable<Offer>, now: number): number | undefined => {
  const until = earliestValidUntil(offers);
  if (until === undefined) return window;
  const left = Math.max(0, until - now);
  return window === undefined ? left : Math.min(window, left);
};
