import { SessionCapacityReached, type OpenResult, type SearchRecord } from "../search/session-store.js";
import type { StoreGuard } from "./store-guard.js";
import type { LuaScript } from "./lua-runner.js";
import { pairsToHash, recordFromHash, recordToFields } from "./record-codec.js";
import { carriesTag, taggedSearchId, type RedisKeys } from "./redis-keys.js";
import type { SearchPlaces } from "./search-places.js";

/** What {@link openSearch} works with: the store's guard, its open script, its keys and places. */
export interface OpenSearchContext {
  readonly run: StoreGuard["run"];
  /** `OPEN_OR_JOIN` (`lua-scripts.ts`), bound to the store's client. */
  readonly open: LuaScript;
  readonly keys: RedisKeys;
  /** A Redis Cluster: the running sets are in other slots than the search's keys. */
  readonly cluster: boolean;
  readonly places: SearchPlaces;
  readonly caps: { readonly instance: number; readonly tenant: number };
  readonly ttlMs: number;
}

type Reply = [number, string?, (string[] | number)?];

/**
 * `SessionStore.openOrJoin` on Redis. On one Redis, one script joins the live search of the query or stores the
 * candidate, taking the places of the caps in the same step. On a cluster the places live in other slots than the
 * search: a probe finds whether there is a search to join, the places are taken (tenant's, then the instance's),
 * then the candidate is stored, unless another instance stored one meanwhile (joined: the places go back). A
 * candidate whose id lacks its key's hash tag (minted without `searchIdFor`) gets it on a cluster.
 */
export const openSearch = async (c: OpenSearchContext, candidate: SearchRecord): Promise<OpenResult> => {
  const record = c.cluster && !carriesTag(candidate.id, candidate.key) ? { ...candidate, id: taggedSearchId(candidate.key, candidate.id) } : candidate;
  const f = recordToFields(record);
  const leaseMs = Math.max(1, (record.lease?.expiresAt ?? record.createdAt + 1) - record.createdAt);
  const of = { tenant: record.tenant, deadlineAt: record.deadlineAt };
  // Completed ones expire `ttl` after completion, the others `ttl` after their deadline.
  const expiresAt = (record.completed ? (record.completedAt ?? record.createdAt) : record.deadlineAt) + c.ttlMs;
  const member = `${Math.round(record.deadlineAt)}:${record.id}`;
  const args = (mode: "create" | "probe") => [record.id, f.rec, f.owner, leaseMs, f.done, f.doneAt, expiresAt, c.keys.searchPrefix, mode, c.caps.instance, c.caps.tenant, member, f.exp];
  const searchKeys = [c.keys.mapping(record.key), c.keys.search(record.id), c.keys.changes(record.id)];
  let reply: Reply;
  if (!c.cluster) {
    reply = (await c.run(() => c.open.run([...searchKeys, c.keys.running, c.keys.runningOf(record.tenant)], args("create")))) as Reply;
  } else {
    reply = (await c.run(() => c.open.run(searchKeys, args("probe")))) as Reply;
    if (reply[0] === 3) {
      await c.places.take(record.id, record.tenant, record.deadlineAt, leaseMs);
      try {
        reply = (await c.run(() => c.open.run(searchKeys, args("create")))) as Reply;
      } finally {
        if (reply[0] !== 1) await c.places.release(record.id, of);
      }
    }
  }
  if (reply[0] === 1) {
    if (!record.completed) c.places.hold(record.id, record.tenant, record.deadlineAt, leaseMs);
    return { record, created: true };
  }
  if (reply[0] === 2) throw new SessionCapacityReached(reply[1] === "tenant" ? "tenant" : "instance", Math.max(1, Math.ceil(Number(reply[2]) / 1_000)));
  const joined = recordFromHash(pairsToHash((reply[2] as string[] | undefined) ?? []));
  if (!joined) throw new Error(`redis session store: search ${reply[1] ?? "?"} has no record`);
  return { record: joined, created: false };
};
