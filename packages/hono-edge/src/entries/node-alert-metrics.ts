/**
 * The price watches' metrics ({@link AlertMetrics}) on `prom-client`, on the service's registry (Node entry):
 * day checks by outcome and the upstream requests they cost, alerts fired by currency, webhook deliveries by
 * outcome and their duration, and the watches held and days scheduled (deployment-wide, read from the store).
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { ALERT_LABELS, type AlertMetrics } from "../alerts/alert-metrics.js";

/** The alerts' metrics, registered on `registry` (every labelled series at zero from the start). */
export const promAlertMetrics = (registry: Registry): AlertMetrics => {
  const registers = [registry];
  const checks = new Counter({ name: "voar_alert_checks_total", help: "Day checks of the price watches, by outcome (checked; put off by the budget, the tenants' quota; failed).", labelNames: ["outcome"], registers });
  const requests = new Counter({ name: "voar_alert_check_upstream_requests_total", help: "Upstream requests the price watches' checks cost.", registers });
  const fired = new Counter({ name: "voar_alert_fired_total", help: "Alerts fired, by currency (cash, miles).", labelNames: ["kind"], registers });
  const deliveries = new Counter({ name: "voar_alert_deliveries_total", help: "Webhook delivery tries, by outcome (delivered, retry, gave_up, refused).", labelNames: ["outcome"], registers });
  const duration = new Histogram({ name: "voar_alert_delivery_duration_seconds", help: "How long a webhook receiver took to answer a try.", buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers });
  let read = () => ({ watches: 0, units: 0 });
  new Gauge({ name: "voar_alert_watches", help: "Price watches held (every instance's, as the store counts them).", registers, collect() { this.set(read().watches); } });
  new Gauge({ name: "voar_alert_days_scheduled", help: "Days the price watches' schedule checks (shared by the watches on them).", registers, collect() { this.set(read().units); } });
  for (const outcome of ALERT_LABELS.check) checks.inc({ outcome }, 0);
  for (const kind of ALERT_LABELS.fired) fired.inc({ kind }, 0);
  for (const outcome of ALERT_LABELS.delivery) deliveries.inc({ outcome }, 0);
  return {
    check: (outcome, n) => {
      checks.inc({ outcome });
      if (n > 0) requests.inc(n);
    },
    fired: (kind) => fired.inc({ kind }),
    delivery: (outcome, seconds) => {
      deliveries.inc({ outcome });
      duration.observe(seconds);
    },
    held: (r) => void (read = r),
  };
};
