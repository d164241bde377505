/**
 * The one door from the price watches to the service's searches: "the cheapest cash and points of route R on
 * day D", answered by one ordinary search of the day as the price calendar runs its days (`daySearchOf`: the
 * hub's engine, the answer cache shared by every tenant, breakers, Pagante rules, a refused day retried), under a
 * tenant of its own that no client is, so every watch of that day shares it whoever its tenant is. Nothing else
 * in `alerts/` knows how a day is searched: a change to the calendar's searches meets the watches here.
 */
import { dayPricesByCabin, type AirportDirectory, type SearchQuery, type SearchSnapshot } from "@voar/core";
import { RequestBudgetGroup } from "@voar/http-adapter/fetch";
import type { Clock } from "../clock.js";
import { daySearchOf } from "../calendar/day-search.js";
import type { SearchHub } from "../search/search-hub.js";
import type { PaganteSettings } from "../settings/pagante-settings.js";
import { ALERTS_TENANT, type UnitResult } from "./alert-record.js";

/** The cheapest fares of a route on a day, and what finding them cost. */
export interface RouteDayPrices {
  /** Searches the day (or joins its live search), follows it to completion and gives its cheapest fares per cabin. */
  check(query: SearchQuery, signal: AbortSignal): Promise<UnitResult>;
  /**
   * A search of the day that `tenant` may open (`TokenBusca` of an alert): started now, so that the answer cache
   * just filled by the check answers it at no upstream cost.
   */
  searchFor(tenant: string, query: SearchQuery): Promise<string | undefined>;
}

/** What {@link hubDayPrices} needs. */
export interface HubDayPricesOptions {
  readonly searches: SearchHub;
  readonly pagante: PaganteSettings;
  readonly airports: AirportDirectory;
  readonly clock: Clock;
  /** How long one check may take (the search's deadline and a margin). */
  readonly deadlineMs: number;
  readonly keepAliveMs: number;
}

/** Upstream requests one check may cause at most: a check is one search; past this it stops where it is. */
const CHECK_REQUEST_CAP = 10_000;

/**
 * The watches' days over the app's search hub: each check is a search of the internal tenant {@link ALERTS_TENANT},
 * its upstream requests counted by a request budget group on its query (an answer the cache gives costs none).
 */
export const hubDayPrices = (o: HubDayPricesOptions): RouteDayPrices => ({
  async check(query, signal) {
    const budget = new RequestBudgetGroup(CHECK_REQUEST_CAP);
    const deadlineAt = o.clock.now() + o.deadlineMs;
    const hidden = await o.pagante.hiddenCashAirlines();
    const search = daySearchOf({ searches: o.searches, clock: o.clock, tenant: ALERTS_TENANT, hiddenCashAirlines: hidden, deadlineAt, budget, keepAliveMs: o.keepAliveMs }, () => undefined, () => Promise.resolve())({ ...query }, 0);
    let last: SearchSnapshot | undefined;
    await new Promise<void>((resolve, reject) => {
      const sub = search.subscribe({
        next: (s) => {
          last = s;
          if (s.completed) {
            sub.unsubscribe();
            resolve();
          }
        },
        error: reject,
        complete: resolve,
      });
      signal.addEventListener("abort", () => (sub.unsubscribe(), reject(signal.reason)), { once: true });
    });
    const snapshot = last;
    return {
      at: o.clock.now(),
      prices: snapshot ? dayPricesByCabin(snapshot, o.airports) : {},
      requests: budget.used,
      failed: snapshot ? snapshot.sources.filter((p) => p.state === "failed").length : 0,
    };
  },
  async searchFor(tenant, query) {
    const record = await o.searches.open(tenant, { ...query }, await o.pagante.hiddenCashAirlines());
    return record.id;
  },
});
