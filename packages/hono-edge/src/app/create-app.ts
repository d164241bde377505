import { Hono, type Context } from "hono";
import { createAuthenticator } from "../auth/authenticator.js";
import { toErrorResponse } from "../errors/error-table.js";
import { InternalError, isServiceError, MethodNotAllowed, RouteNotFound, type ServiceError } from "../errors/service-errors.js";
import { adminAuth } from "../middleware/admin-auth.js";
import { bearerAuth } from "../middleware/bearer-auth.js";
import { corsPolicy } from "../middleware/cors-policy.js";
import { legacyStatus } from "../middleware/legacy-status.js";
import { rateLimit } from "../middleware/rate-limit.js";
import { closeAfterRejection, jsonBody } from "../middleware/http-edge.js";
import { requestLog } from "../middleware/request-log.js";
import { ClientAborted } from "../http/read-body.js";
import { docsHandlers } from "../docs/docs-page.js";
import { openApiDocument } from "../openapi/openapi-document.js";
import { getPaganteHandler, putPaganteHandler } from "../routes/admin-route.js";
import { consultarHandler } from "../routes/consultar-route.js";
import { createRequestMemo, type SearchRouteDeps } from "../routes/search-request.js";
import { WrittenPages } from "../routes/serialized-answer.js";
import { streamHandler } from "../routes/stream-route.js";
import { tokenHandler } from "../routes/token-route.js";
import { createLoginGuard } from "../limits/login-guard.js";
import { SearchHub } from "../search/search-hub.js";
import { Admission } from "../limits/admission.js";
import { readyHandler } from "./ready-route.js";
import type { AppEnv } from "./app-env.js";
import { resolveDeps, type AppDeps } from "./app-deps.js";

const respondError = (c: Context<AppEnv>, e: ServiceError) => {
  const { status, headers, body } = toErrorResponse(e, c.get("requestId"));
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json(body, status);
};

/**
 * Creates the Voar HTTP service as a Hono app, on Web-standard APIs only, so the same app runs on Node,
 * workerd, Deno and Bun; each runtime's entry only wires dependencies and serves `app.fetch`.
 *
 * Routes (under `config.basePath`, default `/api`): `POST /ConsultaAereo/Consultar` and
 * `POST /ConsultaAereo/Stream` (bearer), `POST /Token`, `GET`/`PUT /admin/pagante` (admin key),
 * `GET /openapi.json`, `GET /docs` (Swagger UI, its files served by the service when `docsAssets` is given:
 * the Node entry gives them; without them the page points at the OpenAPI document); and `GET /health` (liveness) and `GET /ready` (readiness: 503 while
 * the session store is unreachable) at the root. Every error is the envelope.
 * Throws `ConfigError` when the configuration names sources that are not given.
 *
 * @example
 * const app = createApp({ config: defineConfig({ apiKeys: [{ name: "demo", key: "demo-key-0123456789" }] }), sources: createSimulator().sources });
 * const res = await app.request("/api/ConsultaAereo/Consultar", { method: "POST", headers: { Authorization: "Bearer demo-key-0123456789" }, body: JSON.stringify({ Origem: "CNF", Destino: "GRU", Ida: resolveRelativeDate("+30") }) });
 */
