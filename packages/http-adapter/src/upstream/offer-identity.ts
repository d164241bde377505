/**
 * Stable ids for the offers of OTA comparisons. Core's reader names a Mode B main offer by its `Token` and
 * an alternative (`Outros[]`) by the main offer's token plus its seller, so the same OTA offer gets another
 * id when, from one poll to the next, it moves from main offer to alternative (a cheaper seller arrived) or
 * back: the engine, where results only grow, would then keep it twice. An OTA offer's link names it
 * whatever its role, so the id is made from the link: a digest of it, not the link itself, which the offer
 * already holds (`seller.url`) and which is often longer than everything else the offer keeps as text.
 */
import { hash53, type Offer } from "@voar/core";

/**
 * A 53-bit digest of a text, as 11 base-36 digits (core's `hash53`, the same on every runtime). Two
 * different links share a digest with a chance of about 1 in 10^16; among
 * the 10,000 OTA links of a very large search, any two with a chance of about 1 in 10^8.
 */
export const linkDigest = (text: string): string => hash53(text).toString(36).padStart(11, "0");

/**
 * Re-keys the OTA offers that have a link as `<source id>:url:<digest of the link>`; other offers keep their
 * ids. Ids stay unique within the list (a repeat gets `~2`, `~3`...).
 *
 * @example
 * stableOfferIds(read.offers); // "upstream:url:0k3x9v1qz7a" for the same link whatever its role
 */
export const stableOfferIds = (offers: readonly Offer[]): Offer[] => {
  const seen = new Map<string, number>();
  return offers.map((o) => {
    const base = o.seller.kind === "ota" && o.seller.url !== "" ? `${o.sourceId}:url:${linkDigest(o.seller.url)}` : o.id;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const id = n === 1 ? base : `${base}~${n}`;
    return id === o.id ? o : { ...o, id };
  });
};
