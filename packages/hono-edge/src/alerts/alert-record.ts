import { queryKey, type AlertEvent, type AlertSpec, type Cabin, type Carrier, type DayPrices, type SearchQuery } from "@voar/core";

/**
 * What the alerts' store keeps: the watches (`AlertRecord`), the day checks they share (`DayUnit`: one per
 * route, day, passengers and airlines, whoever watches it), the alerts they sent (`EventRecord`) and the
 * deliveries of those to webhooks (`DeliveryRecord`). Plain data, JSON all through.
 */

/** The tenant the checks search as: not a tenant name (`:` is not allowed in one), so no client shares its searches. */
export const ALERTS_TENANT = "voar:alertas";

/** The lowest cash price a watch has seen. */
export interface LowCash {
  /** Centavos, every passenger, taxes included. */
  readonly amount: number;
  readonly day: string;
  readonly airlineId: number;
  readonly carrier: Carrier;
}

/** The fewest points a watch has seen. */
export interface LowPoints {
  readonly points: number;
  /** Centavos paid beside the points. */
  readonly taxes: number;
  readonly programme: string;
  readonly day: string;
  readonly airlineId: number;
  readonly carrier: Carrier;
}

/** A price watch as stored. */
export interface AlertRecord {
  readonly id: string;
  readonly tenant: string;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms: the end of its `expiresOn` day in São Paulo. */
  readonly expiresAt: number;
  readonly spec: AlertSpec;
  /** Grows with every write: a write names the revision it read (optimistic concurrency). */
  readonly rev: number;
  readonly lowCash?: LowCash | undefined;
  readonly lowPoints?: LowPoints | undefined;
  /** Centavos of the last cash alert. */
  readonly notifiedCash?: number | undefined;
  /** Points of the last miles alert. */
  readonly notifiedPoints?: number | undefined;
  /** Day checks that reached it. */
  readonly checks: number;
  readonly lastCheckedAt?: number | undefined;
  /** Alerts it sent. */
  readonly fired: number;
}

/** The cheapest fares of a day, per cabin class and over all (`todas`). */
export type CabinPrices = Partial<Record<Cabin | "todas", DayPrices>>;

/** What one check of a day found. */
export interface UnitResult {
  /** Epoch ms. */
  readonly at: number;
  readonly prices: CabinPrices;
  /** Upstream requests it cost (0: the answer cache or another search had it). */
  readonly requests: number;
  /** Sources of the day's search that failed (its prices are then partial). */
  readonly failed: number;
}

/** A day check as the schedule keeps it: the query searched, the watches waiting on it. */
export interface DayUnit {
  /** The query's key (`queryKey`): route, day, passengers, airlines. */
  readonly key: string;
  readonly query: SearchQuery;
  /** Watch id -> tenant, of every watch on this day. */
  readonly watchers: Readonly<Record<string, string>>;
  /** Completed checks: the next check is slot `slot + 1`. */
  readonly slot: number;
  /** Checks in a row that found the same prices (the schedule loosens with it). */
  readonly stable: number;
  readonly last?: UnitResult | undefined;
}

/** A day check this instance holds the lease of, for slot `slot`. */
export interface ClaimedUnit extends DayUnit {
  /** The slot it checks: `DayUnit.slot + 1` when it was claimed. */
  readonly claimed: number;
}

/** An alert a watch sent, as its tenant's stream replays it. */
export interface EventRecord {
  /** Grows per tenant: the stream's event id. */
  readonly seq: number;
  readonly alertId: string;
  readonly event: AlertEvent;
}

/** One try of a delivery. */
export interface DeliveryAttempt {
  readonly at: number;
  /** HTTP status; absent without an answer. */
  readonly status?: number | undefined;
  /** Why it failed (a fixed sentence, never the receiver's body). */
  readonly error?: string | undefined;
  readonly ms: number;
}

/** An alert on its way to a webhook (at least once: the same `id` on every try). */
export interface DeliveryRecord {
  /** `webhook-id`, the event's `Id`. */
  readonly id: string;
  readonly alertId: string;
  readonly tenant: string;
  readonly url: string;
  readonly event: AlertEvent;
  readonly createdAt: number;
  readonly state: "pending" | "delivered" | "failed";
  readonly attempts: readonly DeliveryAttempt[];
  /** Epoch ms of the next try, while pending. */
  readonly nextAttemptAt?: number | undefined;
  readonly deliveredAt?: number | undefined;
}

/** A tenant's webhook secret, and the previous one while it still signs. */
export interface TenantSecret {
  readonly current: string;
  readonly previous?: string | undefined;
  /** Epoch ms until which `previous` signs too. */
  readonly previousUntil?: number | undefined;
}

/** An alert to record: appended to the tenant's stream, and queued for the webhook when the watch has one. */
export interface FiredEvent {
  readonly event: AlertEvent;
  readonly webhook?: string | undefined;
}

/** The query of a watch's day. */
export const dayQueryOf = (spec: AlertSpec, day: string): SearchQuery => ({ ...spec.query, departureDate: day });

/** The key of a day check: the day's query's (so two tenants' watches of one route and day share it). */
export const unitKeyOf = (query: SearchQuery): string => queryKey(query);

/** Epoch ms at which a São Paulo calendar day ends (UTC-3: Brazil keeps no daylight saving time since 2019). */
export const endOfDaySaoPaulo = (day: string): number => Date.parse(`${day}T00:00:00Z`) + 27 * 3_600_000;
