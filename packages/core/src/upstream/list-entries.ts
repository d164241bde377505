/**
 * Reads chosen entries of one offer list of an answer's result item, each on its own: for a reader of
 * successive answers of one search, where each answer repeats everything found so far and only the entries
 * it has not seen need reading.
 */
import type { Offer } from "../domain/offer.js";
import { SkipLog } from "./item-reader.js";
import { modeAEntries } from "./mode-a-offers.js";
import { modeBEntries } from "./mode-b-offers.js";
import { createOfferInterner } from "./offer-interner.js";
import type { ReadContext } from "./read-context.js";

/** The offer lists of a result item: Mode A's `flights`, the Mode B shape's `Ida` and `Volta`. */
export type OfferListMember = "flights" | "Ida" | "Volta";

/** The offers read from one entry of an offer list. */
export interface EntryOffers {
  /** As {@link readUpstreamAnswer} gives them for this entry within the whole answer, before ids repeated across the answer get their `~2` suffixes. */
  readonly offers: readonly Offer[];
  /** Nothing could be read from it: the reader left it out, and noted why. */
  readonly unreadable: boolean;
}

/**
 * The offers of the entries `indices` of the list `member` of the result item `item` (`Data[itemIndex]` of
 * an answer whose search token is `searchToken`), in the order asked: the offers `readUpstreamAnswer` reads
 * from each entry when it reads the whole answer (ids unsuffixed; shared through `ctx.interner`). An item
 * is read in one shape: a list of the other shape gives no offers, as in the whole answer. Undefined when
 * the item itself cannot be read (the whole answer's reader leaves it out).
 */
export const readListEntries = (
  item: unknown,
  itemIndex: number,
  member: OfferListMember,
  indices: readonly number[],
  ctx: ReadContext,
  searchToken: string | undefined,
): readonly EntryOffers[] | undefined => {
  const modeA = typeof item === "object" && item !== null && "flights" in item;
  if ((member === "flights") !== modeA) return indices.map(() => ({ offers: [], unreadable: false }));
  const log = new SkipLog();
  const path = `Data[${itemIndex}]`;
  let read: (k: number, log: SkipLog) => Offer[];
  if (member === "flights") {
    const entries = modeAEntries(item, path, ctx, log, searchToken);
    if (!entries) return undefined;
    read = entries.read;
  } else {
    const entries = modeBEntries(item, path, ctx, log, searchToken);
    if (!entries) return undefined;
    read = (k, entryLog) => entries.read(member, k, entryLog);
  }
  const intern = (ctx.interner ?? createOfferInterner()).offer;
  return indices.map((k) => {
    const entryLog = new SkipLog();
    const offers = read(k, entryLog);
    return { offers: offers.map(intern), unreadable: offers.length === 0 && entryLog.skipped.count > 0 };
  });
};
