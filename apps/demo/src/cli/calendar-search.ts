import { calendar, calendarToEnvelope, parseCalendarRequest, planCalendar, search, todayInSaoPaulo, type CalendarEnvelope, type FieldError } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createClient, type CalendarRequest, type FetchLike } from "@voar/http-adapter/fetch";
import { createSimulator } from "@voar/testing/simulator";
import { map, type Observable } from "rxjs";
import type { RemoteTarget } from "./remote-search.js";

/** A calendar about to run, or the fields that keep it from running. */
export type PreparedCalendar =
  | { readonly kind: "invalid"; readonly campos: readonly FieldError[] }
  | { readonly kind: "ready"; readonly answers$: Observable<CalendarEnvelope> };

/**
 * A price calendar in-process on the embedded simulator: the request rules of `POST /ConsultaAereo/Calendario`,
 * core's `calendar()` over one engine search per day (every day at once, the day asked first), one answer per
 * snapshot. Its days have no `TokenBusca`: there is no service to open them in.
 */
export const prepareLocalCalendar = (body: Record<string, unknown>, options: { seed?: number; now?: Date } = {}): PreparedCalendar => {
  const now = options.now ?? new Date();
  const parsed = parseCalendarRequest(body, { airports, now });
  if (parsed.kind === "invalid") return { kind: "invalid", campos: parsed.campos };
  if (parsed.kind === "poll") return { kind: "invalid", campos: [{ Campo: "Token", Mensagem: "A CLI inicia calendários; use origem, destino e data." }] };
  const simulator = createSimulator(options.seed === undefined ? {} : { seed: options.seed });
  const plan = planCalendar(parsed.query, { before: parsed.flexibleDays, after: parsed.flexibleDays, returnDays: parsed.returnDays }, todayInSaoPaulo(now));
  const calendarId = `cli-${now.getTime().toString(36)}`;
  let n = 0;
  const answers$ = calendar(plan, (day) => search(day, simulator.sources), { airports }).pipe(
    map((c) => calendarToEnvelope(c, { calendarId, requestId: `${calendarId}-${++n}`, nextPollMs: 0 })),
  );
  return { kind: "ready", answers$ };
};

/** A price calendar of a service speaking this API, through the SDK's client (SSE when offered, polling otherwise). */
export const prepareRemoteCalendar = (body: Record<string, unknown>, target: RemoteTarget, options: { now?: Date; fetch?: FetchLike } = {}): PreparedCalendar => {
  const parsed = parseCalendarRequest(body, { airports, now: options.now ?? new Date() });
  if (parsed.kind === "invalid") return { kind: "invalid", campos: parsed.campos };
  const client = createClient({ baseUrl: target.baseUrl, token: target.token, ...(options.fetch ? { fetch: options.fetch } : {}) });
  return { kind: "ready", answers$: client.calendar$(body as unknown as CalendarRequest) };
};
