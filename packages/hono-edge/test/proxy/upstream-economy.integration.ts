/**
 * voar-server in front of a paid upstream, as an agency runs it, in real time: the fake upstream's airlines
 * answer in 0.8 s (TAP), 1.2 s (LATAM), 1.6 s (Copa), 4 s (Azul), 12 s (American), 25 s (GOL) and 45 s (Iberia),
 * its all-airlines search progressive, and the service runs with the engine's default timeouts (20 s of silence
 * per source, 60 s deadline). Every airline is in every search, and the upstream is asked no more than by the
 * plain client the service replaces: log in, `Companhia: -1`, poll the `LeaseId` every 10 s. And logins: a
 * `/Token` that fails, then refuses the credentials, is asked a bounded number of times, and `/ready` says why.
 */
import { createFakeUpstream, driveSearch, liveBackend, serveOnNode, type FakeUpstream, type FaultRule } from "@voar/testing";
import { createSimulator } from "@voar/testing/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { startVoarServer, type VoarServer } from "../redis/support/voar-server.js";

const KEY = "agencia-api-key-0123456789";
const ACCOUNT = { username: "agencia", password: "senha-do-fornecedor" };
const LATENCY_MS = { tap: 800, latam: 1_200, copa: 1_600, azul: 4_000, american: 12_000, gol: 25_000, iberia: 45_000 };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

/** A fake upstream over loopback: its searches take the airlines' time (no timeout of its own before two minutes). */
const upstreamOnNode = async (loginFaults: readonly FaultRule[] = []) => {
  const upstream = createFakeUpstream({
    backend: liveBackend({ sources: createSimulator({ latencyMs: LATENCY_MS, batches: 1 }).sources, policy: { timeoutMs: 120_000 }, deadlineMs: 120_000 }),
    auth: { accounts: [ACCOUNT] },
    loginFaults,
  });
  const served = await serveOnNode(upstream.app.fetch);
  cleanup.push(async () => {
    await served.close();
    upstream.close();
  });
  return { upstream, baseUrl: `${served.origin}/api` };
};

const voarOver = async (baseUrl: string, env: Readonly<Record<string, string>> = {}) => {
  const server = await startVoarServer({
    VOAR_API_KEYS: `agencia:${KEY}`,
    VOAR_UPSTREAM_URL: baseUrl,
    VOAR_UPSTREAM_USERNAME: ACCOUNT.username,
    VOAR_UPSTREAM_PASSWORD: ACCOUNT.password,
    VOAR_UPSTREAM_AIRLINES: "11,1,13,3,22,2,26",
    VOAR_UPSTREAM_OTAS: "false",
    ...env,
  });
  cleanup.push(() => server.stop());
  return server;
};

const consultar = async (server: VoarServer, body: unknown) => {
  const res = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Envelope };
};

/** The query, then polls by Token every `pollMs` until Completed: the last answer. */
const searchToEnd = async (server: VoarServer, body: Record<string, unknown>, pollMs = 1_000) => {
  let answer = await consultar(server, body);
  for (let i = 0; i < 90_000 / pollMs && answer.body["Completed"] !== true; i++) {
    await sleep(pollMs);
    answer = await consultar(server, { Token: answer.body["Token"] });
  }
  return answer;
};

const requestsOf = (u: FakeUpstream) => u.stats.searches + u.stats.logins;
const query = (days: number) => ({ Origem: "GRU", Destino: "MIA", Ida: daysAhead(days), Adultos: 1, Companhia: -1 });
const fontes = (body: Envelope) => (body["Progresso"] as { Fontes: { Nome: string; Estado: string }[] }).Fontes;

