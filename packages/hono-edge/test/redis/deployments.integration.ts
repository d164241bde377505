import { createFakeUpstream, liveBackend, serveOnNode } from "@voar/testing";
import { createSimulator } from "@voar/testing/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { SOURCE_FAILURE } from "@voar/core";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { connectRedis, deleteKeys, REDIS_URL, testPrefix } from "./support/redis-harness.js";
import { startVoarServer, type VoarServer } from "./support/voar-server.js";

/**
 * Two deployments on one Redis, with one key prefix set by the operator for both (as a shared `.env` would):
 * one on the embedded simulator, one in front of an upstream account whose every search fails. Same tenant
 * name, same API key. Neither ever answers with the other's searches or failures, by query or by Token.
 */

const KEY = "shared-api-key-0123456789";
const UPSTREAM_ACCOUNT = { username: "agencia-b", password: "senha-do-fornecedor-b" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

const consultar = async (server: VoarServer, body: unknown) => {
  const res = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Envelope };
};

/** Polls a search by Token until it completes (or fails as a whole). */
const settled = async (server: VoarServer, token: string) => {
  for (let i = 0; i < 100; i++) {
    const answer = await consultar(server, { Token: token });
    if (answer.body["Completed"] === true || answer.status >= 400) return answer;
    await sleep(100);
  }
  throw new Error(`search ${token} did not complete`);
};

const codigo = (body: Envelope) => (body["Erro"] as { Codigo?: string } | null)?.Codigo;
/** How many sources a search ran: the simulator's every airline, the upstream deployment's two. */
const sourceCount = (body: Envelope) => (body["Progresso"] as { FontesTotal: number }).FontesTotal;

describe("two deployments with different sources on one Redis", () => {
  it("neither answers with the other's searches or failures, by query or by Token; their keys live apart, no secret in them", async () => {
    const redis = await connectRedis();
    const prefix = testPrefix();
    cleanup.push(async () => {
      await deleteKeys(redis, prefix);
      await redis.quit();
    });
    // The upstream of deployment B: an agency login, every search answered 500.
    const upstream = createFakeUpstream({
      backend: liveBackend({ sources: createSimulator({ latencyMs: 50 }).sources }),
      auth: { accounts: [UPSTREAM_ACCOUNT] },
      faults: [{ at: 1, through: "end", fault: { kind: "status", status: 500 } }],
    });
    const served = await serveOnNode(upstream.app.fetch);
    cleanup.push(async () => {
      await served.close();
      upstream.close();
    });
    const common = { VOAR_API_KEYS: `acme:${KEY}`, VOAR_STORE_REDIS_URL: REDIS_URL, VOAR_STORE_REDIS_KEY_PREFIX: prefix, VOAR_SOURCE_MAX_ATTEMPTS: "1" };
    const [simulated, proxied] = await Promise.all([
      startVoarServer({ ...common, VOAR_SIMULATOR_LATENCY_MS: "200" }),
      startVoarServer({
        ...common,
        VOAR_UPSTREAM_URL: `${served.origin}/api`,
        VOAR_UPSTREAM_USERNAME: UPSTREAM_ACCOUNT.username,
        VOAR_UPSTREAM_PASSWORD: UPSTREAM_ACCOUNT.password,
        VOAR_UPSTREAM_AIRLINES: "1,2",
        VOAR_UPSTREAM_OTAS: "false",
      }),
    ]);
    cleanup.push(() => simulated.stop(), () => proxied.stop());

    // The upstream deployment asks first: its search fails as a whole (502). The simulator's same query is its own search, and finds flights.
    const first = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(30) };
    const failed = await settled(proxied, (await consultar(proxied, first)).body["Token"] as string);
    expect([failed.status, codigo(failed.body)]).toEqual([502, "FALHA_FORNECEDOR"]);
    const mine = await consultar(simulated, first);
    expect(mine.body["Token"]).not.toBe(failed.body["Token"]);
    const found = await settled(simulated, mine.body["Token"] as string);
    expect([found.status, found.body["Success"]]).toEqual([200, true]);
    expect(found.body["TotalItens"]).toBeGreaterThan(0);
    expect([sourceCount(failed.body), sourceCount(found.body) > 2]).toEqual([2, true]);

    // The other way round: the simulator asks first, the upstream deployment still asks its upstream and fails.
    const second = { Origem: "GIG", Destino: "BSB", Ida: daysAhead(31) };
    const simulatedToken = (await consultar(simulated, second)).body["Token"] as string;
    expect((await settled(simulated, simulatedToken)).body["Success"]).toBe(true);
    const searchesBefore = upstream.stats.searches;
    const theirs = await consultar(proxied, second);
    expect(theirs.body["Token"]).not.toBe(simulatedToken);
    const theirsDone = await settled(proxied, theirs.body["Token"] as string);
    expect([theirsDone.status, codigo(theirsDone.body), sourceCount(theirsDone.body)]).toEqual([502, "FALHA_FORNECEDOR", 2]);
    // Its own outcome, not the simulator's: its upstream search's breaker, opened by the first search's failures,
    // kept it from being asked again; the breaker sits in Redis under its own fingerprint.
    expect(upstream.stats.searches).toBe(searchesBefore);
    const fontes = theirsDone.body["Progresso"] as { Fontes: { Erro: string }[] };
    expect(fontes.Fontes.map((f) => f.Erro)).toEqual([SOURCE_FAILURE.SourceUnavailable.mensagem, SOURCE_FAILURE.SourceUnavailable.mensagem]);
    // The operator's log says so, once: its all-airlines upstream search's breaker (the default strategy).
    const opened = proxied.logs().filter((r) => r.msg === "upstream.breaker" && r["state"] === "open");
    expect(opened.map((r) => r["sourceId"])).toEqual(["upstream:all"]);

    // A Token of the other deployment is a search this one does not have.
    for (const [server, token] of [[proxied, simulatedToken], [simulated, failed.body["Token"] as string]] as const) {
      const poll = await consultar(server, { Token: token });
      expect([poll.status, codigo(poll.body)]).toEqual([404, "BUSCA_EXPIRADA"]);
    }

    // Every key sits under the operator's prefix, then one fingerprint per deployment; no password or username in any.
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      keys.push(...found);
      cursor = next;
    } while (cursor !== "0");
    const fingerprints = new Set(keys.map((k) => k.slice(prefix.length).split(":")[0]));
    expect(fingerprints.size).toBe(2);
    for (const fp of fingerprints) expect(fp).toMatch(/^[0-9a-f]{16}$/);
    const prefixes = [simulated, proxied].map((s) => s.logs().find((r) => r.msg === "listening")!["keyPrefix"]);
    expect(new Set(prefixes).size).toBe(2);
    expect(keys.filter((k) => k.includes(UPSTREAM_ACCOUNT.password) || k.includes(UPSTREAM_ACCOUNT.username))).toEqual([]);
    const proxiedPrefix = prefixes[1] as string;
    expect(keys.filter((k) => k.includes(":breaker:")).sort()).toEqual([`${proxiedPrefix}breaker:upstream:all`]);
  }, 90_000);
});
