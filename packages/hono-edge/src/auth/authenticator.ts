import type { RequestCompat } from "@voar/core";
import type { Clock } from "../clock.js";
import type { ServiceConfig } from "../config/config-schema.js";
import { Unauthorized } from "../errors/service-errors.js";
import { BoundedMap } from "../util/bounded-map.js";
import { secretMatcher, sha256 } from "./secret-match.js";
import { createTokenIssuer } from "./token-issuer.js";

/** Who is calling: the tenant searches are shared within and rate limits count against. */
export interface Principal {
  readonly kind: "api-key" | "agency";
  /** Stable tenant id: `apikey:<name>` or `agency:<username>`. Safe to log. */
  readonly tenant: string;
  /** How this client is answered: the spec's way, or the legacy API's (the `compat` of its key or agency). */
  readonly compat: RequestCompat;
}

/** Checks credentials: bearer tokens, agency logins and admin keys. Never logs or returns a secret. */
export interface Authenticator {
  /** The principal of a bearer token; throws {@link Unauthorized} (`unknown` or `expired`). */
  authenticate(token: string): Promise<Principal>;
  /** Issues an access token for agency credentials; throws {@link Unauthorized} (`bad-credentials`). */
  login(username: string, password: string): Promise<{ readonly accessToken: string; readonly expiresIn: number }>;
  /** Whether a key is one of the admin keys. */
  isAdmin(key: string): Promise<boolean>;
  /**
   * The name of an admin key (what the audit log calls its holder), or undefined when the key is none: its
   * configured name, else `key-` and the first 8 hex digits of its SHA-256 (never the key).
   */
  adminName(key: string): Promise<string | undefined>;
  /** Whether issued tokens are signed by a random per-process key (no `tokens.secret` configured). */
  readonly ephemeralTokenKey: boolean;
}

/** Reads `Authorization: Bearer <token>`; throws {@link Unauthorized} when absent or not a bearer token. */
export const bearerToken = (header: string | undefined): string => {
  if (header === undefined || header.trim() === "") throw new Unauthorized("missing");
  const m = /^Bearer +([\x21-\x7E]{1,4096}) *$/i.exec(header);
  if (!m) throw new Unauthorized("malformed");
  return m[1]!;
};

/** Bearer tokens remembered as verified (see {@link createAuthenticator}). */
const VERIFIED_TOKENS = 1_000;

/**
 * Creates the authenticator of a configuration. API keys and admin keys are compared in constant time
 * against every configured key; agency passwords likewise; issued tokens are HMAC-signed and expire.
 *
 * A bearer token once verified is remembered with its principal (the last {@link VERIFIED_TOKENS} used, an
 * issued token until it expires), so the next request of a client that polls skips the digest and the
 * signature check. Only verified tokens are kept: an unknown one is checked in full every time.
 */
export const createAuthenticator = (config: ServiceConfig, clock: Clock): Authenticator => {
  const apiKeys = secretMatcher<Principal>(config.apiKeys.map((k) => [k.key, { kind: "api-key", tenant: `apikey:${k.name}`, compat: k.compat }]));
  const admin = secretMatcher<number>(config.adminKeys.map((k, i) => [k.key, i]));
  const adminNames = Promise.all(
    config.adminKeys.map(async (k) => k.name ?? `key-${[...(await sha256(k.key)).slice(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("")}`),
  );
  // Username and password are matched together, so a wrong password and an unknown user take the same time.
  const agencies = secretMatcher<string>(config.agencies.map((a) => [`${a.username}\u0000${a.password}`, a.username]));
  const agencyCompat = new Map<string, RequestCompat>(config.agencies.map((a) => [a.username, a.compat]));
  const issuer = createTokenIssuer({ secret: config.tokens.secret, ttlSeconds: config.tokens.ttlSeconds, clock });
  const verified = new BoundedMap<string, { readonly principal: Principal; readonly untilMs: number }>(VERIFIED_TOKENS);
  const check = async (token: string): Promise<{ readonly principal: Principal; readonly untilMs: number }> => {
    const key = await apiKeys.match(token);
    if (key) return { principal: key, untilMs: Infinity };
    if (!issuer.looksIssued(token)) throw new Unauthorized("unknown");
    const checked = await issuer.verify(token);
    if (!checked.ok) throw new Unauthorized(checked.reason);
    // An agency removed from the configuration loses its tokens at the next restart.
    const compat = agencyCompat.get(checked.claims.sub);
    if (compat === undefined) throw new Unauthorized("unknown");
    return { principal: { kind: "agency", tenant: `agency:${checked.claims.sub}`, compat }, untilMs: checked.claims.exp * 1000 };
  };
  return {
    ephemeralTokenKey: config.tokens.secret === undefined,
    async authenticate(token) {
      const known = verified.get(token);
      if (known && known.untilMs > clock.now()) return known.principal;
      if (known) verified.delete(token);
      const fresh = await check(token);
      verified.set(token, fresh);
      return fresh.principal;
    },
    async login(username, password) {
      const user = await agencies.match(`${username}\u0000${password}`);
      if (user === undefined) throw new Unauthorized("bad-credentials");
      const { token, expiresIn } = await issuer.issue(user);
      return { accessToken: token, expiresIn };
    },
    async isAdmin(key) {
      return (await admin.match(key)) !== undefined;
    },
    async adminName(key) {
      const i = await admin.match(key);
      return i === undefined ? undefined : (await adminNames)[i];
    },
  };
};
