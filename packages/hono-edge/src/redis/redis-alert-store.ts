import type { SearchQuery } from "@voar/core";
import type { AlertRecord, ClaimedUnit, DeliveryRecord, EventRecord, TenantSecret, UnitResult } from "../alerts/alert-record.js";
import type { AlertStore } from "../alerts/alert-store.js";
import { AVERAGE_WEIGHT, DELIVERY_TTL_MS } from "../alerts/store-limits.js";
import { CLAIM_DELIVERIES, CLAIM_UNITS, COMPLETE_UNIT, CREATE_ALERT, EXPIRE_ALERTS, FINISH_DELIVERY, LIST_DELIVERIES, RELEASE_UNIT, REMOVE_ALERT, RENEW_UNIT, SECRET, UPDATE_ALERT } from "./alert-scripts.js";
import { luaScript } from "./lua-runner.js";
import type { RedisWatchers } from "./redis-watchers.js";
import type { StoreGuard } from "./store-guard.js";
import type { RedisClient } from "./topology/open-client.js";

/** What {@link createRedisAlertStore} needs: the session store's Redis, guard and pub/sub. */
export interface RedisAlertStoreOptions {
  readonly redis: RedisClient;
  readonly guard: StoreGuard;
  readonly watchers: RedisWatchers;
  /** The deployment's key prefix (`voar:<fingerprint>:`). */
  readonly keyPrefix: string;
  /** A Redis Cluster: alerts are announced on a sharded channel. */
  readonly cluster: boolean;
}

type Hash = Record<string, string>;
const pairs = (flat: readonly string[]): Hash => {
  const h: Hash = {};
  for (let i = 0; i + 1 < flat.length; i += 2) h[flat[i]!] = flat[i + 1]!;
  return h;
};

const unitOf = (key: string, h: Hash): ClaimedUnit => {
  const watchers: Record<string, string> = {};
  for (const [f, v] of Object.entries(h)) if (f.startsWith("w:")) watchers[f.slice(2)] = v;
  const slot = Number(h["slot"] ?? 0);
  return {
    key,
    query: JSON.parse(h["q"]!) as SearchQuery,
    watchers,
    slot,
    stable: Number(h["stable"] ?? 0),
    ...(h["last"] ? { last: JSON.parse(h["last"]) as UnitResult } : {}),
    claimed: slot + 1,
  };
};

const secretOf = ([cur, prev, until]: (string | null)[]): TenantSecret => ({ current: cur!, ...(prev ? { previous: prev, previousUntil: Number(until) } : {}) });

/**
 * The alerts' store on Redis (one Redis, a Sentinel primary or a Redis Cluster), beside the searches: every
 * instance sharing it serves every watch, and each day check and delivery is leased to one instance at a time by
 * a script (`alert-scripts.ts`). All of the alerts' keys share one hash tag: on a cluster they live in one slot,
 * which every step needs (a watch, its days and its alerts change together), and which their rate allows (checks per
 * hour, not requests per second). A tenant's alerts are announced on its channel, so a stream on any instance hears them.
 */
