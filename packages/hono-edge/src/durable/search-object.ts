import type { SearchSource } from "@voar/core";
import { priceAlerts, type PriceAlerts, type PriceAlertsOptions } from "../alerts/price-alerts.js";
import { createApp } from "../app/create-app.js";
import { priceCalendar } from "../calendar/price-calendar.js";
import { systemClock } from "../clock.js";
import type { ServiceConfig } from "../config/config-schema.js";
import { trackSearches, type TrackedStore } from "../entries/track-searches.js";
import { jsonLinesLogger, type Logger } from "../logging/logger.js";
import type { RateLimiter } from "../limits/token-bucket.js";
import { createMemoryPaganteSettings, type PaganteSettings } from "../settings/pagante-settings.js";
import { durableAlertStore, type DurableAlertStore } from "./durable-alert-store.js";
import { createDurableSessionStore, type DurableSessionStore } from "./durable-session-store.js";
import { mintSearchId } from "./search-id.js";
import type { DurableObjectState } from "./workers-types.js";

/**
 * The header the Worker sets on a search request it sends to an object: the airlines whose Pagante switch
 * was off when it computed the search's identity (comma separated). The object starts the search with the
 * same set, so the search it runs is the one the Worker routed. The Worker removes any client copy.
 */
export const HIDDEN_CASH_HEADER = "x-voar-hidden-cash-airlines";

/** While a search runs, the object's alarm fires this often: activity that keeps the object in memory. */
export const KEEP_ALIVE_MS = 10_000;

/** Rounds of the price watches' worker per alarm: a check's alert is delivered in the same alarm. */
const ALERT_ROUNDS = 2;

/** What a search object is made of: the Worker's configuration and sources, from its environment. */
export interface SearchObjectDeps {
  readonly config: ServiceConfig;
  readonly sources: readonly SearchSource[];
  readonly logger?: Logger | undefined;
  /** The price watches' options (tests: their webhook post). Default: the runtime's `fetch`, literal addresses checked. */
  readonly alerts?: PriceAlertsOptions | undefined;
}

/** The Worker checks the rate limit before it forwards; the object counts nothing again. */
const unlimited: RateLimiter = { take: () => Promise.resolve({ ok: true }) };

const hiddenFrom = (header: string | null): readonly number[] | undefined => {
  if (header === null) return undefined;
  const ids = header.split(",").filter((s) => /^\d{1,9}$/.test(s.trim())).map(Number);
  return [...new Set(ids)].sort((a, b) => a - b);
};

/**
 * One search identity's Durable Object: the whole app, with a session store in memory written through to
 * the object's storage. The Worker sends it every search request (body or poll) of its identity (tenant,
 * normalized query, Pagante state), so identical requests share its search wherever they arrive; the ids it
 * issues carry its object id, so polls by `Token` / `LeaseId` and SSE streams come back to it. A price
 * calendar's identity (tenant, query, days, Pagante state) names an object of its own the same way: it keeps
 * the calendar's record and runs its days as its own searches, whose `TokenBusca` route back to it. A search runs
 * on the object's timers after the first answer; while one runs, an alarm every {@link KEEP_ALIVE_MS} keeps
 * the object busy, and afterwards one at the next TTL expiry deletes what expired from storage.
 *
 * After an eviction, the constructor restores the stored searches: a completed one answers as before; one
 * that was running resumes (its pending sources run again, until its original deadline) at its next poll or
 * stream.
 */
export class SearchObjectCore {
  private readonly tracked: TrackedStore;
  private readonly durable: DurableSessionStore;
  private readonly app: ReturnType<typeof createApp>;
  private hidden: readonly number[] | undefined;
  private readonly logger: Logger;
  private readonly alertStore: DurableAlertStore;
  private alerts: PriceAlerts | undefined;
  /** Whether this is the alerts object (it has served `/Alertas`, or holds watches' checks): only then are they looked at. */
  private alertsHere = false;
  private readonly tickMs: number;

