import type { Handler } from "hono";
import * as z from "zod";
import type { AppEnv } from "../app/app-env.js";
import type { Authenticator } from "../auth/authenticator.js";
import { OAuthError } from "../auth/oauth-error.js";
import { InvalidRequest, PayloadTooLarge, Unauthorized } from "../errors/service-errors.js";
import { clientAddressOf, UNKNOWN_CLIENT, type ClientAddressSource } from "../http/client-address.js";
import { readBodyText } from "../http/read-body.js";
import type { RateDecision, RateLimiter } from "../limits/token-bucket.js";
import type { Logger } from "../logging/logger.js";

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
  /** Login attempts per client address, whatever the username. */
  readonly perClient: RateLimiter;
  /** Login attempts per username and client address: a short-term bucket, then a sustained one (progressive). */
  readonly perAccount: readonly RateLimiter[];
  readonly bodyLimitBytes: number;
  readonly logger: Logger;
  readonly clientAddress: ClientAddressSource;
}

const slowDown = (decision: RateDecision, why: string): OAuthError | undefined => {
  if (decision.ok) return undefined;
  const wait = decision.retryAfterSeconds;
  return new OAuthError(429, "slow_down", `${why}: tente de novo em ${wait} s.`, { "Retry-After": String(wait) });
};

/**
 * `POST /Token`: issues an access token for agency credentials (OAuth2 password grant, RFC 6749 §4.3).
 * Failures answer in OAuth2 form (RFC 6749 §5.2, see `oauth-error.ts`): 400 `invalid_request` (body or a
 * member missing, repeated or invalid), 400 `unsupported_grant_type`, 400 `invalid_grant` (wrong username or
 * password), 413 `invalid_request` (body over the limit), 429 `slow_down` with `Retry-After`. Attempts count
 * per client address (password spraying) and per username from that address (guessing one password), apart
 * from the tenants' budgets; an attack from one address never locks the user out from another. A failed
 * login is logged with the username and the client address (never the password). `Authorization` is not
 * read: there is no client authentication (legacy clients often send their old bearer token here).
 * No answer is ever cached (`Cache-Control: no-store`).
 */
export const tokenHandler =
  (auth: Authenticator, deps: TokenRouteDeps): Handler<AppEnv> =>
  async (c) => {
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    const client = clientAddressOf(c, deps.clientAddress);
    let attempted: string | undefined;
    try {
      const text = await readBodyText(c.req.raw, deps.bodyLimitBytes);
      const { username, password } = readGrant(readParams(text, c.req.header("content-type") ?? ""));
      // An unknown address (a runtime that does not say, no proxy header) would put every client in one
      // budget, so that one attacker locks everybody out: then attempts count per username only.
      const known = client !== UNKNOWN_CLIENT;
      let refused = known ? slowDown(await deps.perClient.take(client), "tentativas de login demais deste endereco") : undefined;
      for (const limiter of deps.perAccount) {
        refused ??= slowDown(await limiter.take(known ? `${username}\n${client}` : username), "tentativas de login demais para este usuario");
      }
      if (refused) {
        deps.logger.log({ level: "warn", msg: "login.limited", requestId: c.get("requestId"), username, client });
        throw refused;
      }
      attempted = username;
      const { accessToken, expiresIn } = await auth.login(username, password);
      return c.json({ access_token: accessToken, token_type: "bearer" as const, expires_in: expiresIn });
    } catch (e) {
      if (attempted !== undefined && e instanceof Unauthorized) {
        deps.logger.log({ level: "warn", msg: "login.failed", requestId: c.get("requestId"), username: attempted, client });
      }
      const error = asOAuthError(e);
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(error.body, error.status);
    }
  };
