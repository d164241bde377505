import type { Offer } from "@voar/core";

/** What a client could tell apart between two versions of an offer. */
const signature = (o: Offer): string =>
  [o.total.amount, o.taxes.amount, o.airlinePrice.amount, o.miles?.pointsAdult ?? -1, o.miles?.pointsChild ?? -1, o.fareToken].join("|");

/**
 * Remembers the offers already passed on during one upstream search, so that each poll hands the engine
 * only what is new or changed (a refined price keeps its id: decisions.md).
 */
export class OfferChanges {
  private readonly seen = new Map<string, string>();

  /** The offers of an answer that are new or changed since the previous answers. */
  of(offers: readonly Offer[]): Offer[] {
    const changed: Offer[] = [];
    for (const o of offers) {
      const sig = signature(o);
      if (this.seen.get(o.id) === sig) continue;
      this.seen.set(o.id, sig);
      changed.push(o);
    }
    return changed;
  }
}
