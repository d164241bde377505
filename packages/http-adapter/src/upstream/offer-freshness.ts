/**
 * How fresh an upstream's offers are: each offer carries when it was seen and until when it may be taken
 * as current. An upstream that says it answered from its own cache (`ByCache: true` on a result item, as
 * the real deployment writes it) gives no time for it: such offers were seen earlier than received, by an
 * unknown amount, so they are given half the validity.
 */
import type { Offer } from "@voar/core";

/** Default validity of an offer from the time it was seen: 10 minutes. */
export const DEFAULT_OFFER_VALIDITY_MS = 10 * 60_000;

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u);

/**
 * Whether an answer says it came from the upstream's own cache: `ByCache: true` on one of its result items.
 *
 * @example
 * answeredFromCache({ Data: [{ ByCache: true, Ida: [] }] }); // true
 */
export const answeredFromCache = (json: unknown): boolean =>
  isRecord(json) && Array.isArray(json.Data) && json.Data.some((item) => isRecord(item) && item.ByCache === true);

/**
 * The offers with their freshness: `seenAt` the instant given, `validUntil` that plus the validity (half of
 * it when the upstream answered from its cache). An offer that already carries a `seenAt` keeps its own.
 */
export const withFreshness = (offers: readonly Offer[], seenAt: number, validityMs: number, fromUpstreamCache: boolean): Offer[] => {
  const validUntil = seenAt + (fromUpstreamCache ? Math.floor(validityMs / 2) : validityMs);
  return offers.map((o) => (o.seenAt !== undefined ? o : { ...o, seenAt, validUntil: o.validUntil ?? validUntil }));
};
