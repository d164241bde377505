import * as HashMap from "effect/HashMap";
import { SORT_ORDERS, type DirectionIndex, type Group } from "../engine/result-index.js";
import type { SortKey } from "../query/result-view.js";

interface Head {
  key: Group;
  group: string;
  readonly rest: Iterator<[Group, string]>;
}

/**
 * The group keys of the price-group partitions whose signature `accept`s, in one sort order: a merge of
 * the partitions' sorted trees. Starting costs O(partitions x log n); each group after that O(partitions),
 * and partitions are few (airlines x payment kinds x stops masks), so page 1 of a filtered, sorted result
 * costs O(log n + page) however many groups the filter leaves out.
 */
export function* mergedOrder(ix: DirectionIndex, sort: SortKey, accept: (signature: string) => boolean): Generator<string, void, undefined> {
  const heads: Head[] = [];
  for (const [sig, orders] of HashMap.entries(ix.bySignature)) {
    if (!accept(sig)) continue;
    const rest = orders[sort].entries();
    const first = rest.next();
    if (!first.done) heads.push({ key: first.value[0], group: first.value[1], rest });
  }
  const cmp = SORT_ORDERS[sort];
  while (heads.length > 0) {
    let min = 0;
    for (let i = 1; i < heads.length; i++) if (cmp(heads[i]!.key, heads[min]!.key) < 0) min = i;
    const head = heads[min]!;
    yield head.group;
    const next = head.rest.next();
    if (next.done) heads.splice(min, 1);
    else {
      head.key = next.value[0];
      head.group = next.value[1];
    }
  }
}

/** The number of groups in the partitions whose signature `accept`s. */
export const mergedSize = (ix: DirectionIndex, accept: (signature: string) => boolean): number => {
  let n = 0;
  for (const [sig, orders] of HashMap.entries(ix.bySignature)) if (accept(sig)) n += orders.price.size;
  return n;
};
