import { parseCalendarRequest, parseSearchRequest, type SearchSource } from "@voar/core";
import { airports } from "@voar/core/airports";
import { Hono, type Context, type Handler } from "hono";
import { priceAlerts } from "../alerts/price-alerts.js";
import { createApp } from "../app/create-app.js";
import type { AppEnv } from "../app/app-env.js";
import { createAuthenticator } from "../auth/authenticator.js";
import { systemClock, type Clock } from "../clock.js";
import type { ServiceConfig } from "../config/config-schema.js";
import { toErrorResponse } from "../errors/error-table.js";
import { InternalError, InvalidRequest, isServiceError, UnknownSearch } from "../errors/service-errors.js";
import { readBodyBytes, readJsonBody } from "../http/read-body.js";
import { memoryRateLimiters } from "../limits/token-bucket.js";
import { jsonLinesLogger, type Logger } from "../logging/logger.js";
import { bearerAuth } from "../middleware/bearer-auth.js";
import { corsPolicy } from "../middleware/cors-policy.js";
import { rateLimit } from "../middleware/rate-limit.js";
import { requestLog } from "../middleware/request-log.js";
import { pollField } from "../routes/search-request.js";
import { calendarKey } from "../calendar/calendar-record.js";
import { priceCalendar } from "../calendar/price-calendar.js";
import { searchKey } from "../search/search-key.js";
import { createMemoryPaganteSettings } from "../settings/pagante-settings.js";
import { durablePaganteSettings, durableRateLimiters } from "./shared-settings.js";
import { HIDDEN_CASH_HEADER } from "./search-object.js";
import { objectIdOfSearch } from "./search-id.js";
import type { DurableObjectId, DurableObjectNamespace } from "./workers-types.js";

/** What the Worker's front is made of. */
export interface WorkerFrontDeps {
  readonly config: ServiceConfig;
  readonly sources: readonly SearchSource[];
  /** The search objects' binding. */
  readonly searches: DurableObjectNamespace;
  /**
   * The shared objects' binding (`SHARED`): with it, rate limits and the Pagante switch are shared by every
   * isolate (`shared-settings.ts`). Default: none, and they hold per isolate.
   */
  readonly shared?: DurableObjectNamespace | undefined;
  readonly clock?: Clock | undefined;
  readonly logger?: Logger | undefined;
  /**
   * The deployment's fingerprint (`deploymentFingerprint`: what answers its searches), put before the search
   * identity in each object's name, as the Node entry puts it in its Redis keys. Default: none.
   */
  readonly deployment?: Promise<string> | string | undefined;
}

/** The object a poll's id names; undefined when it names none of this namespace. */
const objectOfPoll = (searches: DurableObjectNamespace, searchId: string): DurableObjectId | undefined => {
  const hex = objectIdOfSearch(searchId);
  if (hex === undefined) return undefined;
  try {
    return searches.idFromString(hex);
  } catch {
    return undefined; // not an id of this namespace
  }
};

/**
 * The Worker's own app: what needs no search state is served in the isolate (health, OpenAPI, docs,
 * `POST /Token`, the admin routes, every error), and each search request goes to its search's Durable
 * Object (`search-object.ts`) once the Worker has checked it: bearer auth, the tenant's rate limit (shared by
 * every isolate through the shared objects, per isolate without them), the body limit and the request rules, with the same error envelopes as the app. A query goes to
 * the object named by its identity (the deployment's fingerprint, then `searchKey`: tenant, normalized
 * query, Pagante state), so identical requests share one search; a poll by `Token` / `LeaseId` goes to the object its id names (an id naming no
 * object is the usual 400 naming that field). The object checks the bearer again (an issued token needs
 * `VOAR_TOKEN_SECRET`, the same in every isolate and object) and answers; SSE streams come from it as is.
 */
