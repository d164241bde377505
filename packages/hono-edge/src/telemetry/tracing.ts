/**
 * The service's spans, through `@opentelemetry/api` only (runtime-neutral; every call is a no-op until an
 * entry registers an SDK, as the Node entry does when `OTEL_EXPORTER_OTLP_ENDPOINT` is set).
 */
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type TextMapGetter, type Tracer, type TracerProvider } from "@opentelemetry/api";

let kept: { readonly provider: TracerProvider; readonly tracer: Tracer } | undefined;

/**
 * The tracer of the service's own spans (requests, searches), for the global provider of the moment: the
 * Node entry registers its SDK after the app's modules loaded (and the SDK's CommonJS copy of
 * `@opentelemetry/api` sets the global provider, not this ESM copy's proxy), so a tracer kept from load time
 * would stay a no-op. Kept while the provider stays the same: the SDK's `getTracer` builds its key string per
 * call, about half a percent of a poll's time in a profile.
 */
export const tracer = (): Tracer => {
  const provider = trace.getTracerProvider();
  if (kept?.provider !== provider) kept = { provider, tracer: provider.getTracer("@voar/hono-edge") };
  return kept.tracer;
};

const headersGetter: TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

/**
 * A request's span (kind server), child of the client's trace when its `traceparent` names one (read only
 * when the request has one: most have none, and a poll should not pay the propagators for nothing).
 */
export const startRequestSpan = (method: string, route: string, headers: Headers): { span: Span; ctx: Context } => {
  const parent = headers.has("traceparent") ? propagation.extract(ROOT_CONTEXT, headers, headersGetter) : ROOT_CONTEXT;
  const span = tracer().startSpan(`${method} ${route}`, { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "http.route": route } }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
};

/** Ends a request's span with its status (5xx an error, 503 included: the client got no answer). */
export const endRequestSpan = (span: Span, status: number): void => {
  span.setAttribute("http.response.status_code", status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
};

/** The trace id of a span that records (an SDK is registered and sampled it), else undefined. */
export const traceIdOf = (span: Span | undefined): string | undefined => (span?.isRecording() ? span.spanContext().traceId : undefined);

/** The trace id of a context's span (a request's, a search's), for log lines; undefined without a valid one. */
export const traceIdOfContext = (ctx: Context): string | undefined => {
  const sc = trace.getSpan(ctx)?.spanContext();
  return sc && isSpanContextValid(sc) ? sc.traceId : undefined;
};

/** The trace id of the active span (the request or search being served), for log lines. */
export const activeTraceId = (): string | undefined => traceIdOfContext(context.active());

export { context, trace, SpanStatusCode, type Span, type Context };
