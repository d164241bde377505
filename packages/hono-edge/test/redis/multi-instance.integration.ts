import { afterEach, describe, expect, it } from "vitest";
import { consultarVia, daysAhead, type ContractTarget, type Envelope } from "../contract/contract-target.js";
import { startRuntime, type RuntimeServer } from "../runtimes/support/runtime-process.js";
import { PACKAGE_DIR } from "../runtimes/support/runtime-binaries.js";
import { API_KEY } from "../support/app.js";
import { LISBON, redisInstance } from "./support/instance-setup.js";
import { connectRedis, deleteKeys, REDIS_URL, testPrefix } from "./support/redis-harness.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const auth = { Authorization: `Bearer ${API_KEY}` };

/** A target with the test configuration's key (the contract helpers send the contract's key by default). */
const withKey = (fetchLike: ContractTarget["fetch"]): ContractTarget => ({
  fetch: (path, init) => fetchLike(path, { ...init, headers: { ...(init?.headers as Record<string, string>), ...auth } }),
  wait: sleep,
});
const inProcess = (app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> }) => withKey(async (p, init) => app.request(p, init));

/** The fares (`rateToken`) of a Mode A answer: every flight the search has, as the query fits one page. */
const rates = (body: Envelope): Set<string> =>
  new Set((body["Data"] as { flights: { segments: { rateToken: string }[] }[] }[])[0]!.flights.flatMap((f) => f.segments.map((s) => s.rateToken)));
const versionOf = (body: Envelope) => (body["Progresso"] as { Versao: number }).Versao;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

/** A fresh prefix, deleted after the test. */
const isolated = async () => {
  const redis = await connectRedis();
  const prefix = testPrefix();
  cleanup.push(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });
  return prefix;
};

