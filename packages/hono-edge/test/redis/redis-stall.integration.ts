import { afterEach, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { parseSse } from "../support/sse.js";
import { freePort, ownRedis } from "./support/own-redis.js";
import { startVoarServer, type VoarServer } from "./support/voar-server.js";

/**
 * A Redis that freezes (`kill -STOP`: its connections stay open, it answers nothing) and one that is shut
 * down (`shutdown nosave`: connections refused), under `voar-server` itself as an operator runs it: Redis
 * store, rate limits and login limits on Redis, an agency login configured. Whatever Redis does, every route
 * answers within 1 s: 503 `INDISPONIVEL` (retryable, `Retry-After`) for what needs the store, a login by the
 * in-memory fallback of its limits; afterwards the service is back by itself. The outage is logged once
 * each way, and no answer of it is logged as an error.
 */

const KEY = "stall-test-api-key-0123456789";
const AGENCY = { username: "agencia1", password: "s3nha-da-agencia" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => undefined);
  cleanup = [];
});

/** One answer, timed to its last byte. */
interface Timed {
  readonly what: string;
  readonly status: number;
  readonly ms: number;
  readonly body: Envelope;
  readonly retryAfter: string | null;
}

const timed = async (what: string, server: VoarServer, path: string, init?: RequestInit): Promise<Timed> => {
  const t0 = performance.now();
  const res = await fetch(`${server.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const ms = performance.now() - t0;
  return { what, status: res.status, ms, body: (text.startsWith("{") ? JSON.parse(text) : { text }) as Envelope, retryAfter: res.headers.get("retry-after") };
};
const json = (body: unknown): RequestInit => ({ method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
const login = (): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ grant_type: "password", ...AGENCY }).toString(),
});

/** A poll, a new search, a new SSE stream and a login, at once, as four clients would send them. */
const round = (server: VoarServer, token: string, n: number) =>
  Promise.all([
    timed("poll", server, "/api/ConsultaAereo/Consultar", json({ Token: token })),
    timed("new search", server, "/api/ConsultaAereo/Consultar", json({ Origem: "CNF", Destino: "GRU", Ida: daysAhead(60 + n) })),
    timed("stream", server, "/api/ConsultaAereo/Stream", json({ Origem: "GRU", Destino: "REC", Ida: daysAhead(60 + n) })),
    timed("login", server, "/api/Token", login()),
    timed("ready", server, "/ready"),
  ]);

/** Rounds every 250 ms for `ms`. */
const roundsFor = async (server: VoarServer, token: string, ms: number): Promise<Timed[]> => {
  const answers: Timed[] = [];
  const end = performance.now() + ms;
  for (let n = 0; performance.now() < end; n++) {
    answers.push(...(await round(server, token, n)));
    await sleep(250);
  }
  return answers;
};

const readyBecomes = async (server: VoarServer, status: number) => {
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${server.baseUrl}/ready`)).status === status) return;
    await sleep(100);
  }
  throw new Error(`/ready never answered ${status}`);
};

/** What must hold of every answer while Redis cannot answer. */
const expectFastAndHonest = (answers: readonly Timed[]) => {
  const worst = Object.fromEntries(["poll", "new search", "stream", "login", "ready"].map((w) => [w, Math.round(Math.max(...answers.filter((a) => a.what === w).map((a) => a.ms)))]));
  console.log(`slowest answer of each kind over ${answers.length} answers (ms): ${JSON.stringify(worst)}`);
  const slow = answers.filter((a) => a.ms >= 1_000).map((a) => `${a.what} ${a.status} ${a.ms.toFixed(0)} ms`);
  expect(slow).toEqual([]);
  for (const a of answers) {
    if (a.what === "login") {
      // The login limits fall back to in-memory buckets: the agency still logs in.
      expect([a.what, a.status, typeof a.body["access_token"]]).toEqual(["login", 200, "string"]);
    } else if (a.what === "ready") {
      expect([a.status, a.body["status"], a.retryAfter]).toEqual([503, "unavailable", "1"]);
    } else {
      expect([a.what, a.status, a.retryAfter]).toEqual([a.what, 503, "1"]);
      expect(a.body["Erro"]).toEqual({ Codigo: "INDISPONIVEL", Retentavel: true });
    }
  }
};

