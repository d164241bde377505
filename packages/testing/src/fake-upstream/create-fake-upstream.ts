/**
 * The fake upstream: a Hono app that speaks the ConsultaAereo API as the real deployment does. `POST
 * {base}/Token` is the OAuth2 password grant (form body, `Origin: externo`); `POST {base}/ConsultaAereo/Consultar`
 * needs `Authorization: Bearer`, answers 401 to a missing, unknown, expired or revoked token, and is
 * answered by a backend (live searches or a recorded fixture), with faults injected by request number.
 */
import { Hono } from "hono";
import type { ConsultarBackend } from "./consultar-backend.js";
import { alterReply, faultAt, faultReply, replacesAnswer, type FaultRule } from "./faults.js";
import { inProcessFetch, IN_PROCESS_ORIGIN, type FetchLike } from "./in-process-fetch.js";
import { tokenErrorBody, unauthorizedBody } from "./real-shapes.js";
import { TokenStore, type FakeAuthOptions } from "./token-store.js";
import { sendReply, type UpstreamReply } from "./upstream-reply.js";

/** Options of {@link createFakeUpstream}. */
export interface FakeUpstreamOptions {
  /** Who answers search requests: `liveBackend(...)` or `replayBackend(fixture)`. */
  readonly backend: ConsultarBackend;
  /** Credentials it accepts. Default: none asked. */
  readonly auth?: FakeAuthOptions | undefined;
  /** Faults to inject, by search request number. */
  readonly faults?: readonly FaultRule[] | undefined;
  /** Faults to inject into logins (`POST /Token`), by login number: `status`, `rate-limit`, `invalid-grant` (the others are for searches). */
  readonly loginFaults?: readonly FaultRule[] | undefined;
  /** Base path of the routes. Default `/api`. */
  readonly basePath?: string | undefined;
}

/** Counters of what the fake upstream served, for assertions and benchmarks. */
export interface UpstreamStats {
  /** `POST /Token` requests. */
  logins: number;
  /** Authenticated search requests (faults included). */
  searches: number;
  /** Search requests refused with 401 for their token. */
  unauthorized: number;
}

/** A running fake upstream. */
export interface FakeUpstream {
  readonly app: Hono;
  /** A `fetch` that calls the app in process (see `inProcessFetch`). */
  readonly fetch: FetchLike;
  /** The base URL for in-process use: `http://fake-upstream.test/api`. */
  readonly baseUrl: string;
  readonly stats: UpstreamStats;
  readonly tokens: TokenStore;
  /** Stops the backend's searches. */
  close(): void;
}

/**
 * Creates a fake upstream.
 *
 * @example
 * const upstream = createFakeUpstream({
 *   backend: liveBackend({ sources: createSimulator().sources }),
 *   auth: { accounts: [{ username: "agencia", password: "segredo" }] },
 *   faults: [{ at: 3, fault: { kind: "rate-limit", retryAfterS: 2 } }],
 * });
 * const res = await upstream.fetch(`${upstream.baseUrl}/Token`, { method: "POST", headers: { origin: "externo" }, body: form });
 */
export const createFakeUpstream = (options: FakeUpstreamOptions): FakeUpstream => {
  const base = options.basePath ?? "/api";
  const tokens = new TokenStore(options.auth);
  const stats: UpstreamStats = { logins: 0, searches: 0, unauthorized: 0 };
  const app = new Hono();

  app.post(`${base}/Token`, async (c) => {
    const n = ++stats.logins;
    const fault = faultAt(options.loginFaults ?? [], n);
    if (fault && replacesAnswer(fault)) return sendReply(c, faultReply(fault));
    const origin = tokens.requiredOrigin;
    if (origin !== null && c.req.header("origin") !== origin) {
      return c.json(tokenErrorBody("invalid_request", `O cabeçalho Origin deve ser ${origin}.`), 400);
    }
    const form = new URLSearchParams(await c.req.text());
    if (form.get("grant_type") !== "password") return c.json(tokenErrorBody("unsupported_grant_type", "Use grant_type=password."), 400);
    const issued = tokens.login(form.get("username") ?? "", form.get("password") ?? "");
    if (!issued) return c.json(tokenErrorBody("invalid_grant", "O nome de usuário ou a senha está incorreto."), 400);
    return c.json(issued);
  });

  app.post(`${base}/ConsultaAereo/Consultar`, async (c) => {
    const auth = tokens.check(c.req.header("authorization"));
    if (!auth.ok) {
      stats.unauthorized++;
      return sendReply(c, { status: 401, headers: { "www-authenticate": "Bearer" }, json: unauthorizedBody });
    }
    const n = ++stats.searches;
    const text = await c.req.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.name : "erro";
      return sendReply(c, { status: 400, json: { Message: `The request is invalid (${reason}).` } });
    }
    const fault = faultAt(options.faults ?? [], n);
    let reply: UpstreamReply;
    if (fault && replacesAnswer(fault)) {
      reply = faultReply(fault);
    } else {
      reply = await options.backend.answer({ body, tenant: auth.tenant, n });
      if (fault) reply = alterReply(fault, reply);
    }
    if (reply.revokeTokens) tokens.revokeAll();
    return sendReply(c, reply);
  });

  return {
    app,
    fetch: inProcessFetch(app),
    baseUrl: `${IN_PROCESS_ORIGIN}${base}`,
    stats,
    tokens,
    close: () => options.backend.close(),
  };
};
