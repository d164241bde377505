/**
 * Where the upstream's token lives between the instances of a deployment, and who may log in now. An upstream
 * account logs in once for all of them: one instance claims the login, the others wait for the token it
 * keeps here (some upstreams also revoke an account's older tokens at each login, which would set instances
 * logging each other out). The default keeps it in this process; `@voar/hono-edge/redis` shares it through
 * Redis.
 */

/** A token of the upstream, kept until shortly before it expires. */
export interface HeldToken {
  readonly token: string;
  /** From this instant on (ms since the epoch), log in again. */
  readonly refreshAt: number;
}

/** The token and the login claim of one upstream account. */
export interface LoginStore {
  /** The token held for the account; undefined when none (or it expired). */
  get(): Promise<HeldToken | undefined>;
  /** Keeps the token for every instance, until `ttlMs` from now. */
  set(held: HeldToken, ttlMs: number): Promise<void>;
  /** Forgets the token when it is `token` (the upstream refused it). */
  drop(token: string): Promise<void>;
  /** Claims the login for at most `ms`: true for one caller at a time (of every instance sharing the store). */
  claim(ms: number): Promise<boolean>;
  /** Gives the claim up (the login ended). */
  release(): Promise<void>;
}

/**
 * The token and claim in this process's memory: the default (one instance), and what a shared store falls
 * back on while it cannot answer.
 *
 * @example
 * const store = memoryLoginStore();
 */
export const memoryLoginStore = (now: () => number = Date.now): LoginStore => {
  let held: { readonly value: HeldToken; readonly until: number } | undefined;
  let claimedUntil = 0;
  return {
    get: () => Promise.resolve(held && held.until > now() ? held.value : undefined),
    set: (value, ttlMs) => {
      held = { value, until: now() + ttlMs };
      return Promise.resolve();
    },
    drop: (token) => {
      if (held?.value.token === token) held = undefined;
      return Promise.resolve();
    },
    claim: (ms) => {
      if (claimedUntil > now()) return Promise.resolve(false);
      claimedUntil = now() + ms;
      return Promise.resolve(true);
    },
    release: () => {
      claimedUntil = 0;
      return Promise.resolve();
    },
  };
};
