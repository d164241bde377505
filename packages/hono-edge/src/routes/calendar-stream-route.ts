import { errorEnvelope, toWireCalendarDay, type CalendarChange, type CalendarSnapshot } from "@voar/core";
import type { CalendarRecord } from "../calendar/calendar-record.js";
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
 * The events of one calendar stream: the whole answer first and last, the days that changed in between, each
 * change measured against the days last sent (or, on a resume at the current version, the days the client has).
 */
const calendarEvents = (deps: CalendarRouteDeps, record: CalendarRecord, requestId: string) => {
  let sent: string[] | undefined;
  const wireDays = (s: CalendarSnapshot) => s.days.map((d) => JSON.stringify(toWireCalendarDay(d)));
  return {
    /** The snapshot the client has (a resume at the current version): the base of the next change. */
    known(s: CalendarSnapshot) {
      sent = wireDays(s);
    },
    /** The event of a snapshot: the whole answer (the first, or the completed one), else the days whose wire changed; undefined when none did. */
    of(s: CalendarSnapshot): string | undefined {
      const days = wireDays(s);
      const before = sent;
      sent = days;
      const whole = calendarEnvelopeOf(deps, s, record, requestId);
      if (!before || s.completed || before.length !== days.length) return `id: ${s.version}\ndata: ${JSON.stringify(whole)}\n\n`;
      const changed = days.filter((d, i) => d !== before[i]);
      if (changed.length === 0) return undefined;
      const change: Omit<CalendarChange, "Data"> = { Token: whole.Token, Completed: whole.Completed, HasResult: whole.HasResult, Progresso: whole.Progresso };
      // The changed days as written above, spliced in as they are (each one JSON object).
      const head = JSON.stringify(change);
      return `event: dias\nid: ${s.version}\ndata: ${head.slice(0, -1)},"Data":[${changed.join(",")}]}\n\n`;
    },
  };
};

/**
 * `POST /ConsultaAereo/Calendario/Stream`: the same calendar as Server-Sent Events, light: the first event
 * is the polling answer's envelope (`id:` its version), then each `dias` event (`event: dias`, `id:` the
 * version) carries only the days that changed since the previous event, each whole, with `Progresso` and
 * `Completed` (`MudancaCalendario`, see core's `applyCalendarChange`); the last event, `Completed: true`, is
 * the whole envelope again, so a reader of unnamed events alone sees the calendar start and end. Days that
 * change within `CALENDAR_EVENT_GAP_MS` (200 ms) go out together. `Last-Event-ID` resumes: at the current
 * version, with the changes after it; behind it, or ahead of it, with the whole envelope. Request errors
 * answer as JSON envelopes before the stream starts; the store going away mid-stream ends it with one
 * retryable `INDISPONIVEL` event.
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
    const events = calendarEvents(deps, record, requestId);
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
          // Until there is something to send (a change may leave every day's wire as it was).
          for (;;) {
            const step = await updates.next();
            if (cancelled) return;
            if (step.done) {
              release();
              controller.close();
              return;
            }
            const update = step.value;
            if (update.kind === "keep-alive") return controller.enqueue(encoder.encode(": keep-alive\n\n"));
            if (update.kind === "known") {
              events.known(update.snapshot);
              continue;
            }
            const event = events.of(update.snapshot);
            if (event !== undefined) return controller.enqueue(encoder.encode(event));
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
