import type { Clock } from "../clock.js";
import type { ServiceConfig } from "../config/config-schema.js";
import { UNKNOWN_CLIENT } from "../http/client-address.js";
import type { Logger } from "../logging/logger.js";
import { throttleSummary } from "./throttle-summary.js";
import type { RateDecision, RateLimiterFactory, TokenBuckets } from "./token-bucket.js";

/** The login limits of the configuration (`limits.login`). */
export type LoginLimitSettings = ServiceConfig["limits"]["login"];

/** What {@link createLoginGuard} counts with. */
export interface LoginGuardOptions {
  /** The buckets: in memory, or shared through Redis by every instance. */
  readonly limiters: RateLimiterFactory;
  readonly settings: LoginLimitSettings;
  readonly logger: Logger;
  readonly clock: Clock;
}

/**
 * A login refused before its password is checked: too many failures from this address (`address`, also
 * per username from it), or at this username from every address (`account`: the address is not one the
 * username logged in from lately); or, after a right password, too many successes (`successes`).
 */
export interface LoginRefusal {
  readonly ok: false;
  readonly scope: "address" | "account" | "successes";
  readonly retryAfterSeconds: number;
}

/** A login let through to the password check; exactly one of its methods is called with the outcome. */
export interface LoginTicket {
  readonly ok: true;
  /** The password was right: counts the success (refused past `limits.login.successes`) and remembers the address. */
  succeeded(): Promise<{ readonly ok: true } | LoginRefusal>;
  /** The password was wrong: the failure counts in every budget. */
  failed(): Promise<void>;
}

/** Decides, per login, whether its password may be checked, and counts the outcome. */
export interface LoginGuard {
  admit(username: string, client: string): Promise<LoginTicket | LoginRefusal>;
}

interface Charge {
  readonly buckets: TokenBuckets;
  readonly key: string;
  readonly scope: "address" | "account";
}

/** The refusal among several decisions that waits longest, or undefined when all of them passed. */
const refusalOf = (charges: readonly Charge[], decisions: readonly RateDecision[]): LoginRefusal | undefined => {
  let refusal: LoginRefusal | undefined;
  decisions.forEach((d, i) => {
    if (!d.ok && (!refusal || d.retryAfterSeconds > refusal.retryAfterSeconds)) refusal = { ok: false, scope: charges[i]!.scope, retryAfterSeconds: d.retryAfterSeconds };
  });
  return refusal;
};

/**
 * The login limits: failed logins count, successful ones do not (one server logging every visitor in with
 * one account is never refused for it; successes have their own generous cap). Failures count per client
 * address, per username and address, and per username from every address, the last with a delay that grows
 * as an attack from many addresses goes on. An address the username logged in from within
 * `rememberAddressSeconds` is never held back by failures from other addresses, so such an attack cannot
 * lock the real user out; a new address waits its turn while it lasts.
 *
 * An attempt from an address the username does not know takes its tokens before the password is checked
 * and gets them back if it was right, so concurrent guesses cannot all slip past a budget with one token
 * left. From a known address the budgets are only looked at before and taken after a failure: its own
 * logins may run concurrently without spending anything.
 *
 * When the client address is unknown (no proxy header, a runtime that does not say), failures count per
 * username only: one shared address would let one attacker lock everybody out.
 *
 * @example
 * const guard = createLoginGuard({ limiters: memoryRateLimiters(clock), settings: config.limits.login, logger, clock });
 * const ticket = await guard.admit("agencia1", "203.0.113.7");
 * if (ticket.ok) await (passwordIsRight ? ticket.succeeded() : ticket.failed());
 */
export const createLoginGuard = (options: LoginGuardOptions): LoginGuard => {
  const { settings: s, limiters: make } = options;
  const perClient = make("login-client", s.perClient);
  const perAccount = make("login-account", s.perAccount);
  const perAccountSustained = make("login-account-sustained", s.perAccountSustained);
  const allAddresses = make("login-account-all", s.perAccountAllAddresses);
  const allAddressesSustained = make("login-account-all-sustained", s.perAccountAllAddressesSustained);
  const successes = make("login-success", s.successes);
  // One token, drained by each success and back after rememberAddressSeconds: empty means "logged in lately".
  const known = make("login-known", { capacity: 1, refillPerSecond: 1 / s.rememberAddressSeconds });
  const noteThrottled = throttleSummary({ logger: options.logger, clock: options.clock, msg: "login.account_throttled", keyField: "username" });

  return {
    async admit(username, client) {
      const addressKnown = client !== UNKNOWN_CLIENT;
      const pair = addressKnown ? `${username}\n${client}` : username;
      const familiar = addressKnown && !(await known.peek(pair)).ok;
      const charges: Charge[] = [
        ...(addressKnown ? [{ buckets: perClient, key: client, scope: "address" as const }] : []),
        { buckets: perAccount, key: pair, scope: "address" },
        { buckets: perAccountSustained, key: pair, scope: "address" },
        ...(addressKnown
          ? [
              { buckets: allAddresses, key: username, scope: "account" as const },
              { buckets: allAddressesSustained, key: username, scope: "account" as const },
            ]
          : []),
      ];
      let refusal: LoginRefusal | undefined;
      let reserved: readonly Charge[] = [];
      if (familiar) {
        const gates = charges.filter((c) => c.scope === "address");
        refusal = refusalOf(gates, await Promise.all(gates.map((c) => c.buckets.peek(c.key))));
      } else {
        const taken = await Promise.all(charges.map((c) => c.buckets.take(c.key)));
        refusal = refusalOf(charges, taken);
        reserved = charges.filter((_, i) => taken[i]!.ok);
        // A refused attempt is not checked, so it owes nothing: the tokens it did take go back.
        if (refusal) await Promise.all(reserved.map((c) => c.buckets.refund(c.key)));
      }
      if (refusal) {
        if (refusal.scope === "account") noteThrottled(username, client, { retryAfterSeconds: refusal.retryAfterSeconds });
        return refusal;
      }
      return {
        ok: true,
        async succeeded() {
          const [decision] = await Promise.all([successes.take(pair), addressKnown ? known.drain(pair) : undefined, ...reserved.map((c) => c.buckets.refund(c.key))]);
          return decision.ok ? decision : { ok: false, scope: "successes", retryAfterSeconds: decision.retryAfterSeconds };
        },
        async failed() {
          if (familiar) await Promise.all(charges.map((c) => c.buckets.take(c.key)));
        },
      };
    },
  };
};
