/**
 * The adapter's access to the upstream: a static token, or the password grant the real service implements
 * (`POST {base}/Token`, form body, `Origin: externo`). Logins are a resource of the upstream too, and guarded
 * like its searches:
 * - one login in flight per account: the callers of a process share one, and the instances of a deployment
 *   share its token and a claim on the next login through a {@link LoginStore};
 * - a token is kept until shortly before its `expires_in`; one the upstream refuses is dropped everywhere;
 * - `/Token` failing as an unavailable service does (5xx, 408, 429, timeouts) opens the login's breaker
 *   (`upstream:login`): no login is sent until its cool-down passed, and searches fail at once with
 *   `SourceUnavailable` and the time left; a 429's `Retry-After` is waited out;
 * - a refused credential (a 4xx: `invalid_grant`...) is a configuration problem, not a passing one: it stops
 *   logins with these credentials for {@link CREDENTIALS_HOLD_MS} (a breaker of its own, keyed by a digest of
 *   them, so that new credentials are tried at once) and the session's {@link LoginState} says so;
 * - each login takes one request of the budget of the search that needed it.
 */
import type { Context } from "@opentelemetry/api";
import { AuthError, HttpStatusError, MalformedPayload, RateLimited, SourceTimeout, SourceUnavailable, hash53, isSourceError } from "@voar/core";
import { sleep, untilAborted, withTimeout } from "../internal/abortable.js";
import type { HttpTransport } from "../transport/http-transport.js";
import { memoryBreakerStore, type BreakerSettings, type BreakerState, type BreakerStore, type RequestOutcome } from "./breaker-state.js";
import { isLogin, type UpstreamCredentials } from "./credentials.js";
import { memoryLoginStore, type HeldToken, type LoginStore } from "./login-store.js";
import { refusalDetail, readToken } from "./login-reply.js";
import { retryAfterMs } from "./retry-after.js";

/** How long a refused credential keeps the session from logging in with it again: 15 minutes. */
export const CREDENTIALS_HOLD_MS = 15 * 60_000;
/** Breaker key of the login (`POST /Token`) in the adapter's breaker store. */
export const LOGIN_BREAKER = "upstream:login";

/** Where the session's logins stand, for readiness probes and logs. */
export type LoginState =
  | { readonly state: "ok" }
  /** `/Token` fails as an unavailable service does; no login goes before `retryAfterMs` (when known). */
  | { readonly state: "failing"; readonly detail: string; readonly retryAfterMs?: number | undefined }
  /** The upstream refused the credentials (or the login request): fix the configuration. */
  | { readonly state: "refused"; readonly detail: string };

/** Options of an {@link AuthSession}. */
export interface AuthSessionOptions {
  readonly transport: HttpTransport;
  /** Base URL, e.g. `https://host/api`. */
  readonly baseUrl: string;
  readonly credentials: UpstreamCredentials;
  /** Limit of the login request. */
  readonly requestTimeoutMs: number;
  /** The breakers' store and settings (the login's breaker, and the refused credentials' hold). Default: in memory, 3 failures, 30 s. */
  readonly breaker?: { readonly store: BreakerStore; readonly settings: BreakerSettings } | undefined;
  /** Where the token and the login claim live. Default: this process ({@link memoryLoginStore}). */
  readonly store?: LoginStore | undefined;
  /** Told when {@link AuthSession.state} changes (e.g. to log it once). */
  readonly onStateChange?: ((state: LoginState) => void) | undefined;
  /** Told the login breaker's state ({@link LOGIN_BREAKER}) each time this session sees it (e.g. to set a gauge); it dedupes nothing. */
  readonly onBreakerState?: ((id: typeof LOGIN_BREAKER, state: BreakerState) => void) | undefined;
}

/** Margin before `expires_in` at which a token is replaced: a tenth of its life, at most a minute. */
const refreshMargin = (lifeMs: number): number => Math.min(60_000, lifeMs / 10);
/** While another instance logs in, its token is looked for this often. */
const CLAIM_POLL_MS = 200;

/** One upstream's credentials in use. */
export class AuthSession {
  private held: HeldToken | undefined;
  private pending: Promise<HeldToken> | undefined;
  private readonly store: LoginStore;
  private readonly breaker: NonNullable<AuthSessionOptions["breaker"]>;
  private readonly credentialsKey: string;
  private current: LoginState = { state: "ok" };
  /** A 429 of `/Token` asked to wait until then. */
  private notBefore = 0;
  /** Logins sent by this process, for tests and benchmarks. */
  logins = 0;

  constructor(private readonly options: AuthSessionOptions) {
    this.store = options.store ?? memoryLoginStore();
    this.breaker = options.breaker ?? { store: memoryBreakerStore(), settings: { failureThreshold: 3, cooldownMs: 30_000, probeTimeoutMs: options.requestTimeoutMs } };
    const c = options.credentials;
    this.credentialsKey = `upstream:credentials:${isLogin(c) ? hash53(`${c.username}\u0000${c.password}`).toString(36) : "token"}`;
  }

  /** Whether a refused token can be replaced by logging in again. */
  get canRenew(): boolean {
    return isLogin(this.options.credentials);
  }

  /** Where this session's logins stand, as this process last saw them. */
  get state(): LoginState {
    return this.current;
  }

  /**
   * The token to send now: the static one, the one held while fresh, the one another instance got, or a new
   * one (its login traced in `trace`). `charge` takes one request of the asking search's budget (it throws
   * when none is left) before a login is sent.
   */
  async bearer(signal: AbortSignal, trace?: Context, charge?: () => void): Promise<string> {
    const c = this.options.credentials;
    if (!isLogin(c)) return c.token;
    if (this.held && Date.now() < this.held.refreshAt) return this.held.token;
    this.pending ??= this.obtain(c, trace, charge).finally(() => (this.pending = undefined));
    return (await untilAborted(this.pending, signal)).token;
  }

