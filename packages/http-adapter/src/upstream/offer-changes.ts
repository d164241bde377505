import type { Offer } from "@voar/core";

/** What a client could tell apart between two versions of an offer. */
const signature = (o: Offer): string =>
  [o.total.amount, o.taxes.amount, o.airlinePrice.amount, o.miles?.pointsAdult ?? -1, o.miles?.pointsChild ?? -1, o.fareToken].join("|");

/**
 * Remembers the offers already passed on during one upstream search, so that each poll hands the engine
 * only what is new or changed (a refined price keeps its id: decisions.md).
 */
export class OfferChanges {
  private readonly seen = new Map<string, { readonly sig: string; readonly offer: Offer }>();

  /** The offers of an answer that are new or changed since the previous answers. */
  of(offers: readonly Offer[]): Offer[] {
    const changed: Offer[] = [];
    for (const o of offers) {
      const before = this.seen.get(o.id);
      if (before?.offer === o) continue; // the very offer passed on before (the reader kept it): unchanged
      const sig = signature(o);
      if (before?.sig === sig) continue;
      this.seen.set(o.id, { sig, offer: o });
      changed.push(o);
    }
    return changed;
  }
}