  constructor(
    private readonly state: DurableObjectState,
    deps: SearchObjectDeps,
  ) {
    const { config } = deps;
    this.logger = deps.logger ?? jsonLinesLogger();
    const base = createMemoryPaganteSettings(config.pagante);
    // Every body request the Worker sends here carries the same set (it is part of the object's name), so
    // the latest one given is the one to start with; polls carry none and read no Pagante state.
    const pagante: PaganteSettings = {
      list: () => base.list(),
      hiddenCashAirlines: () => (this.hidden ? Promise.resolve(this.hidden) : base.hiddenCashAirlines()),
      set: (id, enabled) => base.set(id, enabled),
    };
    this.durable = createDurableSessionStore({ storage: state.storage, clock: systemClock, maxSessions: config.limits.maxSessions, ttlMs: config.search.ttlMs });
    this.tracked = trackSearches(this.durable.store);
    const objectId = state.id.toString();
    this.alertStore = durableAlertStore({ storage: state.storage, clock: systemClock });
    this.tickMs = config.alerts.schedule.tickMs;
    const alerts = priceAlerts({ ...deps.alerts, timer: false });
    this.app = createApp({
      config,
      sources: deps.sources,
      store: { ...this.tracked.store, alerts: this.alertStore },
      logger: this.logger,
      pagante,
      rateLimiter: unlimited,
      newSearchId: () => mintSearchId(objectId),
      // A price calendar's object is this class too, named by the calendar's identity: its record in this
      // object's storage, its days this object's searches (their ids route back here, as the calendar's does).
      priceCalendar: priceCalendar(),
      // The price watches are the alerts object's (the Worker sends every /Alertas request to the one search object
      // named `<deployment>\u0000alertas`): kept in its storage, checked and delivered from its alarm (`alarm()`);
      // their checks are this object's searches, so an alert's `TokenBusca` routes back here. Other objects hold none.
      priceAlerts: { ...alerts, start: (d, searches) => (this.alerts = alerts.start(d, searches)) },
    });
    void state.blockConcurrencyWhile(async () => {
      const restored = await this.durable.restore();
      this.alertsHere = (await this.alertStore.nextDue()) !== undefined;
      if (restored > 0) this.logger.log({ level: "info", msg: "durable.restored", object: objectId, searches: restored });
    });
  }

  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname.includes("/Alertas")) this.alertsHere = true;
    this.hidden = hiddenFrom(request.headers.get(HIDDEN_CASH_HEADER)) ?? this.hidden;
    const response = await this.app.fetch(request);
    await this.schedule();
    return response;
  }

  async alarm(): Promise<void> {
    await this.checkAlerts();
    await this.schedule(true);
  }

  /** The price watches' due day checks and webhook deliveries, each taken under its lease, run to their end. */
  private async checkAlerts(): Promise<void> {
    const alerts = this.alerts;
    if (!alerts || !this.alertsHere) return;
    for (let round = 0; round < ALERT_ROUNDS; round++) {
      const due = await this.alertStore.nextDue();
      if (due === undefined || due > Date.now()) return;
      await alerts.tick();
      await alerts.idle();
    }
  }

  /**
   * Keeps an alarm: soon while a search runs, else at the next expiry in storage (after deleting the expired),
   * and never later than the price watches' next due check or delivery (at most every `alerts.schedule.tickMs`).
   */
  private async schedule(fired = false): Promise<void> {
    const now = Date.now();
    const current = fired ? null : await this.state.storage.getAlarm();
    const due = this.alertsHere ? await this.alertStore.nextDue() : undefined;
    const alertsAt = due === undefined ? Infinity : Math.max(due, now + this.tickMs);
    if (this.tracked.running() > 0) {
      const at = Math.min(now + KEEP_ALIVE_MS, alertsAt);
      if (current === null || current > at) await this.state.storage.setAlarm(at);
      return;
    }
    if (!fired && current !== null) {
      // The pending alarm sweeps when it fires; it comes sooner when a watch is due first.
      if (alertsAt < current) await this.state.storage.setAlarm(alertsAt);
      return;
    }
    const at = Math.min((await this.durable.sweep()) ?? Infinity, alertsAt);
    if (Number.isFinite(at)) await this.state.storage.setAlarm(at);
  }
}
