import type { Handler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { ResolvedDeps } from "../app/app-deps.js";
import type { Admission } from "../limits/admission.js";
import { calendarPaths } from "../openapi/calendar-paths.js";
import type { CalendarRouteDeps } from "../routes/calendar-request.js";
import { calendarHandler } from "../routes/calendar-route.js";
import { calendarStreamHandler } from "../routes/calendar-stream-route.js";
import type { StreamSettings } from "../routes/stream-route.js";
import type { SearchHub } from "../search/search-hub.js";
import { calendarHubFor } from "./calendar-hub-for.js";
import type { CalendarHub } from "./calendar-hub.js";

/**
 * The price calendar as a feature of the app (`AppDeps.priceCalendar`): what `createApp` needs to serve
 * `POST {base}/ConsultaAereo/Calendario` and its stream, kept out of the app's own modules so that an app
 * without it (the Worker's, whose bundle has a size budget) does not carry its code.
 */
export interface PriceCalendarFeature {
  /** The calendar hub over the app's search hub; undefined when the session store keeps no calendars. */
  readonly hubFor: (d: ResolvedDeps, searches: SearchHub, admission: Admission | undefined) => CalendarHub | undefined;
  /** The routes' handlers. */
  readonly handlers: (deps: CalendarRouteDeps, stream: StreamSettings) => { readonly poll: Handler<AppEnv>; readonly stream: Handler<AppEnv> };
  /** The routes' OpenAPI paths under a base path. */
  readonly openApiPaths: (basePath: string) => Record<string, unknown>;
}

/**
 * Price calendars for `createApp`: `createApp({ ..., priceCalendar: priceCalendar() })`. The Node, Deno and
 * Bun entries give it; see the docs' "Price calendar".
 *
 * @example
 * const app = createApp({ config, sources, priceCalendar: priceCalendar() });
 */
export const priceCalendar = (): PriceCalendarFeature => ({
  hubFor: calendarHubFor,
  handlers: (deps, stream) => ({ poll: calendarHandler(deps), stream: calendarStreamHandler(deps, stream) }),
  openApiPaths: calendarPaths,
});
