import * as z from "zod";

/**
 * Errors of `POST /Token` in the form OAuth2 clients read (RFC 6749 §5.2): `{ error, error_description }`,
 * not the search envelope. `error_description` is pt-BR written in the characters §5.2 allows (printable
 * ASCII without `"` and `\`), so it has no accents: a conforming client may refuse anything else.
 */

/**
 * The codes the service answers: RFC 6749 §5.2's, plus `slow_down` (RFC 8628, registered for token
 * endpoint responses) for too many attempts. `invalid_client` is never sent: the service has no registered
 * OAuth clients (every client is public, `client_id` is ignored), so there is no client to fail.
 */
export const OAUTH_ERROR_CODES = ["invalid_request", "invalid_grant", "unsupported_grant_type", "slow_down"] as const;

/** One of {@link OAUTH_ERROR_CODES}. */
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** The body of a failed `POST /Token`. */
export const TokenErrorSchema = z
  .strictObject({
    error: z.enum(OAUTH_ERROR_CODES).meta({
      description:
        "invalid_request (corpo ou parâmetro ausente, repetido ou inválido), invalid_grant (usuário ou senha incorretos), " +
        "unsupported_grant_type (grant_type diferente de password), slow_down (tentativas demais: veja Retry-After).",
    }),
    error_description: z.string().regex(/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/).meta({ description: "Frase em português, só com caracteres ASCII (RFC 6749 §5.2)." }),
  })
  .meta({ id: "TokenErro", description: "Falha de POST /Token no formato OAuth2 (RFC 6749 §5.2)." });

/** A failed `POST /Token`, ready to answer. */
export class OAuthError extends Error {
  readonly _tag = "OAuthError";
  constructor(
    readonly status: 400 | 413 | 429,
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`oauth error: ${error}`);
  }

  /** The RFC 6749 §5.2 body. */
  get body(): z.infer<typeof TokenErrorSchema> {
    return { error: this.error, error_description: this.description };
  }
}
