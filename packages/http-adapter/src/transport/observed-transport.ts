/**
 * Every HTTP exchange with the upstream, seen: a client span per request (`@opentelemetry/api`, a no-op
 * without an SDK) with the W3C `traceparent` of the current trace sent to the upstream, and an optional
 * observer told the route, the outcome and the duration (the service counts them as metrics). Runtime-neutral.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { isSourceError } from "@voar/core";
import type { HttpReply, HttpRequest, HttpTransport } from "./http-transport.js";

/**
 * How an exchange went: a 2xx/3xx, a 429 (`rate_limited`: the upstream asks us to slow down, not a mistake of
 * ours), another 4xx, a 5xx, no answer in time, a broken exchange, or cancelled by us.
 */
export type UpstreamOutcome = "ok" | "rate_limited" | "client_error" | "server_error" | "timeout" | "transport_error" | "aborted";

/** One finished exchange with the upstream. */
export interface UpstreamExchange {
  /** The path below the base URL: `/Token`, `/ConsultaAereo/Consultar`. */
  readonly route: string;
  /** Who it was for (the request's `source`: an airline's source, `upstream:all`, `upstream:login`), when the request said. */
  readonly source?: string | undefined;
  readonly outcome: UpstreamOutcome;
  /** HTTP status, when an answer came. */
  readonly status?: number | undefined;
  readonly durationMs: number;
}

/** Told of every exchange with the upstream (e.g. to count it). Must not throw; if it does, the exchange is unaffected. */
export type UpstreamObserver = (exchange: UpstreamExchange) => void;

/** Looked up at each use, so that an SDK registered after this module loaded is found. */
const tracer = () => trace.getTracer("@voar/http-adapter");

const outcomeOfStatus = (status: number): UpstreamOutcome => (status >= 500 ? "server_error" : status === 429 ? "rate_limited" : status >= 400 ? "client_error" : "ok");

const outcomeOfError = (error: unknown, signal: AbortSignal): UpstreamOutcome => {
  if (isSourceError(error)) return error._tag === "SourceTimeout" ? "timeout" : "transport_error";
  return signal.aborted ? "aborted" : "transport_error";
};

/**
 * `transport` with a span and an observation per exchange. `baseUrl` is cut off the URL to name the route.
 *
 * @example
 * const transport = observedTransport(createFetchTransport(), "https://host/api", ({ route, outcome }) => count(route, outcome));
 */
export const observedTransport = (transport: HttpTransport, baseUrl: string, observer?: UpstreamObserver): HttpTransport => ({
  async send(request: HttpRequest): Promise<HttpReply> {
    const route = request.url.startsWith(baseUrl) ? request.url.slice(baseUrl.length).split("?")[0] || "/" : "other";
    const parent = request.trace ?? context.active();
    const span = tracer().startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { "http.request.method": request.method, "url.template": route, "voar.upstream.route": route, ...(request.source === undefined ? {} : { "voar.upstream.source": request.source }) },
      },
      parent,
    );
    const headers: Record<string, string> = { ...request.headers };
    propagation.inject(trace.setSpan(parent, span), headers);
    const started = performance.now();
    const observe = (outcome: UpstreamOutcome, status?: number) => {
      try {
        observer?.({ route, source: request.source, outcome, status, durationMs: performance.now() - started });
      } catch {
        // An observer's failure (a metrics sink) must not change the exchange.
      }
    };
    try {
      const { trace: _trace, source: _source, ...plain } = request;
      const reply = await transport.send({ ...plain, headers });
      const outcome = outcomeOfStatus(reply.status);
      span.setAttribute("http.response.status_code", reply.status);
      if (outcome !== "ok") span.setStatus({ code: SpanStatusCode.ERROR, message: String(reply.status) });
      observe(outcome, reply.status);
      return reply;
    } catch (error) {
      const outcome = outcomeOfError(error, request.signal);
      span.setAttribute("error.type", outcome);
      if (outcome !== "aborted") span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      observe(outcome);
      throw error;
    } finally {
      span.end();
    }
  },
  close: () => transport.close(),
});
