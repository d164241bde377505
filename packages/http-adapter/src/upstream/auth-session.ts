/**
 * The adapter's access to the upstream: a static token, or the password grant the real service implements
 * (`POST {base}/Token`, form body, `Origin: externo`). A token is kept until shortly before its `expires_in`;
 * a token the upstream refuses is dropped so that the next call logs in again. Concurrent callers share one
 * login (fan-out sources share one session).
 */
import type { Context } from "@opentelemetry/api";
import { AuthError, HttpStatusError, MalformedPayload, RateLimited, SourceTimeout } from "@voar/core";
import { untilAborted, withTimeout } from "../internal/abortable.js";
import type { HttpTransport } from "../transport/http-transport.js";
import { isLogin, type UpstreamCredentials } from "./credentials.js";
import { retryAfterMs } from "./retry-after.js";

interface Held {
  readonly token: string;
  /** Refresh from this instant on (ms). */
  readonly refreshAt: number;
}

/** Options of an {@link AuthSession}. */
export interface AuthSessionOptions {
  readonly transport: HttpTransport;
  /** Base URL, e.g. `https://host/api`. */
  readonly baseUrl: string;
  readonly credentials: UpstreamCredentials;
  /** Limit of the login request. */
  readonly requestTimeoutMs: number;
}

/** Margin before `expires_in` at which a token is replaced: a tenth of its life, at most a minute. */
const refreshMargin = (lifeMs: number): number => Math.min(60_000, lifeMs / 10);

const readToken = (status: number, text: string): { token: string; lifeMs: number } | undefined => {
  if (status !== 200) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined; // not JSON: the caller reports a malformed login answer
  }
  if (typeof json !== "object" || json === null) return undefined;
  const { access_token: token, expires_in: expires } = json as { access_token?: unknown; expires_in?: unknown };
  if (typeof token !== "string" || token === "") return undefined;
  return { token, lifeMs: typeof expires === "number" && expires > 0 ? expires * 1000 : 3_600_000 };
};

/** One upstream's credentials in use. */
export class AuthSession {
  private held: Held | undefined;
  private pending: Promise<Held> | undefined;
  /** Logins performed, for tests and benchmarks. */
  logins = 0;

  constructor(private readonly options: AuthSessionOptions) {}

  /** Whether a refused token can be replaced by logging in again. */
  get canRenew(): boolean {
    return isLogin(this.options.credentials);
  }

  /** The token to send now: the static one, the one held while fresh, or a new one (its login traced in `trace`). */
  async bearer(signal: AbortSignal, trace?: Context): Promise<string> {
    const c = this.options.credentials;
    if (!isLogin(c)) return c.token;
    if (this.held && Date.now() < this.held.refreshAt) return this.held.token;
    this.pending ??= this.login(c, trace).finally(() => (this.pending = undefined));
    const held = await untilAborted(this.pending, signal);
    return held.token;
  }

  /** Drops a token the upstream refused, so the next {@link bearer} logs in again. */
  refused(token: string): void {
    if (this.held?.token === token) this.held = undefined;
  }

  private async login(c: { readonly username: string; readonly password: string }, trace: Context | undefined): Promise<Held> {
    this.logins++;
    // The login belongs to the session, not to one caller: a caller that gives up does not abort it for the others.
    const limit = withTimeout(new AbortController().signal, this.options.requestTimeoutMs, () => new SourceTimeout({ afterMs: this.options.requestTimeoutMs }));
    try {
      const reply = await this.options.transport.send({
        url: `${this.options.baseUrl}/Token`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", origin: "externo" },
        body: new URLSearchParams({ grant_type: "password", username: c.username, password: c.password }).toString(),
        signal: limit.signal,
        trace,
      });
      if (reply.status === 429) throw new RateLimited({ retryAfterMs: retryAfterMs(reply.header("retry-after")) });
      if (reply.status >= 500 || reply.status === 408) throw new HttpStatusError({ status: reply.status });
      if (reply.status >= 400) throw new AuthError({ detail: `login recusado (HTTP ${reply.status})` });
      const read = readToken(reply.status, reply.text);
      if (!read) throw new MalformedPayload({ detail: `resposta de login sem access_token (HTTP ${reply.status})` });
      const held = { token: read.token, refreshAt: Date.now() + read.lifeMs - refreshMargin(read.lifeMs) };
      this.held = held;
      return held;
    } finally {
      limit.done();
    }
  }
}
