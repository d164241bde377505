/** What the alerts' stores keep, and how they average a check's cost: the same numbers in memory and in Redis. */

/** Alerts kept per tenant for its stream's replay (`Last-Event-ID`). */
export const EVENTS_KEPT = 500;
/** Deliveries kept per watch (`/Alertas/{id}/Entregas`). */
export const DELIVERIES_KEPT = 50;
/** How long a finished delivery is kept. */
export const DELIVERY_TTL_MS = 7 * 86_400_000;
/** Weight of the latest check in the moving average of a check's upstream requests. */
export const AVERAGE_WEIGHT = 0.05;

/** The moving average of a check's upstream requests after one more check (`first`: the first one ever). */
export const nextAverage = (average: number, requests: number, first: boolean): number =>
  first ? requests : average + AVERAGE_WEIGHT * (requests - average);