export const createWorkerFront = (deps: WorkerFrontDeps): Hono<AppEnv> => {
  const { config, searches } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? jsonLinesLogger();
  const shared = deps.shared && { namespace: deps.shared, deployment: deps.deployment ?? "", clock, logger };
  const pagante = shared ? durablePaganteSettings({ ...shared, initial: config.pagante }) : createMemoryPaganteSettings(config.pagante);
  const rateLimiters = shared ? durableRateLimiters(shared) : memoryRateLimiters(clock);
  const rateLimiter = rateLimiters("tenant", config.limits.rateLimit);
  // No docsAssets: Swagger UI's files would take most of the bundle's size budget, so /docs says where the
  // interactive reference is served (the Node entry) and links the OpenAPI document. The price calendar is
  // the objects' (see `forward`); here it only documents its routes (the isolate's memory is no place for a
  // calendar: a poll in another isolate would not find it).
  // The price watches likewise are the alerts object's (see `alertsObject`): here, with no worker (`timer: false`,
  // never ticked), they only document their routes.
  const local = createApp({ config, sources: deps.sources, clock, logger, pagante, rateLimiters, rateLimiter, docsAssets: undefined, priceCalendar: priceCalendar(), priceAlerts: priceAlerts({ timer: false }) });
  const base = config.basePath;

  /**
   * Sends a search or calendar request to its object once checked: a query (a calendar's with its days) to the
   * object of its identity, a poll to the object its id names.
   */
  const forward =
    (kind: "search" | "calendar"): Handler<AppEnv> =>
    async (c) => {
      // A fresh ArrayBuffer-backed copy (readBodyBytes builds one): sent on to the object as the body.
      const bytes = (await readBodyBytes(c.req.raw, config.limits.bodyBytes)) as Uint8Array<ArrayBuffer>;
      const body = await readJsonBody(new Request(c.req.url, { method: "POST", body: bytes }), config.limits.bodyBytes);
      const context = { airports, now: new Date(clock.now()), compat: c.get("principal").compat };
      const parsed = kind === "search" ? parseSearchRequest(body, context) : parseCalendarRequest(body, context);
      if (parsed.kind === "invalid") throw new InvalidRequest(parsed.campos);
      const headers = new Headers(c.req.raw.headers);
      headers.delete(HIDDEN_CASH_HEADER);
      headers.delete("content-length");
      headers.set("x-request-id", c.get("requestId"));
      let object: DurableObjectId | undefined;
      if (parsed.kind === "poll") {
        object = objectOfPoll(searches, parsed.token);
        if (object === undefined) throw new UnknownSearch(pollField(body), kind === "calendar" ? "calendar" : undefined);
      } else {
        const hidden = await pagante.hiddenCashAirlines();
        const fingerprint = (await deps.deployment) ?? "";
        const { tenant } = c.get("principal");
        const identity = parsed.kind === "calendar" ? calendarKey(tenant, parsed.query, parsed.flexibleDays, parsed.returnDays, hidden) : searchKey(tenant, parsed.query, hidden);
        object = searches.idFromName(`${fingerprint}\u0000${identity}`);
        headers.set(HIDDEN_CASH_HEADER, hidden.join(","));
      }
      return searches.get(object).fetch(new Request(c.req.url, { method: "POST", headers, body: bytes }));
    };

  /**
   * Sends a price watches' request (`/Alertas...`) once checked to the deployment's one alerts object: the search
   * object named `<deployment>\u0000alertas`, which keeps the watches and checks them from its alarm (see
   * `search-object.ts`). Its alerts' `TokenBusca` are its own searches' ids, so they route back to it as any poll.
   */
  const alertsObject = async (c: Context<AppEnv>) => {
    const fingerprint = (await deps.deployment) ?? "";
    const headers = new Headers(c.req.raw.headers);
    headers.delete(HIDDEN_CASH_HEADER);
    headers.set("x-request-id", c.get("requestId"));
    const method = c.req.method;
    const body = method === "GET" || method === "HEAD" ? undefined : await readBodyBytes(c.req.raw, config.limits.bodyBytes);
    if (body) headers.delete("content-length");
    return searches.get(searches.idFromName(`${fingerprint}\u0000alertas`)).fetch(new Request(c.req.url, { method, headers, ...(body && body.byteLength > 0 ? { body: body as Uint8Array<ArrayBuffer> } : {}) }));
  };

  const front = new Hono<AppEnv>();
  const crossOrigin = corsPolicy(config.cors);
  const checks = [
    requestLog(logger, clock),
    ...(crossOrigin ? [crossOrigin] : []),
    bearerAuth(createAuthenticator(config, clock)),
    rateLimit(rateLimiter),
  ] as const;
  front.post(`${base}/ConsultaAereo/Consultar`, ...checks, forward("search"));
  front.post(`${base}/ConsultaAereo/Stream`, ...checks, forward("search"));
  front.post(`${base}/ConsultaAereo/Calendario`, ...checks, forward("calendar"));
  front.post(`${base}/ConsultaAereo/Calendario/Stream`, ...checks, forward("calendar"));
  front.all(`${base}/Alertas`, ...checks, alertsObject);
  front.all(`${base}/Alertas/*`, ...checks, alertsObject);
  front.all("*", (c) => local.fetch(c.req.raw));
  front.onError((err, c: Context<AppEnv>) => {
    const e = isServiceError(err) ? err : new InternalError(err);
    if (!isServiceError(err)) logger.log({ level: "error", msg: "unhandled", requestId: c.get("requestId"), error: err.stack ?? `${err.name}: ${err.message}` });
    const { status, headers, body } = toErrorResponse(e, c.get("requestId"));
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return c.json(body, status);
  });
  return front;
};
