import * as z from "zod";

/** The price calendars' settings (`calendar.*`): see the calendar guide. */
export const CalendarSettingsSchema = z.strictObject({
  /**
   * Day searches one price calendar (`POST /ConsultaAereo/Calendario`) runs at once at most, for an upstream
   * that needs a slower pace. Default: every day at once (as many as the calendar's request budget pays for), so
   * a calendar takes about as long as its slowest day's search. Days start in order: the day asked, then outward.
   */
  concurrency: z.int().min(1).max(49).optional(),
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
