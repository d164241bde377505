import { compareStrings, SortedIndex } from "./sorted-index.js";

/**
 * A persistent sorted set of strings (a B+tree), used for the distinct values of filters.
 * Insertion is O(log n) and shares structure with the previous version.
 */
export type SortedStrings = SortedIndex<string, true>;

/** The empty sorted string set. */
export const emptySortedStrings = (): SortedStrings => SortedIndex.empty<string, true>(compareStrings);

/** Adds a value; returns the same set when it is already present. `owner`: see {@link SortedIndex}. */
export const addSorted = (set: SortedStrings, value: string, owner?: object): SortedStrings => (set.has(value) ? set : set.set(value, true, owner));

/** The values in ascending order. */
export const sortedValues = (set: SortedStrings): string[] => set.keyArray();
