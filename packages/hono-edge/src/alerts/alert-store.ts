import type { Unwatch } from "../search/session-store.js";
import type { AlertRecord, ClaimedUnit, DayUnit, DeliveryRecord, EventRecord, FiredEvent, TenantSecret, UnitResult } from "./alert-record.js";

/**
 * Where the price watches live: the watches, the schedule of their day checks, the alerts they sent and the
 * deliveries of those, in memory (one instance) or in Redis (every instance sharing it). Every method is
 * async and atomic; times are the store's own clock (Redis's `TIME`), so instances' clocks never decide a lease.
 *
 * What an implementation must guarantee:
 * - `create` counts the tenant's watches and stores the new one in the same step (the quota holds across
 *   instances), and puts each of its days in the schedule (due now) or adds it to the day already there;
 * - `claim` hands a due day check to one caller only, under a lease: until the lease lapses nobody else gets it,
 *   and once it lapses (its instance died) the same slot goes to the next caller;
 * - `complete` records a check only from the lease's holder, moves the day to its next due time and frees it;
 * - `update` writes a watch only at the revision the caller read (and then appends its alerts and queues their
 *   deliveries in the same step), so two checks of two days of one watch never lose each other's lows;
 * - `claimDeliveries` likewise leases each delivery to one caller at a time.
 */
export interface AlertStore {
  /** Stores a watch and its day checks; false (nothing stored) when its tenant already holds `maxWatches`. */
  create(record: AlertRecord, units: readonly Pick<DayUnit, "key" | "query">[], maxWatches: number): Promise<boolean>;
  /** A watch by id; undefined when unknown or removed. */
  get(id: string): Promise<AlertRecord | undefined>;
  /** A tenant's watches, oldest first. */
  list(tenant: string): Promise<readonly AlertRecord[]>;
  /** Removes a tenant's watch (and its days' checks no other watch needs); false when it is not the tenant's. */
  remove(tenant: string, id: string): Promise<boolean>;
  /** Writes a watch read at revision `rev` (stored as `rev + 1`), its alerts with it; false when it changed meanwhile or is gone. */
  update(record: AlertRecord, rev: number, fired: readonly FiredEvent[]): Promise<boolean>;

  /** Up to `max` due day checks, each now leased to `owner` for `leaseMs`. */
  claim(owner: string, leaseMs: number, max: number): Promise<readonly ClaimedUnit[]>;
  /** Extends a held lease; false when it is no longer `owner`'s. */
  renew(key: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Records slot `claimed`'s check and makes the day due `nextInMs` later; false (nothing written) when the lease is not `owner`'s. */
  complete(key: string, owner: string, claimed: number, result: UnitResult, stable: number, nextInMs: number): Promise<boolean>;
  /** Gives a held check back unchecked, due again `delayMs` later (the budget or the quota said wait). */
  release(key: string, owner: string, delayMs: number): Promise<void>;
  /** Forgets a day check (its day passed): its watches keep their other days. */
  drop(key: string): Promise<void>;
  /** Removes the watches past their end; how many. */
  expire(): Promise<number>;
  /** Watches held, day checks scheduled, and the upstream requests a check has cost lately (a moving average). */
  stats(): Promise<{ readonly watches: number; readonly units: number; readonly requestsPerCheck: number }>;

  /** Up to `max` deliveries due now, each leased to `owner` for `leaseMs`. */
  claimDeliveries(owner: string, leaseMs: number, max: number): Promise<readonly DeliveryRecord[]>;
  /** Writes a delivery after a try and frees its lease; false when the lease is not `owner`'s. */
  finishDelivery(record: DeliveryRecord, owner: string): Promise<boolean>;
  /** A watch's latest deliveries, newest first. */
  deliveries(alertId: string): Promise<readonly DeliveryRecord[]>;

  /** A tenant's alerts after a sequence number, oldest first (the latest few hundred are kept). */
  events(tenant: string, afterSeq: number): Promise<readonly EventRecord[]>;
  /** Calls `listener` with the sequence number of each new alert of the tenant (on any instance). */
  onEvent(tenant: string, listener: (seq: number) => void): Promise<Unwatch>;

  /** The tenant's webhook secret, `fresh` stored first when it has none. */
  secret(tenant: string, fresh: string): Promise<TenantSecret>;
  /** Replaces the tenant's secret with `fresh`; the current one still signs for `graceMs`. */
  rotateSecret(tenant: string, fresh: string, graceMs: number): Promise<TenantSecret>;
}
