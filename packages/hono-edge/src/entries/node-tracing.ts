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

/** A registered SDK, to flush and stop at shutdown. */
export interface NodeTracing {
  shutdown(): Promise<void>;
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
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env["OTEL_SERVICE_NAME"]?.trim() || "voar" }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The service hands its trace context down itself: a synchronous context manager is enough, and spares every
  // promise the cost of AsyncLocalStorage's hooks (see `SyncContextManager`).
  provider.register({ contextManager: new SyncContextManager() });
  return { shutdown: () => provider.shutdown() };
};
