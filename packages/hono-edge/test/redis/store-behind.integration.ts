import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { redisKeys } from "../../src/redis/index.js";
import { API_KEY, memoryLogger } from "../support/app.js";
import { LISBON, redisInstance } from "./support/instance-setup.js";
import { deleteKeys, REDIS_URL, testPrefix } from "./support/redis-harness.js";

/**
 * What a failover of a replicated Redis leaves behind, made by hand so that it happens every time: the promoted
 * replica lacks the last changes its primary acknowledged (the search's hash at an older version, its log cut
 * there) and the search was last written on another primary (its replication epoch is not this one's). Another
 * instance must not answer from that state (a client was shown more); the instance running the search notices at its
 * next heartbeat that the store is behind what it wrote, writes the search back whole, and from then on every
 * instance answers it with every offer, to completion.
 */

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
type App = ReturnType<typeof redisInstance>["app"];

const poll = async (app: App, token: string) => {
  const res = await app.request("/api/ConsultaAereo/Consultar", {
    method: "POST",
    headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ Token: token, QuantidadePorPagina: 100 }),
  });
  const body = (await res.json()) as Envelope;
  const data = body["Data"] as { flights: { segments: { rateToken: string }[] }[] }[] | undefined;
  const rates = new Set(res.status === 200 ? (data?.[0]?.flights ?? []).flatMap((f) => f.segments.map((s) => s.rateToken)) : []);
  return { status: res.status, body, rates, version: (body["Progresso"] as { Versao?: number } | undefined)?.Versao ?? 0 };
};

describe("a store that lost a search's last writes (as a failover can)", () => {
  it("other instances answer a retryable 503 until the owner writes the search back; then every offer is there, to completion", async () => {
    const prefix = testPrefix();
    const redis = new Redis(REDIS_URL);
    cleanup.push(async () => {
      await deleteKeys(redis, prefix);
      redis.disconnect();
    });
    const logs = memoryLogger();
    // Two sources answer early, the others not before the search's deadline (6 s), where it completes with what it
    // has: the search runs, quiet, when the store is rolled back, and only the owner's heartbeat can notice before
    // the deadline. A lease of 6 s: the heartbeat every 2 s, so the store stays behind for a while.
    const latency = (id: string) => (id === "latam" ? 200 : id === "azul" ? 400 : 60_000);
    const settings = { redis: REDIS_URL, prefix, latency, leaseMs: 6_000, deadlineMs: 6_000 };
    const a = redisInstance({ ...settings, instanceId: "a", logger: logs.logger });
    const b = redisInstance({ ...settings, instanceId: "b" });
    cleanup.push(() => a.store.close(), () => b.store.close());

    const started = await a.app.request("/api/ConsultaAereo/Consultar", {
      method: "POST",
      headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ ...LISBON, Ida: daysAhead(33) }),
    });
    const token = ((await started.json()) as Envelope)["Token"] as string;
    // A client of b has seen the early sources' offers, both sources done: the search is quiet now.
    const concluded = (answer: Awaited<ReturnType<typeof poll>>) => (answer.body["Progresso"] as { FontesConcluidas?: number } | undefined)?.FontesConcluidas ?? 0;
    let seen = await poll(b.app, token);
    for (let i = 0; i < 100 && concluded(seen) < 2; i++) {
      await sleep(100);
      seen = await poll(b.app, token);
    }
    expect(concluded(seen)).toBe(2);
    expect(seen.version).toBeGreaterThanOrEqual(3);
    expect(seen.body["Completed"]).toBe(false);

    // The failover: the hash back at version 1, the log cut there, last written on a primary that is gone.
    const keys = redisKeys(prefix);
    const first = (await redis.lrange(keys.changes(token), 0, 0))[0]!;
    await redis.multi().hset(keys.search(token), "v", "1", "ep", "a-primary-that-died").del(keys.changes(token)).rpush(keys.changes(token), first).exec();

    // b does not answer from what the store has left: a retryable 503, until a's heartbeat writes the search back.
    const during = await poll(b.app, token);
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ Erro: { Codigo: "INDISPONIVEL", Retentavel: true } });
    let after = during;
    for (let i = 0; i < 40 && after.status !== 200; i++) {
      await sleep(100);
      after = await poll(b.app, token);
    }
    expect(after.status).toBe(200);
    expect([...seen.rates].filter((r) => !after.rates.has(r))).toEqual([]);
    expect(logs.records.filter((r) => r.msg === "search.store_behind")).toHaveLength(1);
    expect(logs.records.find((r) => r.msg === "search.rewritten")).toMatchObject({ searchId: token, completed: false });

    // To completion (at the deadline), on both instances, with every offer shown before.
    let done = after;
    for (let i = 0; i < 200 && done.body["Completed"] !== true; i++) {
      await sleep(100);
      done = await poll(i % 2 === 0 ? a.app : b.app, token);
      expect(done.status).toBe(200);
      expect([...after.rates].filter((r) => !done.rates.has(r))).toEqual([]);
    }
    expect(done.body["Completed"]).toBe(true);
    const onA = await poll(a.app, token);
    expect([...onA.rates].sort()).toEqual([...done.rates].sort());
  }, 40_000);
});
