/**
 * Which airlines brought offers on a route the last time they were searched, so that an all-airlines search is
 * not polled for an airline that answers nothing there (TAP, Copa, American or Iberia on a domestic Brazilian
 * route): its answer is fetched by the poll of another airline, or by the one that completes the search. A route
 * is an origin and a destination, whatever the date: an airline that does not fly it on one day rarely does on
 * the next. What is not known yet is polled for, and one search with offers makes the airline awaited again.
 */

/** Routes remembered at most, the least recently searched forgotten first. */
const MAX_ROUTES = 20_000;

/** Remembered yields of the airlines, by route (one table per adapter). */
export class RouteYields {
  private readonly empty = new Map<string, Set<string>>();

  /** Whether `sourceId` is expected to bring offers on the route: unless its last search of it brought none. */
  expects(sourceId: string, route: string): boolean {
    return !this.empty.get(route)?.has(sourceId);
  }

  /** Records what a finished search of `sourceId` brought on the route. */
  record(sourceId: string, route: string, offers: number): void {
    let none = this.empty.get(route);
    if (none) this.empty.delete(route); // re-inserted below: most recently searched last
    if (offers > 0) none?.delete(sourceId);
    else (none ??= new Set()).add(sourceId);
    if (none && none.size > 0) this.empty.set(route, none);
    if (this.empty.size > MAX_ROUTES) this.empty.delete(this.empty.keys().next().value!);
  }
}
