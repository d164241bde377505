/**
 * Traces on Node: when the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * is set, the OpenTelemetry SDK is registered (W3C `traceparent` propagation; a synchronous context manager,
 * the service handing its trace context down itself)
 * and spans are exported in batches over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`; the exporter reads the
 * other `OTEL_EXPORTER_OTLP_*` variables (headers, timeout) itself. The service is named by
 * `OTEL_SERVICE_NAME` (default `voar`). Unset, nothing is registered and every span of the service, its
 * engine and its upstream adapter is a no-op. An exporter that cannot reach its collector drops spans
 * (bounded queue, each dropped span counted); it never holds a request, and holds a shutdown at most
 * {@link TRACING_SHUTDOWN_MS}.
 */
import { createNoopMeter, type Attributes, type Counter, type MeterProvider } from "@opentelemetry/api";

import type { BufferConfig } from "@opentelemetry/sdk-trace-base";
import { SyncContextManager } from "../telemetry/sync-context-manager.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";

/** A registered SDK, to flush and stop at shutdown. */
export interface NodeTracing {
  /** Flushes the spans queued and stops, within {@link TRACING_SHUTDOWN_MS}: spans a collector did not take by then are dropped. */
  shutdown(): Promise<void>;
  /**
   * From now on, every batch the exporter sends (or fails to) is counted (`voar_trace_export_spans_total`): the
   * exporter's health; and every span dropped at the queue, full because the collector is slow or unreachable
   * (`voar_trace_spans_dropped_total`).
   */
  observe(metrics: ServiceMetrics): void;
}

/** How long a shutdown waits for the exporter: a collector that cannot be reached does not hold the instance's exit. */
export const TRACING_SHUTDOWN_MS = 2_000;

/**
 * The batch processor's own metrics (`otel.sdk.processor.span.processed`, its self-observability) as a meter
 * provider that hears only the spans it dropped because its queue was full (`error.type` `queue_full`).
 */
const droppedSpans = (onDropped: (spans: number) => void): MeterProvider => ({
  getMeter() {
    const meter = createNoopMeter();
    const counter: Counter = {
      add(value: number, attributes?: Attributes) {
        if (attributes?.["error.type"] === "queue_full") onDropped(value);
      },
    };
    return Object.assign(Object.create(meter) as typeof meter, { createCounter: () => counter });
  },
});

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
  // `selfObsMeterProvider` (the SDK's experimental self-observability, not yet in `BufferConfig`'s type): the queue's drops.
  const processorOptions: BufferConfig & { readonly selfObsMeterProvider: MeterProvider } = { selfObsMeterProvider: droppedSpans((spans) => metrics?.spansDropped(spans)) };
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env["OTEL_SERVICE_NAME"]?.trim() || "voar" }),
    spanProcessors: [new BatchSpanProcessor(exporter, processorOptions)],
  });
  // The service hands its trace context down itself: a synchronous context manager is enough, and spares every
  // promise the cost of AsyncLocalStorage's hooks (see `SyncContextManager`).
  provider.register({ contextManager: new SyncContextManager() });
  const shutdown = async (): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, TRACING_SHUTDOWN_MS)));
    // The exporter's own time limit (10 s) and retries would hold the exit while the collector stays unreachable.
    await Promise.race([provider.shutdown().catch(() => undefined), late]).finally(() => clearTimeout(timer));
  };
  return { shutdown, observe: (m) => void (metrics = m) };
};
