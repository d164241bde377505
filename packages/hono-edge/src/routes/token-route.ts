import type { Handler } from "hono";
import * as z from "zod";
import type { AppEnv } from "../app/app-env.js";
import type { Authenticator } from "../auth/authenticator.js";
import { OAuthError } from "../auth/oauth-error.js";
import { InvalidRequest, PayloadTooLarge, Unauthorized } from "../errors/service-errors.js";
import { clientAddressOf, type ClientAddressSource } from "../http/client-address.js";
import { readBodyText } from "../http/read-body.js";
import type { LoginGuard, LoginRefusal } from "../limits/login-guard.js";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";
import { loggerInTrace, type Logger } from "../logging/logger.js";

/** The body of `POST /Token` (OAuth2 password grant, RFC 6749 §4.3), form-encoded or JSON. */
export const TokenRequestSchema = z
  .looseObject({
    grant_type: z.literal("password"),
    username: z.string().min(1).max(64),
    password: z.string().min(1).max(512),
  })
  .meta({ id: "TokenRequest", description: "Concessão OAuth2 por senha: credenciais da agência." });

/** The answer of `POST /Token`. */
export const TokenResponseSchema = z
  .strictObject({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    expires_in: z.int().min(1).meta({ description: "Validade do token, em segundos." }),
  })
  .meta({ id: "TokenResponse" });

// error_description: printable ASCII only (RFC 6749 §5.2), hence pt-BR without accents.
const invalid = (description: string) => new OAuthError(400, "invalid_request", description);
const BODY = "o corpo deve ser um formulario (application/x-www-form-urlencoded) ou JSON com grant_type, username e password.";
const MISSING: Readonly<Record<"grant_type" | "username" | "password", string>> = {
  grant_type: "grant_type e obrigatorio: use grant_type=password.",
  username: "username e obrigatorio: o usuario da agencia (ate 64 caracteres).",
  password: "password e obrigatorio: a senha da agencia (ate 512 caracteres).",
};

/** The parameters of the body as text, each at most once (RFC 6749 §3.2: a repeated parameter is invalid). */
const readParams = (text: string, contentType: string): ReadonlyMap<string, unknown> => {
  if (contentType.toLowerCase().includes("application/json")) {
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch (e) {
      if (e instanceof SyntaxError) throw invalid(BODY);
      throw e;
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) throw invalid(BODY);
    return new Map(Object.entries(json));
  }
  const params = new Map<string, unknown>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (params.has(name)) throw invalid(`o parametro ${name} foi enviado mais de uma vez.`);
    params.set(name, value);
  }
  return params;
};

/** Reads the grant, from the most basic failure on (RFC 6749 §5.2 answers one error). */
const readGrant = (params: ReadonlyMap<string, unknown>): { readonly username: string; readonly password: string } => {
  const grant = params.get("grant_type");
  if (grant === undefined || grant === "") throw invalid(MISSING.grant_type);
  if (grant !== "password") throw new OAuthError(400, "unsupported_grant_type", "grant_type nao suportado: este servico so aceita grant_type=password.");
  const parsed = TokenRequestSchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) throw invalid(MISSING[parsed.error.issues[0]?.path[0] === "password" ? "password" : "username"]);
  return parsed.data;
};

/** The service errors of reading the body, as OAuth2 errors; anything else is rethrown. */
const asOAuthError = (e: unknown): OAuthError => {
  if (e instanceof OAuthError) return e;
  if (e instanceof PayloadTooLarge) return new OAuthError(413, "invalid_request", `o corpo excede o tamanho maximo de ${e.limitBytes} bytes.`);
  if (e instanceof InvalidRequest) return invalid("o corpo deve ser texto UTF-8 valido.");
  if (e instanceof Unauthorized && e.reason === "bad-credentials") return new OAuthError(400, "invalid_grant", "usuario ou senha incorretos.");
  throw e;
};

/** What `POST /Token` needs besides the authenticator. */
export interface TokenRouteDeps {
  /** The login limits (`limits.login`): failed logins per client address, per username, and successes. */
  readonly guard: LoginGuard;
  readonly bodyLimitBytes: number;
  readonly logger: Logger;
  readonly clientAddress: ClientAddressSource;
  /** Counts refused logins by limit. Default: not counted. */
  readonly metrics?: ServiceMetrics | undefined;
}

const WHY: { readonly [S in LoginRefusal["scope"]]: string } = {
  address: "tentativas de login erradas demais deste endereco",
  account: "tentativas de login erradas demais para este usuario",
  successes: "logins demais deste endereco para este usuario",
};

const slowDown = (refusal: LoginRefusal): OAuthError => {
  const wait = refusal.retryAfterSeconds;
  return new OAuthError(429, "slow_down", `${WHY[refusal.scope]}: tente de novo em ${wait} s.`, { "Retry-After": String(wait) });
};

/**
 * `POST /Token`: issues an access token for agency credentials (OAuth2 password grant, RFC 6749 §4.3).
 * Failures answer in OAuth2 form (RFC 6749 §5.2, see `oauth-error.ts`): 400 `invalid_request` (body or a
 * member missing, repeated or invalid), 400 `unsupported_grant_type`, 400 `invalid_grant` (wrong username or
 * password), 413 `invalid_request` (body over the limit), 429 `slow_down` with `Retry-After`. Failed logins
 * count, successful ones do not (see `login-guard.ts`): per client address (password spraying), per
 * username from that address, and per username from every address (an attack from many addresses), apart
 * from the tenants' budgets; an attack from elsewhere never locks the user out of an address it logged in
 * from. A failed login is logged with the username and the client address (never the password).
 * `Authorization` is not read: there is no client authentication (legacy clients often send their old
 * bearer token here).
 * No answer is ever cached (`Cache-Control: no-store`).
 */
export const tokenHandler =
  (auth: Authenticator, deps: TokenRouteDeps): Handler<AppEnv> =>
  async (c) => {
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    const client = clientAddressOf(c, deps.clientAddress);
    // Its records are written after awaits, where no span is active: each carries the request's trace itself.
    const logger = loggerInTrace(deps.logger, c.get("trace"));
    let attempted: string | undefined;
    try {
      const text = await readBodyText(c.req.raw, deps.bodyLimitBytes);
      const { username, password } = readGrant(readParams(text, c.req.header("content-type") ?? ""));
      const ticket = await deps.guard.admit(username, client);
      if (!ticket.ok) {
        // A run of refusals at one account from many addresses is summarised by the guard, not logged per attempt.
        if (ticket.scope === "address") logger.log({ level: "warn", msg: "login.limited", requestId: c.get("requestId"), username, client });
        deps.metrics?.refused(`login_${ticket.scope}`);
        throw slowDown(ticket);
      }
      attempted = username;
      let issued: Awaited<ReturnType<Authenticator["login"]>>;
      try {
        issued = await auth.login(username, password);
      } catch (e) {
        if (e instanceof Unauthorized) await ticket.failed();
        throw e;
      }
      const counted = await ticket.succeeded();
      if (!counted.ok) {
        logger.log({ level: "warn", msg: "login.limited", requestId: c.get("requestId"), username, client, scope: counted.scope });
        deps.metrics?.refused(`login_${counted.scope}`);
        throw slowDown(counted);
      }
      return c.json({ access_token: issued.accessToken, token_type: "bearer" as const, expires_in: issued.expiresIn });
    } catch (e) {
      if (attempted !== undefined && e instanceof Unauthorized) {
        logger.log({ level: "warn", msg: "login.failed", requestId: c.get("requestId"), username: attempted, client });
      }
      const error = asOAuthError(e);
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(error.body, error.status);
    }
  };
