import { calendarToEnvelope, parseCalendarRequest, type AirportDirectory, type CalendarEnvelope, type CalendarSnapshot } from "@voar/core";
import type { Context } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { CalendarHub } from "../calendar/calendar-hub.js";
import type { CalendarRecord } from "../calendar/calendar-record.js";
import type { Clock } from "../clock.js";
import { InvalidRequest, UnknownSearch } from "../errors/service-errors.js";
import { parseJsonText, readBodyText } from "../http/read-body.js";
import type { PaganteSettings } from "../settings/pagante-settings.js";
import { pollField } from "./search-request.js";

/** What the calendar routes share. */
export interface CalendarRouteDeps {
  readonly calendars: CalendarHub;
  readonly airports: AirportDirectory;
  readonly clock: Clock;
  readonly pagante: PaganteSettings;
  readonly bodyLimitBytes: number;
  /** `Progresso.ProximaConsultaMs` while a calendar runs. */
  readonly pollHintMs: number;
}

/**
 * Reads and validates the body of a calendar request, then starts or joins its calendar (a query with
 * `DiasFlexiveis`) or finds it (a poll by `Token` / `LeaseId`, within the caller's tenant). Read the way the
 * caller's `compat` says, as a search's. Throws the tagged errors of the service.
 */
export const resolveCalendar = async (deps: CalendarRouteDeps, c: Context<AppEnv>): Promise<CalendarRecord> => {
  const text = await readBodyText(c.req.raw, deps.bodyLimitBytes);
  const { tenant, compat } = c.get("principal");
  const body = parseJsonText(text);
  const parsed = parseCalendarRequest(body, { airports: deps.airports, now: new Date(deps.clock.now()), compat });
  if (parsed.kind === "invalid") throw new InvalidRequest(parsed.campos);
  if (parsed.kind === "calendar") return deps.calendars.open(tenant, parsed.query, parsed, await deps.pagante.hiddenCashAirlines(), c.get("trace"));
  const record = await deps.calendars.find(tenant, parsed.token);
  if (!record) throw new UnknownSearch(pollField(body), "calendar");
  return record;
};

/** The answer of a calendar snapshot: the same for polling and for each SSE event. */
export const calendarEnvelopeOf = (deps: CalendarRouteDeps, c: CalendarSnapshot, record: CalendarRecord, requestId: string): CalendarEnvelope =>
  calendarToEnvelope(c, { calendarId: record.id, requestId, nextPollMs: deps.pollHintMs });
