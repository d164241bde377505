import * as RedBlackTree from "effect/RedBlackTree";
import * as Order from "effect/Order";

/**
 * A persistent sorted set of strings (a red-black tree), used for the distinct values of filters.
 * Insertion is O(log n) and shares structure with the previous version.
 */
export type SortedStrings = RedBlackTree.RedBlackTree<string, true>;

/** The empty sorted string set. */
export const emptySortedStrings = (): SortedStrings => RedBlackTree.empty<string, true>(Order.string);

/** Adds a value; returns the same set when it is already present. */
export const addSorted = (set: SortedStrings, value: string): SortedStrings =>
  RedBlackTree.has(set, value) ? set : RedBlackTree.insert(set, value, true);

/** The values in ascending order. */
export const sortedValues = (set: SortedStrings): string[] => Array.from(RedBlackTree.keys(set));
