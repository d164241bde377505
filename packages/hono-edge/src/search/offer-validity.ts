/**
 * How long a search's offers stay current: the earliest `validUntil` among them (the answer cache and the
 * upstream adapter stamp it; the simulator's offers carry none). No answer carries an offer past it: once it
 * passed, polls of the search answer as for an expired one (`BUSCA_EXPIRADA`), so the client's next request
 * searches again.
 *
 * A new request is given offers only with a margin of validity left ({@link validityMargin}: a minute, or
 * half the offer's life if that is shorter), the same everywhere: the answer cache serves an answer, a new
 * request joins a completed search, a price calendar prices a day or is joined, only until the earliest of
 * their offers' `validUntil` less its margin ({@link usableUntil}).
 */
import type { Offer, SearchSnapshot } from "@voar/core";

/** The validity a new request's offers must have left at most: a search lasts up to a minute. */
export const MIN_VALIDITY_LEFT_MS = 60_000;

/** The validity an offer must have left to be given to a new request: a minute, or half its life (`validUntil - seenAt`) if shorter. */
export const validityMargin = (o: Pick<Offer, "seenAt" | "validUntil">): number =>
  o.seenAt === undefined || o.validUntil === undefined ? MIN_VALIDITY_LEFT_MS : Math.min(MIN_VALIDITY_LEFT_MS, Math.max(0, (o.validUntil - o.seenAt) / 2));

/**
 * Until when some offers may be given to a new request (ms since the epoch): the earliest `validUntil` less
 * its {@link validityMargin}; undefined when none says. Usable while `now < usableUntil`.
 */
export const usableUntil = (offers: Iterable<Offer>): number | undefined => {
  let earliest: number | undefined;
  for (const o of offers) {
    if (o.validUntil === undefined) continue;
    const until = o.validUntil - validityMargin(o);
    if (earliest === undefined || until < earliest) earliest = until;
  }
  return earliest;
};

/** The earliest `validUntil` of some offers (ms since the epoch); undefined when none says. */
export const earliestValidUntil = (offers: Iterable<Offer>): number | undefined => {
  let earliest: number | undefined;
  for (const o of offers) if (o.validUntil !== undefined && (earliest === undefined || o.validUntil < earliest)) earliest = o.validUntil;
  return earliest;
};

const bySnapshot = new WeakMap<SearchSnapshot, { readonly valid: number | undefined; readonly usable: number | undefined }>();

const validityOf = (s: SearchSnapshot) => {
  let known = bySnapshot.get(s);
  if (!known) bySnapshot.set(s, (known = { valid: earliestValidUntil(s.offers.values()), usable: usableUntil(s.offers.values()) }));
  return known;
};

/** {@link earliestValidUntil} of a snapshot's offers, computed once per snapshot (a completed one is polled many times). */
export const snapshotValidUntil = (s: SearchSnapshot): number | undefined => validityOf(s).valid;

/** {@link usableUntil} of a snapshot's offers, computed once per snapshot. */
export const snapshotUsableUntil = (s: SearchSnapshot): number | undefined => validityOf(s).usable;

/** Whether a snapshot holds an offer no longer current at `now`. */
export const holdsExpiredOffer = (s: SearchSnapshot, now: number): boolean => (snapshotValidUntil(s) ?? Infinity) <= now;

/**
 * The rejoin window of a completed search (see `rejoinWindowMs`; undefined: the whole TTL) within its offers'
 * validity: new requests join it only while every offer it holds has its margin left ({@link usableUntil}).
 */
export const rejoinWithinValidity = (window: number | undefined, offers: Iterable<Offer>, now: number): number | undefined => {
  const until = usableUntil(offers);
  if (until === undefined) return window;
  const left = Math.max(0, until - now);
  return window === undefined ? left : Math.min(window, left);
};
