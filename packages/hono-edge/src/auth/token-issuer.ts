import type { Clock } from "../clock.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";

/**
 * Access tokens of the OAuth2 password grant, stateless so that any instance sharing the secret accepts
 * them: `voar.<claims>.<HMAC-SHA256 signature>`, all base64url, claims `{ sub, exp, jti }`. Signing and
 * verifying use Web Crypto (`crypto.subtle`), whose HMAC verification does not leak timing.
 */

/** What a valid token says. */
export interface TokenClaims {
  /** The agency's username. */
  readonly sub: string;
  /** Expiry, in seconds since the epoch. */
  readonly exp: number;
}

/** The outcome of checking a token. */
export type TokenCheck =
  | { readonly ok: true; readonly claims: TokenClaims }
  | { readonly ok: false; readonly reason: "unknown" | "expired" };

/** Issues and verifies access tokens. */
export interface TokenIssuer {
  issue(username: string): Promise<{ readonly token: string; readonly expiresIn: number }>;
  verify(token: string): Promise<TokenCheck>;
  /** Whether a text has the shape of an issued token (it may still be forged or expired). */
  looksIssued(token: string): boolean;
}

/** Options of {@link createTokenIssuer}. */
export interface TokenIssuerOptions {
  /** HMAC secret; without one a random key is made, valid for this process only. */
  readonly secret?: string | undefined;
  /** Lifetime of a token, in seconds. */
  readonly ttlSeconds: number;
  readonly clock: Clock;
}

const PREFIX = "voar";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const isClaims = (u: unknown): u is TokenClaims =>
  typeof u === "object" && u !== null && typeof (u as TokenClaims).sub === "string" && Number.isSafeInteger((u as TokenClaims).exp);

/** Creates the token issuer of the service. */
export const createTokenIssuer = (options: TokenIssuerOptions): TokenIssuer => {
  const algorithm = { name: "HMAC", hash: "SHA-256" } as const;
  const key: Promise<CryptoKey> = options.secret
    ? crypto.subtle.importKey("raw", encoder.encode(options.secret), algorithm, false, ["sign", "verify"])
    : (crypto.subtle.generateKey(algorithm, false, ["sign", "verify"]) as Promise<CryptoKey>);
  const looksIssued = (token: string) => /^voar\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
  return {
    looksIssued,
    async issue(username) {
      const now = Math.floor(options.clock.now() / 1000);
      const claims = { sub: username, exp: now + options.ttlSeconds, jti: crypto.randomUUID() };
      const body = `${PREFIX}.${toBase64Url(encoder.encode(JSON.stringify(claims)))}`;
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(body)));
      return { token: `${body}.${toBase64Url(signature)}`, expiresIn: options.ttlSeconds };
    },
    async verify(token) {
      if (!looksIssued(token)) return { ok: false, reason: "unknown" };
      const [, payload, sig] = token.split(".") as [string, string, string];
      const signature = fromBase64Url(sig);
      const bytes = fromBase64Url(payload);
      if (!signature || !bytes) return { ok: false, reason: "unknown" };
      const valid = await crypto.subtle.verify("HMAC", await key, signature, encoder.encode(`${PREFIX}.${payload}`));
      if (!valid) return { ok: false, reason: "unknown" };
      // Signed by us, so the claims are ours; still checked, since a bad parse here must not be a 500.
      const text = decoder.decode(bytes);
      const claims: unknown = text.startsWith("{") ? JSON.parse(text) : undefined;
      if (!isClaims(claims)) return { ok: false, reason: "unknown" };
      if (claims.exp * 1000 <= options.clock.now()) return { ok: false, reason: "expired" };
      return { ok: true, claims: { sub: claims.sub, exp: claims.exp } };
    },
  };
};
