import { money, type Carrier, type DayPrices, type SearchQuery } from "@voar/core";
import type { AppDeps } from "../../src/app/app-deps.js";
import { priceAlerts, type PriceAlerts, type PriceAlertsOptions } from "../../src/alerts/price-alerts.js";
import type { RouteDayPrices } from "../../src/alerts/route-day-prices.js";
import type { WebhookPost } from "../../src/alerts/webhook-deliverer.js";
import { API_KEY, testApp } from "../support/app.js";
import type { ServiceConfigInput } from "../../src/config/config-schema.js";

export const ALERTAS = "/api/Alertas";
const LATAM: Carrier = { iata: "LA", name: "LATAM" };

/** Prices the test sets by hand, per day: what every check of that day finds. */
export const priceLever = () => {
  const cash = new Map<string, number>();
  const points = new Map<string, number>();
  const checks: SearchQuery[] = [];
  const prices: RouteDayPrices = {
    check(query) {
      checks.push(query);
      const c = cash.get(query.departureDate);
      const p = points.get(query.departureDate);
      const day: DayPrices = {
        ...(c === undefined ? {} : { cash: { total: money(c), airlineId: 1, carrier: LATAM } }),
        ...(p === undefined ? {} : { miles: { points: p, taxes: money(5_610), airlineId: 1, carrier: LATAM, programme: "LATAM Pass" } }),
      };
      return Promise.resolve({ at: Date.now(), prices: c === undefined && p === undefined ? {} : { todas: day, economica: day }, requests: 6, failed: 0 });
    },
    searchFor: () => Promise.resolve("busca-do-cliente"),
  };
  return { cash, points, checks, prices };
};

/** A receiver the deliverer posts to: answers `statuses` in turn (then 200), keeping each request. */
export const fakeReceiver = (statuses: readonly number[] = []) => {
  const received: { readonly url: string; readonly headers: Record<string, string>; readonly body: string }[] = [];
  const post: WebhookPost = (url, init) => {
    received.push({ url, headers: init.headers, body: init.body });
    return Promise.resolve({ status: statuses[received.length - 1] ?? 200 });
  };
  return { received, post };
};

/** An app with price alerts driven by hand (`alerts.tick()`), the worker's timer off. */
export const alertApp = (o: { readonly alerts?: PriceAlertsOptions; readonly configInput?: Partial<ServiceConfigInput>; readonly deps?: Partial<AppDeps> } = {}) => {
  let started: PriceAlerts | undefined;
  const feature = priceAlerts({ timer: false, ...o.alerts });
  const { app, logs } = testApp({
    ...(o.configInput ? { configInput: o.configInput } : {}),
    ...o.deps,
    priceAlerts: { ...feature, start: (d, s) => (started = feature.start(d, s)) },
  });
  return { app, logs, alerts: () => started! };
};

type App = ReturnType<typeof testApp>["app"];

/** A request to `/Alertas...` with a key (the test key unless given). */
export const alertas = async (app: App, path = "", init: { readonly method?: string; readonly body?: unknown; readonly key?: string } = {}) => {
  const res = await app.request(`${ALERTAS}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { Authorization: `Bearer ${init.key ?? API_KEY}`, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read the members they expect
  return { status: res.status, body: (await res.json()) as any };
};
