import * as z from "zod";

/** The price calendars' settings (`calendar.*`): see the calendar guide. */
export const CalendarSettingsSchema = z.strictObject({
  /** Day searches one price calendar (`POST /ConsultaAereo/Calendario`) runs at once: the day asked first, then outward. */
  concurrency: z.int().min(1).max(15).default(3),
  /**
   * A calendar's budget of upstream requests, in ordinary searches per day asked: each day may cost at most
   * as many requests as this many searches may make (`upstream.budget.requestsPerSearch`, or `requestsPerSource`
   * times the airlines). Past it, the days still running stop and say why. Only requests to the upstream count:
   * a day the answer cache or another search already has costs none.
   */
  searchesPerDay: z.int().min(1).max(20).default(2),
  /** The budget as upstream requests per day asked instead (overrides `searchesPerDay`). */
  requestsPerDay: z.int().min(1).max(100_000).optional(),
});
