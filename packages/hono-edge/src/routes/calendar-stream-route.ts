import { errorEnvelope } from "@voar/core";
import type { Handler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { isStoreUnavailable } from "../errors/service-errors.js";
import { loggerInTrace } from "../logging/logger.js";
import { calendarEnvelopeOf, resolveCalendar, type CalendarRouteDeps } from "./calendar-request.js";
import type { StreamSettings } from "./stream-route.js";

const encoder = new TextEncoder();

/** `Last-Event-ID` as a version; anything but a plain non-negative integer counts as absent. */
const lastEventIdOf = (header: string | undefined): number | undefined =>
  header !== undefined && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : undefined;

/**
 * `POST /ConsultaAereo/Calendario/Stream`: the same calendar as Server-Sent Events, as the search's stream
 * is: one event per snapshot (`id:` its version, `data:` the polling answer's envelope), ending after the
 * one with `Completed: true`; `Last-Event-ID` resumes after that version. Request errors answer as JSON
 * envelopes before the stream starts; the store going away mid-stream ends it with one retryable
 * `INDISPONIVEL` event.
 */
export const calendarStreamHandler =
  (deps: CalendarRouteDeps, settings: StreamSettings): Handler<AppEnv> =>
  async (c) => {
    const record = await resolveCalendar(deps, c);
    const requestId = c.get("requestId");
    const logger = loggerInTrace(settings.logger, c.get("trace"));
    const abort = new AbortController();
    const unhook = settings.shutdown?.add(() => abort.abort()) ?? (() => undefined);
    let open = true;
    settings.metrics?.sseStreams(1);
    const release = () => {
      unhook();
      if (open) settings.metrics?.sseStreams(-1);
      open = false;
    };
    const updates = deps.calendars.updates(record, lastEventIdOf(c.req.header("last-event-id")), settings.keepAliveMs, abort.signal);
    let started = false;
    let cancelled = false;
    const fail = (controller: ReadableStreamDefaultController<Uint8Array>, code: "INDISPONIVEL" | "ERRO_INTERNO") => {
      const { body: failure } = errorEnvelope(code, { requestId, token: record.id });
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(failure)}\n\n`));
      controller.close();
      abort.abort();
      release();
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(`retry: ${settings.retryMs}\n\n`));
          return;
        }
        try {
          const step = await updates.next();
          if (cancelled) return;
          if (step.done) {
            release();
            controller.close();
          } else if (step.value.kind === "keep-alive") controller.enqueue(encoder.encode(": keep-alive\n\n"));
          else {
            const s = step.value.snapshot;
            controller.enqueue(encoder.encode(`id: ${s.version}\ndata: ${JSON.stringify(calendarEnvelopeOf(deps, s, record, requestId))}\n\n`));
          }
        } catch (e) {
          if (isStoreUnavailable(e)) {
            logger.log({ level: "info", msg: "stream.store_unavailable", requestId, calendarId: record.id, error: e.message });
            return fail(controller, "INDISPONIVEL");
          }
          logger.log({ level: "error", msg: "stream.failed", requestId, calendarId: record.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
          fail(controller, "ERRO_INTERNO");
        }
      },
      async cancel() {
        cancelled = true;
        release();
        abort.abort();
        await updates.return(undefined);
      },
    });
    return c.body(body, 200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" });
  };