export const createApp = (deps: AppDeps): Hono<AppEnv> => {
  const d = resolveDeps(deps);
  const { config, logger } = d;
  const base = config.basePath;
  const auth = createAuthenticator(config, d.clock);
  if (auth.ephemeralTokenKey && config.agencies.length > 0) {
    logger.log({ level: "warn", msg: "config.ephemeral_token_key", detail: "tokens.secret is not set: issued tokens are valid on this instance until it restarts" });
  }
  // Admission control by what the instance carries: its caps everywhere, its load where the entry measures it (Node).
  const admission = new Admission({
    ...config.limits.admission,
    load: d.load,
    clock: d.clock,
    logger,
    runningSearches: (): number => hub.runningCount(),
    rememberedKeys: config.limits.maxSessions,
    onRefused: (reason) => d.metrics.searchRefused(reason),
    onShedding: (on) => d.metrics.loadShedding(on),
  });
  const pages = new WrittenPages();
  const hub: SearchHub = new SearchHub({
    store: d.store,
    sources: d.sources,
    clock: d.clock,
    logger,
    instanceId: d.instanceId,
    newId: d.newSearchId,
    deadlineMs: config.search.deadlineMs,
    deadlineHoldMs: config.search.deadlineHoldMs,
    leaseMs: config.search.leaseMs,
    timeoutMs: config.search.sourceTimeoutMs,
    maxAttempts: config.search.maxAttempts,
    cacheSize: config.limits.maxSessions,
    ttlMs: config.search.ttlMs,
    failedTtlMs: config.search.failedTtlMs,
    admission,
    metrics: d.metrics,
    onExpired: (ids) => pages.forget(ids),
  });
  d.metrics.runningSearches(() => hub.runningCount());
  // Price calendars, when the app has the feature and the store keeps them: their days are ordinary searches of the hub.
  const calendars = d.priceCalendar?.hubFor(d, hub, admission);
  // Price watches, when the app has the feature and the store keeps them: their checks are searches of the hub too.
  const alerts = d.priceAlerts?.start(d, hub);
  // One listener on the shutdown signal for the whole app (one per open stream would pass Node's limit of 10).
  const shutdownHooks = new Set<() => void>();
  d.signal?.addEventListener("abort", () => {
    for (const hook of [...shutdownHooks]) hook();
    Promise.all([calendars?.close(), alerts?.close(), hub.close()]).catch((e: unknown) => logger.log({ level: "error", msg: "shutdown.failed", error: e instanceof Error ? e.message : String(e) }));
  });
  const searchDeps: SearchRouteDeps = {
    hub,
    airports: d.airports,
    clock: d.clock,
    pagante: d.pagante,
    bodyLimitBytes: config.limits.bodyBytes,
    pollHintMs: config.search.pollHintMs,
    requests: createRequestMemo(),
    pages,
  };

  // 405 with Allow for a known path asked with another method (the table follows the routes below); its
  // paths are also the route labels of the request metrics (any other path is `unmatched`).
  const allowed = new Map<string, string[]>([
    [`${base}/ConsultaAereo/Consultar`, ["POST"]],
    [`${base}/ConsultaAereo/Stream`, ["POST"]],
    ...(calendars ? [[`${base}/ConsultaAereo/Calendario`, ["POST"]] as [string, string[]], [`${base}/ConsultaAereo/Calendario/Stream`, ["POST"]] as [string, string[]]] : []),
    [`${base}/Token`, ["POST"]],
    [`${base}/admin/pagante`, ["GET", "PUT"]],
    [`${base}/openapi.json`, ["GET"]],
    [`${base}/docs`, ["GET"]],
    ["/health", ["GET"]],
    ["/ready", ["GET"]],
    ...(d.metricsExposition ? [["/metrics", ["GET"]] as [string, string[]]] : []),
  ]);
  // Every labelled series of the metrics exists from the start, at zero: routes, sources, outcomes.
  d.metrics.prepare({ routes: [...allowed].map(([route, methods]) => ({ route, methods })), sources: d.sources.map((s) => s.id), breakerCooldownMs: config.upstream?.breaker.cooldownMs });
  const assets = `${base}/docs/assets/`;
  const routeOf = (path: string) => (allowed.has(path) ? path : path.startsWith(assets) ? `${assets}:file` : "unmatched");

  const app = new Hono<AppEnv>();
  app.use("*", requestLog(logger, d.clock, { metrics: d.metrics, routeOf }));
  app.use("*", closeAfterRejection());
  const crossOrigin = corsPolicy(config.cors);
  if (crossOrigin) app.use("*", crossOrigin);
  const bearer = bearerAuth(auth, {
    limiter: d.rateLimiters("refused-keys", config.limits.refusedKeys),
    clientAddress: { trustedProxyHeader: config.http.trustedProxyHeader, fromRuntime: d.clientAddress },
    metrics: d.metrics,
  });
  const limit = rateLimit(d.rateLimiter, d.metrics);
  const admin = adminAuth(auth);
  // Legacy clients get 200 for every answer of Consultar, the route they know (the real status in X-Voar-Status).
  const json = jsonBody();
  const shutdown = d.signal && { add: (hook: () => void) => (shutdownHooks.add(hook), () => void shutdownHooks.delete(hook)) };
  app.post(`${base}/ConsultaAereo/Consultar`, bearer, legacyStatus(), json, limit, consultarHandler(searchDeps));
  app.post(`${base}/ConsultaAereo/Stream`, bearer, json, limit, streamHandler(searchDeps, { ...config.sse, logger, shutdown, metrics: d.metrics, admission }));
  if (calendars && d.priceCalendar) {
    const calendarDeps = { calendars, airports: d.airports, clock: d.clock, pagante: d.pagante, bodyLimitBytes: config.limits.bodyBytes, pollHintMs: config.search.pollHintMs };
    const handlers = d.priceCalendar.handlers(calendarDeps, { ...config.sse, logger, shutdown, metrics: d.metrics });
    app.post(`${base}/ConsultaAereo/Calendario`, bearer, json, limit, handlers.poll);
    app.post(`${base}/ConsultaAereo/Calendario/Stream`, bearer, json, limit, handlers.stream);
  }
  for (const [path, methods] of alerts?.mount(app, { base, bearer, json, limit, keepAliveMs: config.sse.keepAliveMs, retryMs: config.sse.retryMs, logger, shutdown, openStream: () => admission.openStream() }) ?? []) allowed.set(path, methods);
  app.post(
    `${base}/Token`,
    tokenHandler(auth, {
      guard: createLoginGuard({ limiters: d.rateLimiters, settings: config.limits.login, logger, clock: d.clock }),
      bodyLimitBytes: config.limits.bodyBytes,
      logger,
      metrics: d.metrics,
      clientAddress: { trustedProxyHeader: config.http.trustedProxyHeader, fromRuntime: d.clientAddress },
    }),
  );
  app.get(`${base}/admin/pagante`, admin, getPaganteHandler(d.pagante));
  app.put(`${base}/admin/pagante`, admin, json, putPaganteHandler(d.pagante, config.limits.bodyBytes, logger, d.clock));
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get(`${base}/openapi.json`, (c) => c.json((document ??= openApiDocument(base, { ...(calendars && d.priceCalendar?.openApiPaths(base)), ...(alerts && d.priceAlerts?.openApiPaths(base)) }))));
  const docs = docsHandlers(base, d.docsAssets);
  app.get(`${base}/docs`, docs.page);
  app.get(`${base}/docs/assets/:file`, docs.asset);
  // Liveness: the process answers. Readiness: it can serve searches, i.e. its session store answers too
  // (load balancers and orchestrators stop sending traffic while /ready is 503).
  app.get("/health", (c) => c.json({ status: "ok" as const }));
  app.get("/ready", readyHandler(hub, admission, d));

  const exposition = d.metricsExposition;
  // The operator's metrics (Prometheus text), to admin keys only: they tell how busy the service is.
  if (exposition) app.get("/metrics", admin, async (c) => c.body(await exposition.scrape(), 200, { "Content-Type": exposition.contentType, "Cache-Control": "no-store" }));
  app.notFound((c) => {
    const methods = allowed.get(c.req.path);
    return respondError(c, methods ? new MethodNotAllowed(c.req.method, methods) : new RouteNotFound(c.req.method, c.req.path));
  });
  app.onError((err, c) => {
    if (isServiceError(err)) return respondError(c, err);
    if (err instanceof ClientAborted) {
      // Nobody reads this answer: 499 (nginx's "client closed request") only marks it in the request log.
      logger.log({ level: "info", msg: "request.aborted", requestId: c.get("requestId"), method: c.req.method, path: c.req.path });
      return new Response(null, { status: 499 });
    }
    // A bug: the detail goes to the log, the client gets ERRO_INTERNO without it.
    logger.log({ level: "error", msg: "unhandled", requestId: c.get("requestId"), error: err.stack ?? `${err.name}: ${err.message}` });
    return respondError(c, new InternalError(err));
  });
  return app;
};
