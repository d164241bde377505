/**
 * Offer ids: stable across polls (a later answer with the same id refines the offer, decisions.md) and
 * unique within an answer.
 */
import type { Offer } from "../domain/offer.js";

/**
 * The id of an offer: `<sourceId>:<token>` when the upstream gives a fare token (`rateToken`, `Token`);
 * otherwise `<sourceId>:<seller id>:<miles|cash>:<flight key>`, which names the same offer in every poll.
 */
export const offerId = (
  sourceId: string,
  token: string | null | undefined,
  fallback: Pick<Offer, "seller" | "flightKey" | "miles">,
): string =>
  token && token.trim() !== ""
    ? `${sourceId}:${token.trim()}`
    : `${sourceId}:${fallback.seller.id}:${fallback.miles ? "miles" : "cash"}:${fallback.flightKey}`;

/** Makes ids unique in a list, keeping the first of each and suffixing repeats `~2`, `~3` in order. */
export const withUniqueIds = (offers: readonly Offer[]): Offer[] => {
  const seen = new Map<string, number>();
  return offers.map((o) => {
    const n = (seen.get(o.id) ?? 0) + 1;
    seen.set(o.id, n);
    return n === 1 ? o : { ...o, id: `${o.id}~${n}` };
  });
};