export const createRedisAlertStore = (o: RedisAlertStoreOptions): AlertStore => {
  const { redis } = o;
  const { run } = o.guard;
  const base = `${o.keyPrefix}alerts:{alerts}:`;
  const due = `${base}due`;
  const script = (lua: string) => luaScript(redis, lua);
  const s = {
    create: script(CREATE_ALERT),
    remove: script(REMOVE_ALERT),
    expire: script(EXPIRE_ALERTS),
    update: script(UPDATE_ALERT(o.cluster ? "SPUBLISH" : "PUBLISH")),
    claim: script(CLAIM_UNITS),
    renew: script(RENEW_UNIT),
    complete: script(COMPLETE_UNIT),
    release: script(RELEASE_UNIT),
    claimDeliveries: script(CLAIM_DELIVERIES),
    finish: script(FINISH_DELIVERY),
    deliveries: script(LIST_DELIVERIES),
    secret: script(SECRET),
  };
  const read = (json: string | null): AlertRecord | undefined => (json ? (JSON.parse(json) as AlertRecord) : undefined);

  return {
    async create(record, units, maxWatches) {
      const args = [base, record.id, JSON.stringify(record), record.tenant, record.expiresAt, maxWatches, ...units.flatMap((u) => [u.key, JSON.stringify(u.query)])];
      return (await run(() => s.create.run([`${base}t:${record.tenant}`, due], args))) === 1;
    },
    async get(id) {
      return read(await run(() => redis.get(`${base}w:${id}`)));
    },
    async list(tenant) {
      const ids = (await run(() => redis.zrange(`${base}t:${tenant}`, 0, -1))) as string[];
      if (ids.length === 0) return [];
      const records = (await run(() => redis.mget(...ids.map((id) => `${base}w:${id}`)))) as (string | null)[];
      return records.flatMap((r) => read(r) ?? []);
    },
    async remove(tenant, id) {
      return (await run(() => s.remove.run([`${base}w:${id}`], [base, id, tenant]))) === 1;
    },
    async update(record, rev, fired) {
      const now = Date.now();
      const args: (string | number)[] = [base, record.id, record.tenant, rev, JSON.stringify({ ...record, rev: rev + 1 }), DELIVERY_TTL_MS];
      for (const f of fired) {
        const id = f.event.data.Id;
        const delivery: DeliveryRecord | undefined = f.webhook ? { id, alertId: record.id, tenant: record.tenant, url: f.webhook, event: f.event, createdAt: now, state: "pending", attempts: [], nextAttemptAt: now } : undefined;
        args.push(id, JSON.stringify(f.event), delivery ? JSON.stringify(delivery) : "");
      }
      return (await run(() => s.update.run([`${base}w:${record.id}`, due], args))) === 1;
    },

    async claim(owner, leaseMs, max) {
      const reply = (await run(() => s.claim.run([due], [base, owner, leaseMs, max]))) as [string, string[]][];
      return reply.map(([key, flat]) => unitOf(key, pairs(flat)));
    },
    async renew(key, owner, leaseMs) {
      return (await run(() => s.renew.run([due], [base, key, owner, leaseMs]))) === 1;
    },
    async complete(key, owner, claimed, result, stable, nextInMs) {
      return (await run(() => s.complete.run([due, `${base}stats`], [base, key, owner, claimed, JSON.stringify(result), stable, nextInMs, result.requests, AVERAGE_WEIGHT]))) === 1;
    },
    async release(key, owner, delayMs) {
      await run(() => s.release.run([due], [base, key, owner, delayMs]));
    },
    async drop(key) {
      await run(() => redis.del(`${base}u:${key}`, `${base}h:${key}`));
      await run(() => redis.zrem(due, key));
    },
    async expire() {
      return Number(await run(() => s.expire.run([`${base}exp`], [base])));
    },
    async stats() {
      const [watches, units, avg] = await Promise.all([run(() => redis.zcard(`${base}exp`)), run(() => redis.zcard(due)), run(() => redis.hget(`${base}stats`, "avg"))]);
      return { watches: Number(watches), units: Number(units), requestsPerCheck: Number(avg ?? 0) };
    },

    async claimDeliveries(owner, leaseMs, max) {
      const reply = (await run(() => s.claimDeliveries.run([`${base}dq`], [base, owner, leaseMs, max]))) as string[];
      return reply.map((r) => JSON.parse(r) as DeliveryRecord);
    },
    async finishDelivery(record, owner) {
      const pending = record.state === "pending";
      const delay = pending ? Math.max(0, (record.nextAttemptAt ?? 0) - Date.now()) : 0;
      return (await run(() => s.finish.run([`${base}dq`], [base, record.id, owner, JSON.stringify(record), pending ? "1" : "0", delay, DELIVERY_TTL_MS]))) === 1;
    },
    async deliveries(alertId) {
      const reply = (await run(() => s.deliveries.run([`${base}wd:${alertId}`], [base]))) as string[];
      return reply.map((r) => JSON.parse(r) as DeliveryRecord);
    },

    async events(tenant, afterSeq) {
      const lines = (await run(() => redis.lrange(`${base}e:${tenant}`, 0, -1))) as string[];
      return lines.map((l) => JSON.parse(l) as EventRecord).filter((e) => e.seq > afterSeq);
    },
    onEvent(tenant, listener) {
      return run(() => o.watchers.watch(`${base}ch:${tenant}`, listener));
    },

    async secret(tenant, fresh) {
      return secretOf((await run(() => s.secret.run([`${base}s:${tenant}`], [fresh, ""]))) as (string | null)[]);
    },
    async rotateSecret(tenant, fresh, graceMs) {
      return secretOf((await run(() => s.secret.run([`${base}s:${tenant}`], [fresh, graceMs]))) as (string | null)[]);
    },
  };
};
