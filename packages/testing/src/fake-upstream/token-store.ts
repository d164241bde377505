/**
 * Access tokens of the fake upstream: the OAuth2 password grant of the real deployment (`POST /Token`, form
 * body, `Origin: externo`), tokens that expire, static API keys, and revocation (a token that dies before
 * its `expires_in`, as after a restart of the real service).
 */

/** An agency login the fake upstream accepts. */
export interface FakeAccount {
  readonly username: string;
  readonly password: string;
}

/** Who may search on the fake upstream. With neither accounts nor tokens, anyone may. */
export interface FakeAuthOptions {
  /** Agency logins for the password grant; `"any"` accepts every username and password (replays). */
  readonly accounts?: readonly FakeAccount[] | "any" | undefined;
  /** Static bearer tokens that never expire. */
  readonly tokens?: readonly string[] | undefined;
  /** Lifetime of an issued token, in seconds. Default 3600. */
  readonly tokenTtlS?: number | undefined;
  /** The `Origin` a login must carry; `null` accepts any. Default `externo`, as the real service wants. */
  readonly origin?: string | null | undefined;
}

/** A successful login. */
export interface IssuedToken {
  readonly access_token: string;
  readonly token_type: "bearer";
  readonly expires_in: number;
}

/** The result of checking a bearer token: the tenant it belongs to, or why it is refused. */
export type TokenCheck = { readonly ok: true; readonly tenant: string } | { readonly ok: false; readonly reason: "missing" | "unknown" | "expired" };

/** The token store of one fake upstream. Time is `Date.now()`, so fake timers move it. */
export class TokenStore {
  private readonly issued = new Map<string, { tenant: string; expiresAt: number }>();
  private counter = 0;

  constructor(private readonly options: FakeAuthOptions = {}) {}

  /** Whether the upstream asks for credentials at all. */
  get open(): boolean {
    return (this.options.accounts ?? []).length === 0 && (this.options.tokens ?? []).length === 0;
  }

  /** The `Origin` a login must carry, or null for any. */
  get requiredOrigin(): string | null {
    return this.options.origin === undefined ? "externo" : this.options.origin;
  }

  /** Issues a token for an account, or undefined when the credentials are wrong. */
  login(username: string, password: string): IssuedToken | undefined {
    const accounts = this.options.accounts ?? [];
    const known = accounts === "any" ? username !== "" : accounts.some((a) => a.username === username && a.password === password);
    if (!known) return undefined;
    const ttl = this.options.tokenTtlS ?? 3600;
    this.counter++;
    const token = `fake-${this.counter}-${username}`;
    this.issued.set(token, { tenant: username, expiresAt: Date.now() + ttl * 1000 });
    return { access_token: token, token_type: "bearer", expires_in: ttl };
  }

  /** Checks an `Authorization` header value. */
  check(authorization: string | undefined): TokenCheck {
    if (this.open) return { ok: true, tenant: "anonymous" };
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
    if (!token) return { ok: false, reason: "missing" };
    if ((this.options.tokens ?? []).includes(token)) return { ok: true, tenant: `key:${token}` };
    const entry = this.issued.get(token);
    if (!entry) return { ok: false, reason: "unknown" };
    if (Date.now() >= entry.expiresAt) return { ok: false, reason: "expired" };
    return { ok: true, tenant: entry.tenant };
  }

  /** Revokes every issued token (static tokens stay valid). */
  revokeAll(): void {
    for (const entry of this.issued.values()) entry.expiresAt = Number.NEGATIVE_INFINITY;
  }
}
