import { SessionCapacityReached } from "../search/session-store.js";
import type { Logger } from "../logging/logger.js";
import { luaScript } from "./lua-runner.js";
import { RENEW, RESERVE } from "./lua-reservations.js";
import type { RedisKeys } from "./redis-keys.js";
import type { RedisConnection } from "./redis-connection.js";

/**
 * The places of the caps (`maxSessions`, `maxSessionsPerTenant`) that this instance's running searches hold. A
 * place is a member of a running set (`<deadline>:<id>`) that lapses a lease's time after its last renewal, so a
 * search counts while some instance runs it: from its start until it completes (the place is given up) or its
 * owner dies (the place lapses with the lease; whoever takes the search over takes a place again, if there is
 * one). The owner renews its places every third of a lease, taking back any the store forgot (after an outage or a
 * failover), so the counts recover by themselves. Nothing leaks, and no new search is let in beyond a cap.
 */
export interface SearchPlaces {
  /**
   * Takes the places of a search about to run: the tenant's first, then the instance's (given back if that one
   * is full). Throws {@link SessionCapacityReached}. A place the search holds already is renewed, never counted twice.
   */
  take(id: string, tenant: string, deadlineAt: number, holdMs: number): Promise<void>;
  /** From now on, renews the places of a search this instance runs. */
  hold(id: string, tenant: string, deadlineAt: number, leaseMs: number): void;
  /** Whether this instance runs the search (renews its places). */
  holds(id: string): boolean;
  /** Gives the places of a search up (it completed, or is released); `tenant` and `deadlineAt` for one never held. */
  release(id: string, of?: { readonly tenant: string; readonly deadlineAt: number }): Promise<void>;
  /** Stops renewing the places of a search without giving them up (another instance runs it now). */
  forget(id: string): void;
  /** Renews every place this instance holds, now (and then every third of a lease). */
  renew(): Promise<void>;
  /** Stops the renewals (the places lapse by themselves). */
  close(): void;
}

/** What {@link searchPlaces} needs. */
export interface SearchPlacesOptions {
  readonly connection: RedisConnection;
  readonly keys: RedisKeys;
  /** Searches running at once across every instance; 0: no cap. */
  readonly maxSessions: number;
  /** Searches one tenant may run at once; 0: no cap. */
  readonly maxSessionsPerTenant: number;
  readonly logger: Logger;
}

const memberOf = (id: string, deadlineAt: number) => `${Math.round(deadlineAt)}:${id}`;

/** The places of this instance's searches on Redis (see {@link SearchPlaces}). */
export const searchPlaces = (o: SearchPlacesOptions): SearchPlaces => {
  const { client, guard } = o.connection;
  const reserve = luaScript(client, RESERVE);
  const renewScript = luaScript(client, RENEW);
  const held = new Map<string, { readonly member: string; readonly tenantKey: string; readonly leaseMs: number }>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let failing = false;

  const refused = (scope: "tenant" | "instance", ms: unknown) => new SessionCapacityReached(scope, Math.max(1, Math.ceil(Number(ms) / 1_000)));
  const zrem = (key: string, member: string) => guard.run(() => client.zrem(key, member)).catch(() => 0); // lapses by itself otherwise

  const renew = async () => {
    if (held.size === 0) return;
    const bySet = new Map<string, string[]>([[o.keys.running, []]]);
    let leaseMs = Infinity;
    const now = Date.now();
    for (const [id, p] of held) {
      // Past its deadline a search runs nothing more: its place goes (the script drops it too).
      if (Number(p.member.slice(0, p.member.indexOf(":"))) <= now) held.delete(id);
    }
    for (const p of held.values()) {
      bySet.get(o.keys.running)!.push(p.member);
      bySet.set(p.tenantKey, [...(bySet.get(p.tenantKey) ?? []), p.member]);
      leaseMs = Math.min(leaseMs, p.leaseMs);
    }
    const results = await Promise.allSettled([...bySet].map(([key, members]) => guard.run(() => renewScript.run([key], [leaseMs, ...members]))));
    const failed = results.find((r) => r.status === "rejected");
    // Once per run of failures: the store's own outage is logged by the store (`store.down`).
    if (failed && !failing) o.logger.log({ level: "info", msg: "store.places_not_renewed", searches: held.size, error: String(failed.reason) });
    failing = failed !== undefined;
  };

  const schedule = () => {
    if (timer || held.size === 0) return;
    const every = Math.max(500, Math.floor(Math.min(...[...held.values()].map((p) => p.leaseMs)) / 3));
    timer = setInterval(() => void renew(), every);
    timer.unref?.();
  };

  return {
    async take(id, tenant, deadlineAt, holdMs) {
      const member = memberOf(id, deadlineAt);
      const tenantKey = o.keys.runningOf(tenant);
      const [ok, ms] = (await guard.run(() => reserve.run([tenantKey], [member, holdMs, o.maxSessionsPerTenant])) as [number, number?]);
      if (ok !== 1) throw refused("tenant", ms);
      const [ok2, ms2] = (await guard.run(() => reserve.run([o.keys.running], [member, holdMs, o.maxSessions])) as [number, number?]);
      if (ok2 === 1) return;
      await zrem(tenantKey, member);
      throw refused("instance", ms2);
    },
    hold(id, tenant, deadlineAt, leaseMs) {
      held.set(id, { member: memberOf(id, deadlineAt), tenantKey: o.keys.runningOf(tenant), leaseMs });
      schedule();
    },
    holds: (id) => held.has(id),
    async release(id, of) {
      const p = held.get(id) ?? (of && { member: memberOf(id, of.deadlineAt), tenantKey: o.keys.runningOf(of.tenant) });
      held.delete(id);
      if (held.size === 0) this.close();
      if (p) await Promise.all([zrem(o.keys.running, p.member), zrem(p.tenantKey, p.member)]);
    },
    forget(id) {
      held.delete(id);
      if (held.size === 0) this.close();
    },
    renew,
    close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
};
