import { addDays, todayInSaoPaulo } from "@voar/core";
import { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisSessionStore, type RedisSessionStore } from "../../src/redis/index.js";
import { hostPort } from "../../src/redis/topology/redis-target.js";
import { alertApp, alertas, fakeReceiver, priceLever } from "../alerts/support.js";
import { OTHER_KEY } from "../support/app.js";
import { testPrefix } from "./support/redis-harness.js";
import { startCluster, type TestCluster } from "./support/redis-topology.js";

/**
 * Price watches on a Redis Cluster of the test's own, two instances (two apps, each its own cluster connection)
 * sharing it: every key of the alerts carries one hash tag, so the scripts' multi-key steps (a watch, its days,
 * its alerts and deliveries) run in one slot; each day is checked once per slot, by one instance or the other,
 * and an alert is delivered once, whichever instance's deliverer runs. Real time, short slots (400 ms).
 */

const SLOT_MS = 400;
const HOOK = "https://hooks.agencia.example/voar";
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const today = todayInSaoPaulo(new Date());

let cluster: TestCluster;
let inspect: Cluster;
const stores: RedisSessionStore[] = [];
beforeAll(async () => {
  cluster = await startCluster({ nodeTimeoutMs: 1_000 });
  inspect = new Cluster(cluster.nodes.map(hostPort));
}, 60_000);
afterAll(async () => {
  for (const s of stores) await s.close();
  inspect?.disconnect();
  await cluster?.stop();
});

/** An instance's session store on the cluster (the alerts' store with it), connected. */
const clusterStore = async (prefix: string) => {
  const store = createRedisSessionStore({ redis: { kind: "cluster", nodes: cluster.nodes.map(hostPort) }, keyPrefix: prefix, maxSessions: 100, ttlMs: 60_000 });
  stores.push(store);
  for (let i = 0; i < 50 && !(await store.ready!()); i++) await sleep(100);
  return store;
};

/** Every key under `pattern`, with the primary holding it. */
const keysByPrimary = async (pattern: string) => {
  const found = new Map<string, string[]>();
  for (const node of inspect.nodes("master")) {
    const keys = await node.keys(pattern);
    if (keys.length > 0) found.set(`${node.options.host}:${node.options.port}`, keys);
  }
  return found;
};

describe("price watches on a Redis Cluster", () => {
  it("two instances check each day once per slot, share a day across tenants, deliver each alert once; every alerts key in one slot", async () => {
    const prefix = testPrefix();
    const lever = priceLever();
    const receiver = fakeReceiver();
    const days = [20, 21, 22].map((n) => addDays(today, n));
    for (const d of days) lever.cash.set(d, 500_00);
    const configInput = { alerts: { schedule: { baseIntervalMs: SLOT_MS, minIntervalMs: SLOT_MS, maxIntervalMs: SLOT_MS, leaseMs: 3_000, concurrency: 2 } } };
    const instance = async (id: string) =>
      alertApp({ alerts: { prices: () => lever.prices, post: receiver.post }, deps: { store: await clusterStore(prefix), instanceId: id }, configInput });
    const [um, dois] = await Promise.all([instance("um"), instance("dois")]);

    // acme watches the three days, the other tenant the middle one: that day is one check for both.
    const acme = await alertas(um.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: days[1], DiasFlexiveis: 1, TetoValor: 450, Webhook: HOOK } });
    const other = await alertas(dois.app, "", { body: { Origem: "CNF", Destino: "GRU", Ida: days[1], TetoValor: 450, Webhook: HOOK }, key: OTHER_KEY });
    expect([acme.status, other.status]).toEqual([201, 201]);

    // Both instances look for due checks and deliveries together, round after round, for about 4 s; halfway the
    // middle day's price drops under both ceilings.
    const started = Date.now();
    let dropped = false;
    while (Date.now() - started < 4_000) {
      if (!dropped && Date.now() - started > 1_500) {
        lever.cash.set(days[1]!, 449_90);
        dropped = true;
      }
      await Promise.all([um.alerts().tick(), dois.alerts().tick()]);
      await Promise.all([um.alerts().idle(), dois.alerts().idle()]);
      await sleep(50);
    }
    // Deliveries queued by the last checks go out.
    for (let i = 0; i < 5; i++) await Promise.all([um.alerts().tick(), dois.alerts().tick()]).then(() => Promise.all([um.alerts().idle(), dois.alerts().idle()]));

    // Each day's checks as the store recorded them: slots 1, 2, 3... each completed once, and searched once.
    const owners = new Set<string>();
    for (const day of days) {
      const [key] = [...(await keysByPrimary(`${prefix}alerts:{alerts}:h:*${day}*`)).values()].flat();
      const history = (await inspect.lrange(key!, 0, -1)).map((l) => l.split(":"));
      const slots = history.map(([slot]) => Number(slot));
      expect(slots.length, day).toBeGreaterThanOrEqual(4);
      expect(slots, day).toEqual(slots.map((_, i) => i + 1));
      expect(lever.checks.filter((q) => q.departureDate === day), day).toHaveLength(slots.length);
      for (const [, owner] of history) owners.add(owner!);
    }
    // The work was the two instances', not one's.
    expect([...owners].sort()).toEqual(["dois", "um"]);

    // One alert per watch, each delivered once (one webhook-id each), whichever instance took it.
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    const acmeId = acme.body.Data[0].Id as string;
    const otherId = other.body.Data[0].Id as string;
    expect((await alertas(um.app, `/${acmeId}`)).body.Data[0]).toMatchObject({ Avisos: 1 });
    expect((await alertas(um.app, `/${otherId}`, { key: OTHER_KEY })).body.Data[0]).toMatchObject({ Avisos: 1 });
    expect((await alertas(dois.app, `/${acmeId}/Entregas`)).body.Data).toMatchObject([{ Estado: "entregue" }]);

    // Every key of the alerts on one primary: one hash slot, as the scripts' multi-key steps need.
    const held = await keysByPrimary(`${prefix}alerts:*`);
    expect(held.size).toBe(1);
    expect([...held.values()][0]!.length).toBeGreaterThan(10);
  });
});