describe("voar-server on a Redis that stalls or dies", () => {
  it("SIGSTOP for 5 s, then shutdown nosave: a poll, a new search, an SSE stream and a login each answer within 1 s; the service comes back by itself", async () => {
    const redis = ownRedis(await freePort());
    await redis.start();
    cleanup.push(() => redis.stop());
    const server = await startVoarServer({
      VOAR_API_KEYS: `acme:${KEY}`,
      VOAR_AGENCIES: `${AGENCY.username}:${AGENCY.password}`,
      VOAR_TOKEN_SECRET: "a-token-signing-secret-of-32-chars-at-least",
      VOAR_STORE_REDIS_URL: redis.url,
      VOAR_SIMULATOR_LATENCY_MS: "1500",
      VOAR_SSE_KEEPALIVE_MS: "1000",
      // One client logs in again and again here: budgets that let every attempt through (they still count).
      VOAR_LOGIN_LIMIT_PER_CLIENT_CAPACITY: "10000",
      VOAR_LOGIN_LIMIT_PER_ACCOUNT_CAPACITY: "10000",
      VOAR_LOGIN_LIMIT_PER_ACCOUNT_SUSTAINED_CAPACITY: "10000",
    });
    cleanup.push(() => server.stop());
    await readyBecomes(server, 200);

    // A running search and a client streaming it while Redis freezes.
    const started = await timed("search", server, "/api/ConsultaAereo/Consultar", json({ Origem: "CNF", Destino: "SDU", Ida: daysAhead(30) }));
    expect(started.status).toBe(200);
    const token = started.body["Token"] as string;
    const stream = await fetch(`${server.baseUrl}/api/ConsultaAereo/Stream`, json({ Token: token }));
    expect(stream.status).toBe(200);
    const streamText = stream.text();
    expect((await timed("login", server, "/api/Token", login())).status).toBe(200);

    redis.pause();
    const stalled = performance.now();
    const duringStall = await roundsFor(server, token, 5_000);
    redis.resume();
    expectFastAndHonest(duringStall);
    // The open stream ended with a retryable event without an id (resumable by Last-Event-ID), soon after the freeze.
    const events = parseSse(await streamText).filter((e) => e.data !== undefined);
    const streamEnded = performance.now() - stalled;
    expect(events.at(-1)!.id).toBeUndefined();
    expect(JSON.parse(events.at(-1)!.data!)).toMatchObject({ Erro: { Codigo: "INDISPONIVEL", Retentavel: true } });
    expect(streamEnded).toBeLessThan(5_000 + 2_000);

    await readyBecomes(server, 200);
    const afterStall = await round(server, token, 100);
    expect(afterStall.map((a) => [a.what, a.status])).toEqual([["poll", 200], ["new search", 200], ["stream", 200], ["login", 200], ["ready", 200]]);

    await redis.shutdown();
    const duringOutage = await roundsFor(server, token, 3_000);
    expectFastAndHonest(duringOutage);
    await redis.start(); // empty
    await readyBecomes(server, 200);
    // Back by itself: a new search runs to completion.
    const fresh = await timed("search", server, "/api/ConsultaAereo/Consultar", json({ Origem: "GRU", Destino: "SSA", Ida: daysAhead(45) }));
    let final: Timed | undefined;
    for (let i = 0; i < 100 && final?.body["Completed"] !== true; i++) {
      await sleep(100);
      final = await timed("poll", server, "/api/ConsultaAereo/Consultar", json({ Token: fresh.body["Token"] }));
    }
    expect(final).toMatchObject({ status: 200, body: { Completed: true, Success: true } });

    // Logged once each way per outage; the refusals (503s, /ready probes included) are no errors.
    const logs = server.logs();
    expect(logs.filter((r) => r.level === "error")).toEqual([]);
    // The second outage came within 10 s of the first's end: held back as a flap, told when that window ends.
    expect(logs.filter((r) => r.msg === "store.down").length).toBeGreaterThanOrEqual(1);
    expect(logs.filter((r) => r.msg === "store.down" || r.msg === "store.flapped").length).toBeLessThanOrEqual(2);
    expect(logs.filter((r) => r.msg === "store.up").length).toBeLessThanOrEqual(2);
    expect(logs.filter((r) => r.msg === "rate_limit.fallback").length).toBeLessThanOrEqual(2);
    expect(logs.filter((r) => r.level === "warn").map((r) => r.msg).length, JSON.stringify(logs.filter((r) => r.level === "warn").map((r) => r.msg))).toBeLessThanOrEqual(4);
  }, 90_000);
});
