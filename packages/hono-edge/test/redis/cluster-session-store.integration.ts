import { afterAll, beforeAll } from "vitest";
import { sessionStoreContract, type StoreHarness, type StoreSettings } from "../contract/session-store-contract.js";
import { createRedisSessionStore, type RedisTarget } from "../../src/redis/index.js";
import { taggedSearchId } from "../../src/redis/redis-keys.js";
import { hostPort } from "../../src/redis/topology/redis-target.js";
import type { SearchRecord, SessionStore } from "../../src/search/session-store.js";
import { testPrefix } from "./support/redis-harness.js";
import { startCluster, type TestCluster } from "./support/redis-topology.js";

/**
 * The session store contract on a Redis Cluster of the test's own. The contract names its searches ("1", "2"...);
 * on a cluster a search's id carries its key's hash tag (the hub mints it with `searchIdFor`), so the harness
 * gives the store tagged ids and the contract its own names back.
 */

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ nodeTimeoutMs: 1_000 });
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

/** The store under the contract's names: each name stored under the id the hub would have minted for its key. */
const named = (inner: SessionStore): SessionStore => {
  const tagged = new Map<string, string>();
  const names = new Map<string, string>();
  const toId = (name: string) => tagged.get(name) ?? name;
  const toName = (r: SearchRecord): SearchRecord => ({ ...r, id: names.get(r.id) ?? r.id });
  return {
    async openOrJoin(candidate) {
      const id = taggedSearchId(candidate.key, candidate.id);
      const result = await inner.openOrJoin({ ...candidate, id });
      if (result.created) {
        tagged.set(candidate.id, id);
        names.set(id, candidate.id);
      }
      return { ...result, record: toName(result.record) };
    },
    get: async (id) => {
      const r = await inner.get(toId(id));
      return r && toName(r);
    },
    append: (id, change, owner, leaseMs) => inner.append(toId(id), change, owner, leaseMs),
    changes: (id, after) => inner.changes(toId(id), after),
    acquireLease: (id, owner, leaseMs, written) => inner.acquireLease(toId(id), owner, leaseMs, written),
    releaseLease: (id, owner) => inner.releaseLease(toId(id), owner),
    watch: (id, listener) => inner.watch(toId(id), listener),
  };
};

const clusterHarness = async (settings: StoreSettings): Promise<StoreHarness> => {
  const target: RedisTarget = { kind: "cluster", nodes: cluster.nodes.map(hostPort) };
  const store = createRedisSessionStore({ redis: target, keyPrefix: testPrefix(), ...settings });
  for (let i = 0; i < 50 && !(await store.ready!()); i++) await new Promise((r) => setTimeout(r, 100));
  return {
    store: named(store),
    now: () => Date.now(),
    elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    close: () => store.close(),
  };
};

sessionStoreContract("redis cluster", clusterHarness);
