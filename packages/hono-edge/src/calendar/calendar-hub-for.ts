import type { ResolvedDeps } from "../app/app-deps.js";
import type { Admission } from "../limits/admission.js";
import type { SearchHub } from "../search/search-hub.js";
import { calendarRequestsPerDay } from "./calendar-budget.js";
import { CalendarHub } from "./calendar-hub.js";

/**
 * The app's calendar hub, over its search hub and the calendars of its session store, configured by
 * `config.calendar` and the search settings; undefined when the store keeps no calendars.
 */
export const calendarHubFor = (d: ResolvedDeps, searches: SearchHub, admission: Admission | undefined): CalendarHub | undefined => {
  const store = d.store.calendars;
  if (!store) return undefined;
  const { config } = d;
  return new CalendarHub({
    searches,
    store,
    watch: (id, listener) => d.store.watch(id, listener),
    clock: d.clock,
    logger: d.logger,
    airports: d.airports,
    instanceId: d.instanceId,
    newId: d.newSearchId,
    searchDeadlineMs: config.search.deadlineMs,
    leaseMs: config.search.leaseMs,
    ttlMs: config.search.ttlMs,
    failedTtlMs: config.search.failedTtlMs,
    concurrency: config.calendar.concurrency,
    requestsPerDay: calendarRequestsPerDay(config),
    keepAliveMs: config.sse.keepAliveMs,
    pollHintMs: config.search.pollHintMs,
    admission,
  });
};
