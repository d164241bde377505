import type { Handler } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app/app-env.js";
import type { Authenticator } from "../auth/authenticator.js";
import { InvalidRequest, RateLimitExceeded } from "../errors/service-errors.js";
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

const MESSAGES: Readonly<Record<string, string>> = {
  grant_type: 'grant_type deve ser "password".',
  username: "username é obrigatório: o usuário da agência.",
  password: "password é obrigatório: a senha da agência.",
};

const readForm = (text: string, contentType: string): unknown => {
  if (contentType.includes("application/json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch (e) {
      if (e instanceof SyntaxError) throw new InvalidRequest([{ Campo: "body", Mensagem: "O corpo deve ser JSON válido ou um formulário." }]);
      throw e;
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
};

/**
 * `POST /Token`: issues an access token for agency credentials. Wrong credentials answer 401; a missing
 * or wrong member answers 400 naming it. Attempts count per username against the rate limiter, so that
 * passwords cannot be guessed at speed. The answer is never cached (`Cache-Control: no-store`).
 */
export const tokenHandler =
  (auth: Authenticator, limiter: RateLimiter, bodyLimitBytes: number): Handler<AppEnv> =>
  async (c) => {
    const text = await readBodyText(c.req.raw, bodyLimitBytes);
    const parsed = TokenRequestSchema.safeParse(readForm(text, c.req.header("content-type") ?? ""));
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "body")))];
      throw new InvalidRequest(fields.map((f) => ({ Campo: f, Mensagem: MESSAGES[f] ?? "O corpo deve ser um formulário com grant_type, username e password." })));
    }
    const decision = await limiter.take(`login:${parsed.data.username}`);
    if (!decision.ok) throw new RateLimitExceeded(decision.retryAfterSeconds);
    const { accessToken, expiresIn } = await auth.login(parsed.data.username, parsed.data.password);
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    return c.json({ access_token: accessToken, token_type: "bearer" as const, expires_in: expiresIn });
  };
