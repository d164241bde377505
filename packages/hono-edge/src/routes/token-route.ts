import type { Handler } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app/app-env.js";
import type { Authenticator } from "../auth/authenticator.js";
import { OAuthError } from "../auth/oauth-error.js";
import { InvalidRequest, PayloadTooLarge, Unauthorized } from "../errors/service-errors.js";
import { readBodyText } from "../http/read-body.js";
import type { RateLimiter } from "../limits/token-bucket.js";

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

/**
 * `POST /Token`: issues an access token for agency credentials (OAuth2 password grant, RFC 6749 §4.3).
 * Failures answer in OAuth2 form (RFC 6749 §5.2, see `oauth-error.ts`): 400 `invalid_request` (body or a
 * member missing, repeated or invalid), 400 `unsupported_grant_type`, 400 `invalid_grant` (wrong username or
 * password), 413 `invalid_request` (body over the limit), 429 `slow_down` with `Retry-After`. Attempts count
 * per username against the rate limiter, so that passwords cannot be guessed at speed. `Authorization` is
 * not read: there is no client authentication (legacy clients often send their old bearer token here).
 * No answer is ever cached (`Cache-Control: no-store`).
 */
export const tokenHandler =
  (auth: Authenticator, limiter: RateLimiter, bodyLimitBytes: number): Handler<AppEnv> =>
  async (c) => {
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    try {
      const text = await readBodyText(c.req.raw, bodyLimitBytes);
      const { username, password } = readGrant(readParams(text, c.req.header("content-type") ?? ""));
      const decision = await limiter.take(`login:${username}`);
      if (!decision.ok) {
        const wait = decision.retryAfterSeconds;
        throw new OAuthError(429, "slow_down", `tentativas de login demais para este usuario: tente de novo em ${wait} s.`, { "Retry-After": String(wait) });
      }
      const { accessToken, expiresIn } = await auth.login(username, password);
      return c.json({ access_token: accessToken, token_type: "bearer" as const, expires_in: expiresIn });
    } catch (e) {
      const error = asOAuthError(e);
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(error.body, error.status);
    }
  };
