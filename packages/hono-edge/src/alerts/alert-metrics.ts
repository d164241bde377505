/**
 * What the price watches count, as a port of their own (the service's metrics stay as they are): the Node entry
 * gives `prom-client` counters on the service's registry (`entries/node-alert-metrics.ts`), everything else
 * {@link noopAlertMetrics}. Labels are fixed sets: never a tenant, a watch or a URL.
 */

/** How a day check ended: checked; put off by the budget, by every tenant's quota, or by a failure. */
export type CheckOutcome = "checked" | "budget" | "quota" | "failed";
/** How a webhook delivery try ended: delivered (2xx), to retry, given up (24 h passed, or 410), refused (its address). */
export type DeliveryOutcome = "delivered" | "retry" | "gave_up" | "refused";

/** The price watches' metrics. Every method is cheap and never throws. */
export interface AlertMetrics {
  /** A day check ended; `requests`: upstream requests it cost. */
  check(outcome: CheckOutcome, requests: number): void;
  /** An alert fired (per currency: `cash`, `miles`). */
  fired(kind: "cash" | "miles"): void;
  /** A delivery try ended, after `seconds`. */
  delivery(outcome: DeliveryOutcome, seconds: number): void;
  /** How to read the watches held and the days scheduled (read at each scrape). */
  held(read: () => { readonly watches: number; readonly units: number }): void;
}

/** Metrics that go nowhere. */
export const noopAlertMetrics: AlertMetrics = { check: () => undefined, fired: () => undefined, delivery: () => undefined, held: () => undefined };

/** Every value of the labels, for series written at zero from the start. */
export const ALERT_LABELS = {
  check: ["checked", "budget", "quota", "failed"] satisfies readonly CheckOutcome[],
  delivery: ["delivered", "retry", "gave_up", "refused"] satisfies readonly DeliveryOutcome[],
  fired: ["cash", "miles"] as const,
} as const;
