/**
 * Price watches ("avise-me quando baixar") as a feature of the app (`AppDeps.priceAlerts`): the `/Alertas`
 * routes, and on every instance the schedule's worker (day checks and webhook deliveries, each taken by one
 * instance at a time through the store's leases). Kept out of the app's own modules, as the price calendar is,
 * so that an app without it carries none of its code.
 */
import type { Hono, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { ResolvedDeps } from "../app/app-deps.js";
import type { Logger } from "../logging/logger.js";
import type { Json } from "../openapi/openapi-parts.js";
import type { SearchHub } from "../search/search-hub.js";
import { createAlertChecker, type AlertChecker } from "./alert-checker.js";
import { noopAlertMetrics, type AlertMetrics } from "./alert-metrics.js";
import { alertPaths } from "./alert-paths.js";
import { alertHandlers, alertStreamHandler } from "./alert-routes.js";
import { AlertService, quotaOf } from "./alert-service.js";
import type { AlertStore } from "./alert-store.js";
import { hubDayPrices, type RouteDayPrices } from "./route-day-prices.js";
import type { AddressResolver } from "./webhook-address.js";
import { createWebhookDeliverer, fetchPost, type WebhookDeliverer, type WebhookPost } from "./webhook-deliverer.js";

/** Options of {@link priceAlerts}. */
export interface PriceAlertsOptions {
  /** Resolves webhook hosts, to refuse those that resolve to non-public addresses (the Node entry: `dns.lookup`). Default: literal addresses only. */
  readonly resolve?: AddressResolver | undefined;
  /** Posts a delivery. Default: the runtime's `fetch` (the Node entry's checks each connection's address too). */
  readonly post?: WebhookPost | undefined;
  readonly metrics?: AlertMetrics | undefined;
  /** Runs the worker on a timer (`alerts.schedule.tickMs`). Default true; false: the caller calls `tick()`. */
  readonly timer?: boolean | undefined;
  /** Where the days are searched. Default: the app's searches (`hubDayPrices`). */
  readonly prices?: ((d: ResolvedDeps, searches: SearchHub) => RouteDayPrices) | undefined;
}

/** The feature running in one app. */
export interface PriceAlerts {
  readonly service: AlertService;
  readonly store: AlertStore;
  /** One round of the worker: due checks and deliveries taken and started. */
  tick(): Promise<void>;
  /** Resolves when the checks and deliveries in flight end. */
  idle(): Promise<void>;
  /** Stops the worker (checks in flight give their slots back). */
  close(): Promise<void>;
  /** Adds the routes (behind the app's bearer, JSON and rate-limit middleware); the paths and methods it serves. */
  mount(app: Hono<AppEnv>, m: AlertMiddleware): readonly [string, string[]][];
}

/** The app's middleware and settings the routes need. */
export interface AlertMiddleware {
  readonly base: string;
  readonly bearer: MiddlewareHandler<AppEnv>;
  readonly json: MiddlewareHandler<AppEnv>;
  readonly limit: MiddlewareHandler<AppEnv>;
  readonly keepAliveMs: number;
  readonly retryMs: number;
  readonly logger: Logger;
  readonly shutdown?: { add(hook: () => void): () => void } | undefined;
  /** Admission control's count of SSE streams (`Admission.openStream`). */
  readonly openStream?: (() => () => void) | undefined;
}

/** The feature as `createApp` takes it. */
export interface PriceAlertsFeature {
  /** The feature over the app's searches; undefined when the session store keeps no alerts. */
  readonly start: (d: ResolvedDeps, searches: SearchHub) => PriceAlerts | undefined;
  readonly openApiPaths: (basePath: string) => Json;
}

const startAlerts = (options: PriceAlertsOptions, d: ResolvedDeps, searches: SearchHub): PriceAlerts | undefined => {
  const store = d.store.alerts;
  if (!store) return undefined;
  const { config, clock, logger } = d;
  const settings = config.alerts;
  const metrics = options.metrics ?? noopAlertMetrics;
  const newId = () => crypto.randomUUID().replaceAll("-", "");
  const service = new AlertService({ store, clock, logger, airports: d.airports, settings, newId, resolve: options.resolve });
  // A tenant's quota of checks per hour as a token bucket (shared by the instances where the limiters are).
  const quotas = new Map<number, ReturnType<typeof d.rateLimiters>>();
  const checksOf = (tenant: string) => {
    const perHour = quotaOf(settings, tenant).checksPerHour;
    let limiter = quotas.get(perHour);
    if (!limiter) quotas.set(perHour, (limiter = d.rateLimiters("alert-checks", { capacity: perHour, refillPerSecond: perHour / 3_600 })));
    return limiter;
  };
  const perHour = settings.budget.upstreamRequestsPerHour === undefined ? undefined : Math.max(1, Math.floor(settings.budget.upstreamRequestsPerHour * settings.budget.share));
  const upstream = perHour === undefined ? undefined : d.rateLimiters("alert-budget", { capacity: perHour, refillPerSecond: perHour / 3_600 });
  const prices = options.prices?.(d, searches) ?? hubDayPrices({ searches, pagante: d.pagante, airports: d.airports, clock, deadlineMs: config.search.deadlineMs + config.search.leaseMs, keepAliveMs: config.sse.keepAliveMs });
  const checker: AlertChecker = createAlertChecker({ store, prices, clock, logger, metrics, owner: d.instanceId, settings, checksOf, upstream, newId: () => `msg_${newId()}` });
  const deliverer: WebhookDeliverer = createWebhookDeliverer({ store, clock, logger, metrics, owner: d.instanceId, leaseMs: settings.schedule.leaseMs, settings: settings.webhooks, post: options.post ?? fetchPost, resolve: options.resolve });
  let held = { watches: 0, units: 0 };
  metrics.held(() => held);

  let ticking = false;
  let rounds = 0;
  const tick = async () => {
    if (ticking) return;
    ticking = true;
    try {
      // Now and then: watches past their end leave, and the figures of the metrics are read again.
      if (rounds++ % 30 === 0) {
        const expired = await store.expire();
        if (expired > 0) logger.log({ level: "info", msg: "alert.expired", count: expired });
        const s = await store.stats();
        held = { watches: s.watches, units: s.units };
      }
      await Promise.all([checker.tick(), deliverer.tick()]);
    } catch (e) {
      // The store away: the next round tries again.
      logger.log({ level: "info", msg: "alert.tick_failed", error: e instanceof Error ? e.message : String(e) });
    } finally {
      ticking = false;
    }
  };
  const timer = options.timer === false ? undefined : setInterval(() => void tick(), settings.schedule.tickMs);
  (timer as { unref?: () => void } | undefined)?.unref?.();

  return {
    service,
    store,
    tick,
    idle: async () => void (await Promise.all([checker.idle(), deliverer.idle()])),
    async close() {
      if (timer) clearInterval(timer);
      checker.close();
      await Promise.all([checker.idle(), deliverer.idle()]);
    },
    mount(app, m) {
      const h = alertHandlers({ alerts: service, clock, bodyLimitBytes: config.limits.bodyBytes });
      const base = `${m.base}/Alertas`;
      app.post(base, m.bearer, m.json, m.limit, h.create);
      app.get(base, m.bearer, m.limit, h.list);
      app.get(`${base}/Stream`, m.bearer, m.limit, alertStreamHandler(service, { keepAliveMs: m.keepAliveMs, retryMs: m.retryMs, logger: m.logger, shutdown: m.shutdown, openStream: m.openStream }));
      app.get(`${base}/Segredo`, m.bearer, m.limit, h.secret);
      app.post(`${base}/Segredo`, m.bearer, m.limit, h.rotate);
      app.get(`${base}/:id`, m.bearer, m.limit, h.get);
      app.delete(`${base}/:id`, m.bearer, m.limit, h.remove);
      app.get(`${base}/:id/Entregas`, m.bearer, m.limit, h.deliveries);
      return [
        [base, ["GET", "POST"]],
        [`${base}/Stream`, ["GET"]],
        [`${base}/Segredo`, ["GET", "POST"]],
      ];
    },
  };
};

/**
 * Price watches for `createApp`: `createApp({ ..., priceAlerts: priceAlerts({ resolve }) })`. The Node entry
 * gives it; see the docs' "Price alerts".
 *
 * @example
 * const app = createApp({ config, sources, priceAlerts: priceAlerts() });
 */
export const priceAlerts = (options: PriceAlertsOptions = {}): PriceAlertsFeature => ({
  start: (d, searches) => startAlerts(options, d, searches),
  openApiPaths: alertPaths,
});
