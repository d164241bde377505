import { afterEach, describe, expect, it } from "vitest";
import { openRedisConnection, redisPaganteSettings } from "../../src/redis/index.js";
import { connectRedis, deleteKeys, REDIS_URL, testPrefix } from "./support/redis-harness.js";
import { startCluster } from "./support/redis-topology.js";
import { startVoarServer, type VoarServer } from "./support/voar-server.js";

/**
 * One Pagante switch for every instance: a `PUT /admin/pagante` on one instance is seen by the others within a
 * second (announced through Redis: sharded pub/sub on a cluster), and by an instance started later, whatever its
 * own `VOAR_PAGANTE` says; one audit line per change, on the instance that made it.
 */

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

const ADMIN = "ops-ana:an-admin-key-0123456789";
const KEY = "an-admin-key-0123456789";
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const switchOf = async (server: VoarServer, airlineId: number): Promise<boolean> => {
  const res = await fetch(`${server.baseUrl}/api/admin/pagante`, { headers: { "X-Admin-Key": KEY } });
  const body = (await res.json()) as { Pagante: { IdCia: number; Pagante: boolean }[] };
  return body.Pagante.find((p) => p.IdCia === airlineId)!.Pagante;
};

const put = (server: VoarServer, airlineId: number, on: boolean) =>
  fetch(`${server.baseUrl}/api/admin/pagante`, { method: "PUT", headers: { "X-Admin-Key": KEY, "Content-Type": "application/json" }, body: JSON.stringify({ IdCia: airlineId, Pagante: on }) });

describe("the Pagante switch shared through Redis", () => {
  it("on a cluster: a change on one instance is seen by the other within 1 s, and by an instance started later", async () => {
    const cluster = await startCluster({ nodeTimeoutMs: 1_000 });
    cleanup.push(() => cluster.stop());
    const env = { VOAR_API_KEYS: "acme:an-api-key-0123456789", VOAR_NAMED_ADMIN_KEYS: ADMIN, VOAR_STORE_REDIS_CLUSTER: cluster.nodes.join(","), VOAR_STORE_REDIS_KEY_PREFIX: testPrefix() };
    const [one, two] = await Promise.all([startVoarServer(env), startVoarServer(env)]);
    cleanup.push(() => one.stop(), () => two.stop());
    expect(await switchOf(two, 1)).toBe(true);

    expect((await put(one, 1, false)).status).toBe(200);
    const changed = performance.now();
    while (await switchOf(two, 1)) {
      expect(performance.now() - changed).toBeLessThan(1_000);
      await sleep(20);
    }
    const seenAfterMs = performance.now() - changed;

    // Started later, with a configuration that says otherwise: the shared switch wins.
    const three = await startVoarServer({ ...env, VOAR_PAGANTE: "1=on,2=off" });
    cleanup.push(() => three.stop());
    expect(await switchOf(three, 1)).toBe(false);
    // What the store had none of yet comes from the first instance's configuration (every airline on here).
    expect(await switchOf(three, 2)).toBe(true);

    const audit = [one, two, three].map((s) => s.logs().filter((r) => r.msg === "admin.pagante"));
    expect(audit[0]).toEqual([expect.objectContaining({ who: "ops-ana", airlineId: 1, before: true, after: false, at: expect.any(String) })]);
    expect(audit[1]).toEqual([]);
    expect(audit[2]).toEqual([]);
    console.log(`pagante on a cluster: seen by the other instance ${seenAfterMs.toFixed(0)} ms after the PUT answered`);
  }, 90_000);

  it("on one Redis: instances agree whatever their own configuration, and a change reaches the other at once", async () => {
    const prefix = testPrefix();
    const redis = await connectRedis();
    cleanup.push(async () => {
      await deleteKeys(redis, prefix);
      redis.disconnect();
    });
    const open = (initial: Record<string, boolean>) => {
      const connection = openRedisConnection(REDIS_URL);
      const settings = redisPaganteSettings({ redis: connection, keyPrefix: prefix, initial });
      cleanup.push(async () => {
        await settings.close();
        await connection.close();
      });
      return settings;
    };
    const a = open({ "3": false });
    await a.ready();
    const b = open({});
    await b.ready();
    // The first instance seeded the store: the second follows it, not its own configuration.
    expect(await b.hiddenCashAirlines()).toEqual([3]);
    expect(await a.set(2, false)).toBe(true);
    for (let i = 0; i < 50 && (await b.hiddenCashAirlines()).length < 2; i++) await sleep(20);
    expect(await b.hiddenCashAirlines()).toEqual([2, 3]);
    expect(await b.set(3, true)).toBe(false);
    for (let i = 0; i < 50 && (await a.hiddenCashAirlines()).length > 1; i++) await sleep(20);
    expect(await a.hiddenCashAirlines()).toEqual([2]);
  });
});
