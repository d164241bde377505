/**
 * A budget of upstream requests shared by several searches: the days of a price calendar. The service
 * attaches one group to the query object of each search of the group (`withRequestBudgetGroup`), before the
 * search starts; the protected transport of every source then takes each request from the group too (see
 * `protectedTransport`), so the group counts the real upstream requests its searches cause: an answer the
 * cache gives, or a search joined that someone else runs, costs it nothing. Past its limit, a request fails
 * with `RequestBudgetExhausted` of scope `calendar`, not sent.
 */
import type { SearchQuery } from "@voar/core";

/** A budget of upstream requests shared by the searches it is attached to. */
export class RequestBudgetGroup {
  private count: number;

  /**
   * @param limit Requests the group may make in all.
   * @param used Requests already made (a group taken over from another instance's count).
   */
  constructor(
    readonly limit: number,
    used = 0,
  ) {
    this.count = Math.max(0, used);
  }

  /** Requests made so far. */
  get used(): number {
    return this.count;
  }

  /** Takes one request; false when none is left. */
  take(): boolean {
    if (this.count >= this.limit) return false;
    this.count++;
    return true;
  }
}

const groups = new WeakMap<SearchQuery, RequestBudgetGroup>();

/**
 * Attaches a group to a search's query object (the object the engine hands the search's sources): give each
 * search its own query object. Returns the query.
 *
 * @example
 * const budget = new RequestBudgetGroup(200);
 * hub.open(tenant, withRequestBudgetGroup({ ...dayQuery }, budget), hidden);
 */
export const withRequestBudgetGroup = <Q extends SearchQuery>(query: Q, group: RequestBudgetGroup): Q => {
  groups.set(query, group);
  return query;
};

/** The group attached to a search's query object, if any. */
export const requestBudgetGroupOf = (query: SearchQuery): RequestBudgetGroup | undefined => groups.get(query);
