/**
 * Traces on Node: when the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * is set, the OpenTelemetry SDK is registered (W3C `traceparent` propagation; a synchronous context manager,
 * the service handing its trace context down itself)
 * and spans are exported in batches over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`; the exporter reads the
 * other `OTEL_EXPORTER_OTLP_*` variables (headers, timeout) itself. The service is named by
 * `OTEL_SERVICE_NAME` (default `voar`). Unset, nothing is registered and every span of the service, its
 * engine and its upstream adapter is a no-op. An exporter that cannot reach its collector drops spans
 * (bounded queue); it never holds a request.
 */

import { SyncContextManager } from "../telemetry/sync-context-manager.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";

/** A registered SDK, to flush and stop at shutdown. */
export interface NodeTracing {
  shutdown(): Promise<void>;
  /** From now on, every batch the exporter sends (or fails to) is counted (`voar_trace_export_spans_total`): the exporter's health. */
  observe(metrics: ServiceMetrics): void;
}

/** Whether the environment asks for traces. */
export const tracingWanted = (env: Readonly<Record<string, string | undefined>>): boolean =>
  Boolean(env["OTEL_EXPORTER_OTLP_ENDPOINT"]?.trim() || env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]?.trim());

/**
 * Registers the SDK when the environment asks for traces (see above); undefined otherwise. The SDK's
 * packages are loaded only then.
 *
 * @example
 * const tracing = await startNodeTracing(process.env);
 * // at shutdown: await tracing?.shutdown();
 */
export const startNodeTracing = async (env: Readonly<Record<string, string | undefined>>): Promise<NodeTracing | undefined> => {
  if (!tracingWanted(env)) return undefined;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const exporter = new OTLPTraceExporter();
  let metrics: ServiceMetrics | undefined;
  // The exporter's health: each batch counted by how its export ended (a collector that cannot be reached is
  // dropped spans, never a request's time; the operator sees them here and in an alert).
  const send = exporter.export.bind(exporter);
  exporter.export = (spans, done) =>
    send(spans, (result) => {
      metrics?.traceExport(result.code === 0 ? "success" : "failure", spans.length);
      done(result);
    });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env["OTEL_SERVICE_NAME"]?.trim() || "voar" }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The service hands its trace context down itself: a synchronous context manager is enough, and spares every
  // promise the cost of AsyncLocalStorage's hooks (see `SyncContextManager`).
  provider.register({ contextManager: new SyncContextManager() });
  return { shutdown: () => provider.shutdown(), observe: (m) => void (metrics = m) };
};
