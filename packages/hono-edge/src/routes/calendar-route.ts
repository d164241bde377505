import type { Handler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { answerTag, noneMatch } from "../http/entity-tag.js";
import { calendarEnvelopeOf, resolveCalendar, type CalendarRouteDeps } from "./calendar-request.js";

/**
 * `POST /ConsultaAereo/Calendario`: the price calendar by polling. The first request of a query with
 * `DiasFlexiveis` starts its calendar (its days as ordinary searches, the day asked first) and answers at
 * once with what is known; repeating it, or sending `{ "Token": id }` / `{ "LeaseId": id }`, answers the
 * calendar as it stands, until `Completed`. Never an error for a day that failed: that day says why.
 *
 * A weak `ETag` names the calendar and its version; a poll whose `If-None-Match` names it is answered
 * `304 Not Modified` without a body.
 */
export const calendarHandler =
  (deps: CalendarRouteDeps): Handler<AppEnv> =>
  async (c) => {
    const record = await resolveCalendar(deps, c);
    const snapshot = await deps.calendars.snapshot(record);
    const tag = answerTag(record.id, snapshot.version, "calendario");
    const requestId = c.get("requestId");
    if (noneMatch(c.req.header("if-none-match"), tag)) return new Response(null, { status: 304, headers: { ETag: tag, "X-Request-Id": requestId } });
    return c.json(calendarEnvelopeOf(deps, snapshot, record, requestId), 200, { ETag: tag });
  };