  /** Drops a token the upstream refused, here and for every instance, so the next {@link bearer} logs in again. */
  refused(token: string): void {
    if (this.held?.token === token) this.held = undefined;
    this.store.drop(token).catch(() => undefined); // a store that cannot answer forgets nothing: the token expires there
  }

  private async obtain(c: { readonly username: string; readonly password: string }, trace: Context | undefined, charge: (() => void) | undefined): Promise<HeldToken> {
    const deadline = Date.now() + this.options.requestTimeoutMs;
    for (;;) {
      const shared = await this.store.get().catch(() => undefined);
      if (shared && Date.now() < shared.refreshAt) return (this.held = shared);
      if (await this.store.claim(this.options.requestTimeoutMs).catch(() => true)) break;
      // Another instance is logging in: its token comes to the store.
      if (Date.now() > deadline) throw new SourceTimeout({ afterMs: this.options.requestTimeoutMs });
      await sleep(CLAIM_POLL_MS, new AbortController().signal);
    }
    try {
      return await this.guardedLogin(c, trace, charge);
    } finally {
      this.store.release().catch(() => undefined);
    }
  }

  /** One login, if the breakers let it go: its outcome recorded, the state told. */
  private async guardedLogin(c: { readonly username: string; readonly password: string }, trace: Context | undefined, charge: (() => void) | undefined): Promise<HeldToken> {
    const { store, settings } = this.breaker;
    const hold = { ...settings, failureThreshold: 1, cooldownMs: CREDENTIALS_HOLD_MS };
    const credentials = await store.admit(this.credentialsKey, hold, Date.now());
    if (!credentials.allowed) {
      const detail = this.current.state === "refused" ? this.current.detail : "o fornecedor recusou estas credenciais (configuração)";
      this.tell({ state: "refused", detail });
      throw new AuthError({ detail });
    }
    const waitMs = this.notBefore - Date.now();
    const login = waitMs > 0 ? { allowed: false as const, retryAfterMs: waitMs } : this.seen(await store.admit(LOGIN_BREAKER, settings, Date.now()));
    if (!login.allowed) {
      await store.record(this.credentialsKey, "cancelled", hold, Date.now());
      throw new SourceUnavailable({ retryAfterMs: login.retryAfterMs });
    }
    try {
      charge?.();
    } catch (e) {
      await Promise.all([this.recordLogin("cancelled"), store.record(this.credentialsKey, "cancelled", hold, Date.now())]);
      throw e;
    }
    try {
      const held = await this.login(c, trace);
      await Promise.all([this.recordLogin("success"), store.record(this.credentialsKey, "success", hold, Date.now())]);
      this.tell({ state: "ok" });
      return held;
    } catch (e) {
      if (e instanceof AuthError) {
        // Refused: the credentials (or the request) are wrong, not the service. Stop until they change.
        await Promise.all([this.recordLogin("success"), store.record(this.credentialsKey, "failure", hold, Date.now())]);
        this.tell({ state: "refused", detail: e.detail });
        throw e;
      }
      const state = await this.recordLogin("failure");
      await store.record(this.credentialsKey, "cancelled", hold, Date.now());
      if (e instanceof RateLimited && e.retryAfterMs !== undefined) this.notBefore = Date.now() + e.retryAfterMs;
      const retryAfter = state === "open" ? settings.cooldownMs : e instanceof RateLimited ? e.retryAfterMs : undefined;
      this.tell({ state: "failing", detail: isSourceError(e) ? e.message : String(e), retryAfterMs: retryAfter });
      throw e;
    }
  }

  /** Records how a login ended on the login breaker, and tells its state. */
  private async recordLogin(outcome: RequestOutcome): Promise<BreakerState> {
    const state = await this.breaker.store.record(LOGIN_BREAKER, outcome, this.breaker.settings, Date.now());
    this.seen({ state });
    return state;
  }

  /** Tells the login breaker's state as just seen (a listener's failure changes nothing). */
  private seen<T extends { readonly state: BreakerState }>(admission: T): T {
    try {
      this.options.onBreakerState?.(LOGIN_BREAKER, admission.state);
    } catch {
      // A failing listener (a metrics sink) must not change the login.
    }
    return admission;
  }

  private tell(next: LoginState): void {
    const before = this.current;
    this.current = next;
    if (before.state === next.state && (before.state === "ok" || ("detail" in before && "detail" in next && before.detail === next.detail))) return;
    try {
      this.options.onStateChange?.(next);
    } catch {
      // A failing listener (a log sink) must not change the login.
    }
  }

  private async login(c: { readonly username: string; readonly password: string }, trace: Context | undefined): Promise<HeldToken> {
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
        source: LOGIN_BREAKER,
      });
      if (reply.status === 429) throw new RateLimited({ retryAfterMs: retryAfterMs(reply.header("retry-after")) });
      if (reply.status >= 500 || reply.status === 408) throw new HttpStatusError({ status: reply.status });
      if (reply.status >= 400) throw new AuthError({ detail: refusalDetail(reply.status, reply.text) });
      const read = readToken(reply.status, reply.text);
      if (!read) throw new MalformedPayload({ detail: `resposta de login sem access_token (HTTP ${reply.status})` });
      const held = { token: read.token, refreshAt: Date.now() + read.lifeMs - refreshMargin(read.lifeMs) };
      this.held = held;
      await this.store.set(held, read.lifeMs).catch(() => undefined); // the others log in themselves if the store cannot keep it
      return held;
    } finally {
      limit.done();
    }
  }
}
