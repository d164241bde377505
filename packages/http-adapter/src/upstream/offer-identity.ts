/**
 * Stable ids for the offers of OTA comparisons. Core's reader names a Mode B main offer by its `Token` and
 * an alternative (`Outros[]`) by the main offer's token plus its seller, so the same OTA offer gets another
 * id when, from one poll to the next, it moves from main offer to alternative (a cheaper seller arrived) or
 * back: the engine, where results only grow, would then keep it twice. An OTA offer's link names it
 * whatever its role, so it becomes the id. The last answer's view of the offer then refines the earlier one.
 */
import type { Offer } from "@voar/core";

/**
 * Re-keys the OTA offers that have a link as `<source id>:url:<link>`; other offers keep their ids. Ids
 * stay unique within the list (a repeat gets `~2`, `~3`...).
 *
 * @example
 * stableOfferIds(read.offers); // "upstream:url:https://voaja.example/...oferta=..." whatever the role
 */
export const stableOfferIds = (offers: readonly Offer[]): Offer[] => {
  const seen = new Map<string, number>();
  return offers.map((o) => {
    const base = o.seller.kind === "ota" && o.seller.url !== "" ? `${o.sourceId}:url:${o.seller.url}` : o.id;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const id = n === 1 ? base : `${base}~${n}`;
    return id === o.id ? o : { ...o, id };
  });
};
