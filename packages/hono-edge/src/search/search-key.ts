import { queryKey, type SearchQuery } from "@voar/core";

/**
 * What makes two requests the same search (decisions.md "same request"): the tenant, the normalized
 * query (core's `queryKey`: paging is not part of it) and the airlines whose Pagante switch is off, so
 * that flipping a switch makes the next request a new search that honours it.
 */
export const searchKey = (tenant: string, query: SearchQuery, hiddenCashAirlines: readonly number[]): string =>
  [tenant, normalizedKey(query), [...hiddenCashAirlines].sort((a, b) => a - b).join(",")].join("\u0000");

/** `queryKey` of each query object: a query read from a remembered body is the same object every time. */
const normalizedKeys = new WeakMap<SearchQuery, string>();
const normalizedKey = (query: SearchQuery): string => {
  let key = normalizedKeys.get(query);
  if (key === undefined) {
    key = queryKey(query);
    normalizedKeys.set(query, key);
  }
  return key;
};