describe("the paid upstream asked no more than by the plain client it replaces", () => {
  it("two searches in a row: every airline concluída in both, the 45 s one included; cold at most 2x the plain client's requests, learned at most 1.5x", { timeout: 240_000 }, async () => {
    // The plain client and the service each on an upstream of their own (the same airlines), side by side.
    const [plain, ours] = await Promise.all([upstreamOnNode(), upstreamOnNode()]);
    const server = await voarOver(ours.baseUrl);
    const plainBody = { ...query(40), Criancas: 0, Bebes: 0 };
    const [plainResult, cold] = await Promise.all([
      driveSearch({ fetch: globalThis.fetch, baseUrl: plain.baseUrl, ...ACCOUNT, request: plainBody, pollMs: 10_000, maxFailures: 3, maxRequests: 30 }),
      searchToEnd(server, query(41)),
    ]);
    expect(plainResult).toBe("completed");
    const plainRequests = requestsOf(plain.upstream);
    const coldRequests = requestsOf(ours.upstream);
    const learned = await searchToEnd(server, query(42));
    const learnedRequests = requestsOf(ours.upstream) - coldRequests;
    for (const answer of [cold, learned]) {
      expect(answer.body["Completed"]).toBe(true);
      expect(fontes(answer.body).map((f) => [f.Nome, f.Estado])).toEqual(["TAP", "LATAM", "Copa", "Azul", "American Airlines", "GOL", "Iberia"].map((n) => [n, "concluida"]));
    }
    console.log(`upstream requests: plain client ${plainRequests}, Voar cold ${coldRequests}, learned ${learnedRequests}`);
    expect(coldRequests).toBeLessThanOrEqual(2 * plainRequests);
    expect(learnedRequests).toBeLessThanOrEqual(1.5 * plainRequests);
    // No airline ever timed out: the log has no source failure at all.
    expect(server.logs().filter((r) => r.msg === "search.source_failed" || r.msg === "search.source_retry")).toEqual([]);
  });

  it("/Token answering 500, then 400 invalid_grant: logins bounded, /ready says why, the log says configuração once", { timeout: 60_000 }, async () => {
    // Logins 1 to 3 fail with 500; from the 4th on, the upstream refuses the credentials.
    const { upstream, baseUrl } = await upstreamOnNode([
      { at: 1, through: 3, fault: { kind: "status", status: 500 } },
      { at: 4, through: "end", fault: { kind: "invalid-grant" } },
    ]);
    const server = await voarOver(baseUrl, { VOAR_UPSTREAM_BREAKER_COOLDOWN_MS: "8000" });
    const ready = async () => {
      const res = await fetch(`${server.baseUrl}/ready`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    for (let n = 0; n < 10; n++) {
      const answer = await searchToEnd(server, query(50 + n), 100);
      expect(answer.status).toBe(502);
      expect(answer.body).toMatchObject({ Success: false, Erro: { Codigo: "FALHA_FORNECEDOR", Retentavel: true } });
    }
    // The start's login and the first search's: 3 failures open the login's breaker; the 9 searches after it send none.
    expect(upstream.stats.logins).toBeLessThanOrEqual(5);
    expect(upstream.stats.logins).toBe(3);
    expect(upstream.stats.searches).toBe(0);
    expect(await ready()).toMatchObject({ status: 200, body: { status: "ready", upstream: { login: "failing" } } });

    // After the cool-down the upstream answers the login again, refusing the credentials: logins stop.
    await sleep(8_500);
    for (let n = 0; n < 10; n++) {
      const answer = await searchToEnd(server, query(60 + n), 100);
      expect(answer.body["Success"]).toBe(false);
    }
    const logins = upstream.stats.logins;
    expect(logins).toBe(4); // one probe, refused: no more
    const refused = await ready();
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ status: "misconfigured", upstream: { login: "refused", detail: expect.stringMatching(/invalid_grant/), fix: expect.stringMatching(/configuração/) } });
    await searchToEnd(server, query(70), 100);
    expect(upstream.stats.logins).toBe(logins);
    const said = server.logs().filter((r) => r.msg === "upstream.credentials_refused");
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: "error", fix: expect.stringMatching(/configuração/) });
    expect(JSON.stringify(server.logs())).not.toContain(ACCOUNT.password);
  });
});
