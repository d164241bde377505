import * as HashMap from "effect/HashMap";
import type { Offer } from "../domain/offer.js";
import type { Group } from "../engine/result-index.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { byDeparture, groupOffers } from "./select.js";

/** A round-trip price group: outbound and return alternatives that combine at one total price. */
export interface RoundTripPair {
  readonly id: string;
  /** Total price in centavos: the outbound group's plus the return group's. */
  readonly price: number;
  readonly out: Group;
  readonly back: Group;
  /** Outbound alternatives, by departure. */
  readonly outbound: readonly Offer[];
  /** Return alternatives, by departure. */
  readonly inbound: readonly Offer[];
}

const pairCache = new WeakMap<SearchSnapshot, readonly RoundTripPair[]>();

/**
 * Round-trip price groups: each outbound group paired with each return group of the same airline and
 * payment kind (airlines here price one-ways, so a round trip costs the sum). Sorted by total price, then
 * id. Computed once per snapshot version.
 */
export const roundTripPairs = (s: SearchSnapshot): readonly RoundTripPair[] => {
  const cached = pairCache.get(s);
  if (cached) return cached;
  const backs = new Map<string, { g: Group; offers: Offer[] }[]>();
  for (const g of HashMap.values(s.inbound.groups)) {
    const k = `${g.carrier.iata}|${g.cash}`;
    const entry = { g, offers: groupOffers(s, g, byDeparture) };
    const list = backs.get(k);
    if (list) list.push(entry);
    else backs.set(k, [entry]);
  }
  const pairs: RoundTripPair[] = [];
  for (const out of HashMap.values(s.outbound.groups)) {
    const outbound = groupOffers(s, out, byDeparture);
    for (const back of backs.get(`${out.carrier.iata}|${out.cash}`) ?? []) {
      pairs.push({ id: `${out.key}~${back.g.key}`, price: out.price + back.g.price, out, back: back.g, outbound, inbound: back.offers });
    }
  }
  pairs.sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  pairCache.set(s, pairs);
  return pairs;
};
