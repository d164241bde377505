import { errorEnvelope } from "@voar/core";
import type { Handler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { isStoreUnavailable } from "../errors/service-errors.js";
import { loggerInTrace, type Logger } from "../logging/logger.js";
import { resolveSearch, type SearchRouteDeps } from "./search-request.js";
import { serializedAnswer } from "./serialized-answer.js";
import { joinChunks } from "../http/parted-answer.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";
import type { Admission } from "../limits/admission.js";

/** Settings of the SSE stream. */
export interface StreamSettings {
  /** A comment line after this long without a snapshot. */
  readonly keepAliveMs: number;
  /** The `retry:` reconnection hint. */
  readonly retryMs: number;
  readonly logger: Logger;
  /**
   * The app's shutdown: open streams end (without a final event) so clients resume elsewhere. `add` registers
   * a stream's hook and returns its removal (one listener on the signal for all streams, not one each).
   */
  readonly shutdown?: { add(hook: () => void): () => void } | undefined;
  /** Counts the open streams. Default: not counted. */
  readonly metrics?: ServiceMetrics | undefined;
  /** Admission control: a new stream beyond its cap is refused (429). Default: none. */
  readonly admission?: Admission | undefined;
}

const encoder = new TextEncoder();

/**
 * One event of a snapshot: `id:` its version, `data:` the envelope, whose bytes are written once per version and
 * page for every stream and poll of the search (`serializedAnswer`): a thousand streams of one search serialize
 * each version once, and each stream only splices its own `RequestId` in.
 */
const snapshotEvent = (version: number, envelope: readonly Uint8Array[]): Uint8Array => {
  const head = encoder.encode(`id: ${version}\ndata: `);
  const parts = [head, ...envelope, END];
  let length = 0;
  for (const part of parts) length += part.length;
  return joinChunks(parts, length);
};
const END = encoder.encode("\n\n");

/** `Last-Event-ID` as a version; anything but a plain non-negative integer counts as absent. */
const lastEventIdOf = (header: string | undefined): number | undefined =>
  header !== undefined && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : undefined;

/**
 * `POST /ConsultaAereo/Stream`: the same search as Server-Sent Events. One event per snapshot, `id:` its
 * version and `data:` the same envelope the polling answer has for the page asked; the stream ends after
 * the event whose envelope has `Completed: true`. `Last-Event-ID` resumes after that version (see
 * `watchSearch`). Request errors (401, 400, 404, 413, 429, 503) answer as JSON envelopes before any stream
 * starts. If the store becomes unreachable while the stream is open, it ends with one retryable
 * `INDISPONIVEL` event (no `id:`), so a reconnection with `Last-Event-ID` resumes where the client was.
 * Events use the default type (`message`), so any SSE reader sees them without naming an event.
 */
export const streamHandler =
  (deps: SearchRouteDeps, settings: StreamSettings): Handler<AppEnv> =>
  async (c) => {
    const leave = settings.admission?.openStream() ?? (() => undefined);
    let resolved: Awaited<ReturnType<typeof resolveSearch>>;
    try {
      resolved = await resolveSearch(deps, c);
    } catch (e) {
      leave();
      throw e;
    }
    const requestId = c.get("requestId");
    // Written while the stream runs, long after the request's context: each record carries its trace itself.
    const logger = loggerInTrace(settings.logger, c.get("trace"));
    const abort = new AbortController();
    const unhook = settings.shutdown?.add(() => abort.abort()) ?? (() => undefined);
    // Open from here until the stream ends, whichever way (its last event, the client gone, shutdown, a failure).
    let open = true;
    settings.metrics?.sseStreams(1);
    const release = () => {
      unhook();
      leave();
      if (open) settings.metrics?.sseStreams(-1);
      open = false;
    };
    const updates = deps.hub.updates(resolved.record, lastEventIdOf(c.req.header("last-event-id")), settings.keepAliveMs, abort.signal);
    let started = false;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(`retry: ${settings.retryMs}\n\n`));
          return;
        }
        try {
          const step = await updates.next();
          if (cancelled) return; // the client went away while we waited
          if (step.done) {
            release();
            controller.close();
            return;
          }
          if (step.value.kind === "keep-alive") {
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
            return;
          }
          const s = step.value.snapshot;
          controller.enqueue(snapshotEvent(s.version, serializedAnswer(deps, s, resolved, requestId, true).body as readonly Uint8Array[]));
        } catch (e) {
          if (isStoreUnavailable(e)) {
            // The store went down mid-stream: a retryable INDISPONIVEL event without an id, then a clean end,
            // so the client reconnects with the Last-Event-ID of the last snapshot it got and resumes there.
            // Per stream, so `info`: the outage itself is logged once per instance (`store.down`).
            logger.log({ level: "info", msg: "stream.store_unavailable", requestId, searchId: resolved.record.id, error: e.message });
            const { body: failure } = errorEnvelope("INDISPONIVEL", { requestId, token: resolved.record.id });
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(failure)}\n\n`));
            controller.close();
            abort.abort();
            release();
            return;
          }
          // A bug while streaming: logged with its detail, answered as a final ERRO_INTERNO event without it.
          logger.log({ level: "error", msg: "stream.failed", requestId, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
          const { body: failure } = errorEnvelope("ERRO_INTERNO", { requestId, token: resolved.record.id });
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(failure)}\n\n`));
          controller.close();
          abort.abort();
          release();
        }
      },
      async cancel() {
        cancelled = true;
        release();
        abort.abort();
        await updates.return(undefined);
      },
    });
    return c.body(body, 200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    });
  };
