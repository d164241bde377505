/**
 * Which airlines brought offers on a route the last time they were searched, so that an all-airlines search is
 * not polled for an airline that answers nothing there (TAP, Copa, American or Iberia on a domestic Brazilian
 * route): its answer is fetched by the poll of another airline, or by the one that completes the search. A route
 * is an origin and a destination, whatever the date: an airline that does not fly it on one day rarely does on
 * the next. One search with offers makes the airline awaited on the route again.
 *
 * A route searched for the first time is judged by its market (the countries of its two ends, `BR>BR`): an airline
 * that brought nothing on nearly every route of the market searched lately (at least {@link MARKET_SEEN} routes, and
 * offers on fewer than {@link MARKET_SHARE} of them) is not polled for there either, while an airline that flies some
 * of the market's routes is. What is not known at all is polled for.
 */

/** Routes remembered at most, the least recently searched forgotten first. */
const MAX_ROUTES = 20_000;
/** Markets remembered at most (country pairs), the least recently searched forgotten first. */
const MAX_MARKETS = 2_000;
/** Routes of a market an airline must have been searched on before the market speaks for a route not seen yet. */
export const MARKET_SEEN = 3;
/** Below this share of a market's routes with offers, an airline is not polled for on a route of it not seen yet. */
export const MARKET_SHARE = 0.1;
/** The market's counts are halved past this many routes, so that what an airline does lately weighs most. */
const MARKET_WINDOW = 64;

/** What an airline brought on a market's routes lately: routes searched, and those with offers. */
interface MarketYield {
  searched: number;
  withOffers: number;
}

/** Remembered yields of the airlines, by route and by market (one table per adapter). */
export class RouteYields {
  /** Whether each airline brought offers on the route, the last time it was searched there. */
  private readonly routes = new Map<string, Map<string, boolean>>();
  private readonly markets = new Map<string, Map<string, MarketYield>>();

  /**
   * Whether `sourceId` is expected to bring offers on the route: as its last search of the route said; on a route
   * not seen yet, unless the market (`market`, when known) shows it brings nothing on nearly all its routes.
   */
  expects(sourceId: string, route: string, market?: string): boolean {
    const known = this.routes.get(route)?.get(sourceId);
    if (known !== undefined) return known;
    const m = market === undefined ? undefined : this.markets.get(market)?.get(sourceId);
    return m === undefined || m.searched < MARKET_SEEN || m.withOffers >= MARKET_SHARE * m.searched;
  }

  /** Records what a finished search of `sourceId` brought on the route (and its market, when known). */
  record(sourceId: string, route: string, offers: number, market?: string): void {
    const byRoute = this.routes.get(route);
    const before = byRoute?.get(sourceId);
    const next = touch(this.routes, route, MAX_ROUTES, byRoute);
    next.set(sourceId, offers > 0);
    if (market === undefined) return;
    const bySource = touch(this.markets, market, MAX_MARKETS, this.markets.get(market));
    const m = bySource.get(sourceId) ?? { searched: 0, withOffers: 0 };
    // A route counts once in its market, as it was last seen: a repeated search re-counts it only if it changed.
    if (before === undefined) m.searched++;
    if (offers > 0 && before !== true) m.withOffers++;
    if (offers === 0 && before === true) m.withOffers = Math.max(0, m.withOffers - 1);
    if (m.searched > MARKET_WINDOW) {
      m.searched /= 2;
      m.withOffers /= 2;
    }
    bySource.set(sourceId, m);
  }
}

/** The entry of `key`, made the most recently used (inserted last), the least recently used dropped past `max`. */
const touch = <V>(map: Map<string, Map<string, V>>, key: string, max: number, entry: Map<string, V> | undefined): Map<string, V> => {
  const value = entry ?? new Map<string, V>();
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
  return value;
};
