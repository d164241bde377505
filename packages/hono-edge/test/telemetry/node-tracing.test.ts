/**
 * The Node entry's tracing when its collector fails the operator: spans dropped at the exporter's full queue are
 * counted (`voar_trace_spans_dropped_total`), and a collector that never answers holds the shutdown for
 * `TRACING_SHUTDOWN_MS` (2 s, virtual time here), not for the exporter's own 10 s limit and retries.
 */
import { createServer, type Server } from "node:net";
import { context, propagation, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPromMetrics } from "../../src/entries/node-metrics.js";
import { startNodeTracing, TRACING_SHUTDOWN_MS } from "../../src/entries/node-tracing.js";
import { parseScrape, sampleOf } from "../support/prometheus.js";

/** A collector that accepts connections and never answers. */
const silentCollector = async (): Promise<{ url: string; server: Server }> => {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { url: `http://127.0.0.1:${address.port}`, server };
};

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  trace.disable();
  context.disable();
  propagation.disable();
});

describe("tracing on Node with a collector that does not answer", () => {
  it("counts the spans dropped at the full queue, and stops within 2 s", async () => {
    const collector = await silentCollector();
    try {
      // A queue of 4 spans, sent in batches of 4 (the first batch leaves at once and never comes back).
      vi.stubEnv("OTEL_BSP_MAX_QUEUE_SIZE", "4");
      vi.stubEnv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "4");
      vi.stubEnv("OTEL_BSP_SCHEDULE_DELAY", "60000");
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
      const tracing = await startNodeTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
      const metrics = createPromMetrics({ nodeMetrics: false });
      tracing!.observe(metrics);
      const tracer = trace.getTracer("test");
      // 4 go in the batch being sent, 4 wait in the queue, 2 find it full.
      for (let i = 0; i < 10; i++) tracer.startSpan(`span ${i}`).end();
      expect(sampleOf(parseScrape(await metrics.scrape()), "voar_trace_spans_dropped_total")).toBe(2);

      let stopped = false;
      const stopping = tracing!.shutdown().then(() => (stopped = true));
      await vi.advanceTimersByTimeAsync(TRACING_SHUTDOWN_MS - 1);
      expect(stopped).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await stopping;
      expect(stopped).toBe(true);
    } finally {
      vi.useRealTimers();
      collector.server.close();
    }
  });
});
