import type { ServiceConfig } from "../config/config-schema.js";
import { UPSTREAM_AIRLINE_IDS } from "../config/deploy-schema.js";

/**
 * Upstream requests a price calendar may cause per day asked: `calendar.requestsPerDay` when set, else
 * `calendar.searchesPerDay` ordinary searches' budgets (`upstream.budget.requestsPerSearch`, or
 * `requestsPerSource` times the airlines asked). Undefined without an upstream: the simulator asks nobody.
 */
export const calendarRequestsPerDay = (config: ServiceConfig): number | undefined => {
  const { requestsPerDay, searchesPerDay } = config.calendar;
  if (requestsPerDay !== undefined) return requestsPerDay;
  const upstream = config.upstream;
  if (!upstream) return undefined;
  const perSearch = upstream.budget.requestsPerSearch ?? upstream.budget.requestsPerSource * (upstream.airlines ?? UPSTREAM_AIRLINE_IDS).length;
  return searchesPerDay * perSearch;
};
