import type { Offer } from "../domain/offer.js";
import { groupOf, type DirectionIndex } from "../engine/result-index.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { byPrice, groupOffers } from "./select.js";
import type { ComparisonView } from "./views.js";

/** A Mode B answer: the outbound comparisons and, for a round trip, the return ones. */
export interface ModeBResult {
  readonly outbound: readonly ComparisonView[];
  readonly inbound: readonly ComparisonView[];
}

const comparisons = (s: SearchSnapshot, ix: DirectionIndex): ComparisonView[] => {
  const out: ComparisonView[] = [];
  for (const key of ix.order.values()) {
    const g = groupOf(ix, key);
    const [main, ...rest] = groupOffers(s, g, byPrice);
    if (!main) continue;
    const fareOptions = rest.filter((o) => o.seller.id === main.seller.id);
    const others = rest.filter((o) => o.seller.id !== main.seller.id);
    out.push({ id: g.key, main, fareOptions, others, passengers: s.query.passengers });
  }
  return out;
};

/**
 * Mode B fare comparison: offers grouped by flight identity across sellers, cheapest flight first. The main
 * offer of each flight is its cheapest total with taxes; `fareOptions` are its seller's other offers for the
 * flight and `others` the other sellers' offers, each cheapest first.
 */
export const modeBResult = (s: SearchSnapshot): ModeBResult => ({
  outbound: comparisons(s, s.outbound),
  inbound: s.query.returnDate === undefined ? [] : comparisons(s, s.inbound),
});

/** A single-airline answer: every offer (miles and cash) of the airline, cheapest first, per direction. */
export const singleAirlineResult = (s: SearchSnapshot): { readonly outbound: readonly Offer[]; readonly inbound: readonly Offer[] } => {
  const { outbound, inbound } = modeBResult(s);
  return { outbound: outbound.map((c) => c.main), inbound: inbound.map((c) => c.main) };
};