describe("two instances sharing one Redis", () => {
  it("polled alternately, they show one consistent, growing search: same Token, versions never go back, flights only grow", async () => {
    const prefix = await isolated();
    const a = redisInstance({ redis: REDIS_URL, prefix, instanceId: "a" });
    const b = redisInstance({ redis: REDIS_URL, prefix, instanceId: "b" });
    cleanup.push(() => a.store.close(), () => b.store.close());
    const query = { ...LISBON, Ida: daysAhead(30) };
    const targets = [inProcess(a.app), inProcess(b.app)];
    const answers: Envelope[] = [];
    for (let i = 0; i < 80 && answers.at(-1)?.["Completed"] !== true; i++) {
      const { status, body } = await consultarVia(targets[i % 2]!, i % 4 < 2 ? query : { Token: answers[0]?.["Token"] ?? "", QuantidadePorPagina: 100 });
      expect(status).toBe(200);
      answers.push(body);
      await sleep(150);
    }
    expect(answers.at(-1)!["Completed"]).toBe(true);
    expect(answers[0]!["Completed"]).toBe(false);
    for (let i = 1; i < answers.length; i++) {
      const [before, after] = [answers[i - 1]!, answers[i]!];
      expect(after["Token"]).toBe(answers[0]!["Token"]);
      expect(versionOf(after)).toBeGreaterThanOrEqual(versionOf(before));
      const later = rates(after);
      expect([...rates(before)].filter((r) => !later.has(r))).toEqual([]);
    }
    expect(new Set(answers.map((x) => x["TotalItens"])).size).toBeGreaterThan(2); // it grew in steps, seen from both
    const [fromA, fromB] = await Promise.all(targets.map((t) => consultarVia(t, { Token: answers[0]!["Token"], QuantidadePorPagina: 100 })));
    expect(fromA!.body["Data"]).toEqual(fromB!.body["Data"]);
    expect(a.calls.total()).toBe(8); // one engine run for both instances: the one that opened the search
    expect(b.calls.total()).toBe(0);
  });

  it("when the owner is killed mid-search, the other takes it over once the lease lapses and completes it; nothing returned is lost", async () => {
    const prefix = await isolated();
    const owner: RuntimeServer = await startRuntime(process.execPath, ["--import", "tsx", "test/redis/support/instance-process.ts"], { REDIS_URL, VOAR_TEST_PREFIX: prefix, VOAR_INSTANCE_ID: "owner" }, PACKAGE_DIR);
    cleanup.push(() => owner.stop());
    const survivor = redisInstance({ redis: REDIS_URL, prefix, instanceId: "survivor" });
    cleanup.push(() => survivor.store.close());
    const targets = [withKey(owner.target.fetch), inProcess(survivor.app)];

    const first = await consultarVia(targets[0]!, { ...LISBON, Ida: daysAhead(30) });
    const token = first.body["Token"] as string;
    const returned = new Set<string>();
    let before: Envelope = first.body;
    // Alternate until the early sources are in and the slow ones still pending, then kill the owner.
    for (let i = 0; i < 60 && (before["Completed"] !== false || (before["TotalItens"] as number) < 20); i++) {
      await sleep(100);
      before = (await consultarVia(targets[i % 2]!, { Token: token, QuantidadePorPagina: 100 })).body;
      for (const r of rates(before)) returned.add(r);
    }
    expect(before["Completed"]).toBe(false);
    await owner.kill();

    let after: Envelope = before;
    for (let i = 0; i < 80 && after["Completed"] !== true; i++) {
      await sleep(200);
      after = (await consultarVia(targets[1]!, { Token: token, QuantidadePorPagina: 100 })).body;
    }
    expect(after).toMatchObject({ Token: token, Completed: true, Success: true });
    const final = rates(after);
    expect([...returned].filter((r) => !final.has(r))).toEqual([]);
    expect(final.size).toBeGreaterThan(returned.size);
    expect(versionOf(after)).toBeGreaterThan(versionOf(before));
    const progress = after["Progresso"] as { FontesTotal: number; FontesConcluidas: number };
    expect(progress.FontesConcluidas).toBe(progress.FontesTotal); // the slow sources were run again, to the end
    expect(survivor.calls.total()).toBeGreaterThan(0); // it ran the sources still pending...
    expect(survivor.calls.calls.has("latam")).toBe(false); // ...and not the one that had finished (300 ms)
  });

  it("an SSE-only follower on the other instance sees the search completed after the owner is killed (takeover on lease expiry, nobody polls)", async () => {
    const prefix = await isolated();
    const owner: RuntimeServer = await startRuntime(process.execPath, ["--import", "tsx", "test/redis/support/instance-process.ts"], { REDIS_URL, VOAR_TEST_PREFIX: prefix, VOAR_INSTANCE_ID: "owner" }, PACKAGE_DIR);
    cleanup.push(() => owner.stop());
    const follower = redisInstance({ redis: REDIS_URL, prefix, instanceId: "follower" });
    cleanup.push(() => follower.store.close());
    const first = await consultarVia(withKey(owner.target.fetch), { ...LISBON, Ida: daysAhead(31) });
    const token = first.body["Token"] as string;
    const stream = await follower.app.request("/api/ConsultaAereo/Stream", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ Token: token, QuantidadePorPagina: 100 }),
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // Kill the owner once the stream has shown the search running.
    while (!text.includes('"Completed":false')) text += decoder.decode((await reader.read()).value, { stream: true });
    await owner.kill();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const events = text.split("\n\n").filter((b) => b.includes("data: "));
    const last = JSON.parse(events.at(-1)!.slice(events.at(-1)!.indexOf("data: ") + 6)) as Envelope;
    expect(last).toMatchObject({ Token: token, Completed: true, Success: true });
    const progress = last["Progresso"] as { FontesTotal: number; FontesConcluidas: number };
    expect(progress.FontesConcluidas).toBe(progress.FontesTotal);
    expect(follower.calls.total()).toBeGreaterThan(0); // the follower's instance ran what was still pending
  });
});
