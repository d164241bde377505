import type { Offer } from "../domain/offer.js";
import { memberIds } from "../engine/members.js";
import type { Group } from "../engine/result-index.js";
import type { SearchSnapshot } from "../engine/snapshot.js";

/** The current version of an offer in a snapshot. */
export const offerById = (s: SearchSnapshot, id: string): Offer | undefined => s.offers.get(id);

/** The offers of a group, in the order given by `compare`. */
export const groupOffers = (s: SearchSnapshot, group: Group, compare: (a: Offer, b: Offer) => number): Offer[] => {
  const out: Offer[] = [];
  for (const id of memberIds(group.members)) {
    const o = offerById(s, id);
    if (o) out.push(o);
  }
  return out.sort(compare);
};

/** Earlier departure first, then shorter, then by id: the order of alternatives inside a group. */
export const byDeparture = (a: Offer, b: Offer): number =>
  a.itinerary.departure < b.itinerary.departure
    ? -1
    : a.itinerary.departure > b.itinerary.departure
      ? 1
      : a.itinerary.durationMinutes - b.itinerary.durationMinutes || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Cheaper first, then by seller name and id: the order of a comparison's offers. */
export const byPrice = (a: Offer, b: Offer): number =>
  a.total.amount - b.total.amount || a.seller.name.localeCompare(b.seller.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
