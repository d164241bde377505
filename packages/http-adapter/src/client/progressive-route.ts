/**
 * The two kinds of progressive answer the client follows, and where each is asked: a search (`Consultar`
 * and its `Stream`) and a price calendar (`Calendario` and its `Stream`). Both answer the same envelope
 * (`Completed`, `Token`, `Progresso.ProximaConsultaMs`, ETag/304, the SSE events), with their own `Data`.
 */
import { applyCalendarChange, CalendarChangeSchema, CalendarEnvelopeSchema, EnvelopeSchema, type CalendarChange, type CalendarEnvelope } from "@voar/core";

/** Where one kind of progressive answer is asked, and how its envelopes are checked. */
export interface ProgressiveRoute {
  /** The polling route under the base URL. */
  readonly poll: string;
  /** The SSE route under the base URL. */
  readonly stream: string;
  /** The path of the first member of a success answer outside the strict schema, or undefined when it fits. */
  readonly check: (json: unknown) => string | undefined;
  /**
   * The SSE events that carry a change of the last answer instead of a whole one (a calendar's `dias`): their
   * type, how a change is checked, and the answer with it applied. Absent: every event is a whole answer.
   */
  readonly changes?: {
    readonly event: string;
    readonly check: (json: unknown) => string | undefined;
    readonly apply: (answer: never, change: never) => unknown;
  } | undefined;
}

const checkWith =
  (schema: { safeParse(u: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[] }[] } } }) =>
  (json: unknown): string | undefined => {
    const parsed = schema.safeParse(json);
    return parsed.success ? undefined : (parsed.error?.issues[0]?.path.map(String).join(".") ?? "?");
  };

/** A flight search. */
export const SEARCH_ROUTE: ProgressiveRoute = { poll: "/ConsultaAereo/Consultar", stream: "/ConsultaAereo/Stream", check: checkWith(EnvelopeSchema) };

/** A price calendar: its stream sends the whole calendar first and last, and `dias` events with the days that changed between. */
export const CALENDAR_ROUTE: ProgressiveRoute = {
  poll: "/ConsultaAereo/Calendario",
  stream: "/ConsultaAereo/Calendario/Stream",
  check: checkWith(CalendarEnvelopeSchema),
  changes: { event: "dias", check: checkWith(CalendarChangeSchema), apply: (answer: CalendarEnvelope, change: CalendarChange) => applyCalendarChange(answer, change) },
};
