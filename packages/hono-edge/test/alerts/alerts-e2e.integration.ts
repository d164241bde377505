/**
 * Price watches end to end: two `voar-server` processes on one Redis in front of the fake upstream (live over the
 * simulator, short latencies), on scaled time (a check every ~1.5 s stands for the hourly schedule), with a webhook
 * receiver on loopback (the operator's allowance on). Shown here, concurrently:
 * - a watch fires once when the cash price drops to its ceiling, not again while it stays, and again at a new low;
 * - two tenants' watches of one route and day cost one check per slot (as many upstream searches as a day one
 *   tenant watches);
 * - a receiver that fails for a while gets the delivery later, with a valid Standard Webhooks signature and the
 *   same webhook-id on every try; a tampered body or another secret is detected;
 * - an instance killed (SIGKILL) while it holds checks loses none and duplicates none: every day's slots are
 *   1, 2, 3... each completed once, the dead instance's slot by the survivor after its lease;
 * - a third deployment, without the allowance, refuses loopback, link-local and private webhook URLs.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addDays, queryKey, todayInSaoPaulo, type Offer, type SearchQuery, type SearchSource } from "@voar/core";
import { createFakeUpstream, createSimulator, liveBackend, serveOnNode, type ConsultarBackend, type FakeUpstream, type ServedOnNode } from "@voar/testing";
import type { Redis } from "ioredis";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis, deleteKeys, REDIS_URL, testPrefix } from "../redis/support/redis-harness.js";
import { startVoarServer, type VoarServer } from "../redis/support/voar-server.js";

const KEYS = { acme: "acme-alerts-key-0123456789", beta: "beta-alerts-key-0123456789" };
const ACCOUNT = { username: "agencia", password: "senha-do-fornecedor" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const today = todayInSaoPaulo(new Date());

/**
 * The price lever: per route, a level that hides the cheapest cash offers of every day (level 0 the cheaper half,
 * level 1 the cheapest quarter, level 2 none), from the simulator's own view of the same day. The cheapest price a
 * search finds drops as the level goes up.
 */
const simulator = createSimulator({ latencyMs: { latam: 150, gol: 300, azul: 450 }, batches: 2 });
const levels = new Map<string, number>();
const thresholds = new Map<string, number[]>();
const thresholdOf = (q: SearchQuery): number => {
  const level = levels.get(`${q.origin}-${q.destination}`) ?? 2;
  const key = queryKey({ ...q, mode: { kind: "all-airlines" } });
  let t = thresholds.get(key);
  if (!t) {
    const totals = simulator
      .offers({ ...q, mode: { kind: "all-airlines" } })
      .filter((o) => o.miles === undefined && [1, 2, 3].includes(o.airlineId))
      .map((o) => o.total.amount)
      .sort((a, b) => a - b);
    t = [totals[Math.floor(totals.length / 2)] ?? 0, totals[Math.floor(totals.length / 4)] ?? 0, 0];
    thresholds.set(key, t);
  }
  return t[level]!;
};
const levered = (sources: readonly SearchSource[]): SearchSource[] =>
  sources.map((s) => ({
    ...s,
    search: async function* (q: SearchQuery, signal: AbortSignal) {
      const floor = thresholdOf(q);
      for await (const batch of s.search(q, signal)) yield batch.filter((o: Offer) => o.miles !== undefined || o.total.amount >= floor);
    },
  }));

/** Upstream search starts (bodies with `Ida`) per departure day. */
const starts = new Map<string, number>();
const counting = (inner: ConsultarBackend): ConsultarBackend => ({
  answer(call) {
    const ida = (call.body as { Ida?: unknown } | null)?.Ida;
    if (typeof ida === "string") starts.set(ida.slice(0, 10), (starts.get(ida.slice(0, 10)) ?? 0) + 1);
    return inner.answer(call);
  },
  close: () => inner.close(),
});

/** The webhook receiver: answers 503 to its first `failFirst` requests, then 204; keeps what it got. */
const received: { readonly headers: IncomingHttpHeaders; readonly body: string; readonly status: number }[] = [];
const failFirst = 3;
let receiver: Server;
let receiverUrl: string;

let upstream: FakeUpstream;
let served: ServedOnNode;
let a: VoarServer;
let b: VoarServer;
let c: VoarServer;
let redis: Redis;
const prefix = testPrefix();
const strictPrefix = testPrefix();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const status = received.length < failFirst ? 503 : 204;
      received.push({ headers: req.headers, body, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/voar`;
  upstream = createFakeUpstream({ backend: counting(liveBackend({ sources: levered(simulator.sources), ttlMs: 200 })), auth: { accounts: [ACCOUNT] } });
  served = await serveOnNode(upstream.app.fetch);
  const env = {
    VOAR_API_KEYS: `acme:${KEYS.acme},beta:${KEYS.beta}`,
    VOAR_STORE_REDIS_URL: REDIS_URL,
    VOAR_STORE_REDIS_KEY_PREFIX: prefix,
    VOAR_UPSTREAM_URL: `${served.origin}/api`,
    VOAR_UPSTREAM_USERNAME: ACCOUNT.username,
    VOAR_UPSTREAM_PASSWORD: ACCOUNT.password,
    VOAR_UPSTREAM_AIRLINES: "1,2,3",
    VOAR_UPSTREAM_OTAS: "false",
    // The test reads its watches every 100 ms: the tenants' request budget out of its way.
    VOAR_RATE_LIMIT_CAPACITY: "100000",
    VOAR_RATE_LIMIT_REFILL_PER_SECOND: "100000",
    // Scaled time: the cache keeps an answer 1 s and a check's search is not joined again after 0.5 s; every day is
    // checked every ~1.5 s (the hourly schedule), leases last 2 s, failed deliveries are retried after 0.2-0.4 s.
    VOAR_UPSTREAM_CACHE_FRESH_MS: "1000",
    VOAR_UPSTREAM_CACHE_STALE_MS: "0",
    VOAR_SEARCH_TTL_MS: "500",
    VOAR_ALERTS_BASE_INTERVAL_MS: "1500",
    VOAR_ALERTS_MIN_INTERVAL_MS: "1500",
    VOAR_ALERTS_MAX_INTERVAL_MS: "1500",
    VOAR_ALERTS_TICK_MS: "100",
    VOAR_ALERTS_LEASE_MS: "2000",
    VOAR_ALERTS_WEBHOOK_TIMEOUT_MS: "1000",
    VOAR_ALERTS_WEBHOOK_FIRST_RETRY_MS: "200",
    VOAR_ALERTS_WEBHOOK_MAX_RETRY_MS: "400",
    VOAR_ALERTS_UPSTREAM_REQUESTS_PER_HOUR: "1000000",
  };
  [a, b, c, redis] = await Promise.all([
    startVoarServer({ ...env, VOAR_ALERTS_WEBHOOK_ALLOW_PRIVATE: "true" }),
    startVoarServer({ ...env, VOAR_ALERTS_WEBHOOK_ALLOW_PRIVATE: "true" }),
    // Another deployment (its own keys), without the operator's allowance.
    startVoarServer({ ...env, VOAR_STORE_REDIS_KEY_PREFIX: strictPrefix }),
    connectRedis(),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
  await served?.close();
  upstream?.close();
  receiver?.close();
  if (redis) {
    await deleteKeys(redis, prefix);
    await deleteKeys(redis, strictPrefix);
    await redis.quit();
  }
});

/* eslint-disable @typescript-eslint/no-explicit-any -- the answers' members are read as the assertions expect them */
const api = async (server: VoarServer, key: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const res = await fetch(`${server.baseUrl}/api/Alertas${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
};
const alertOf = async (server: VoarServer, key: string, id: string) => {
  const { status, body } = await api(server, key, `/${id}`);
  if (status !== 200) throw new Error(`GET /Alertas/${id}: ${status} ${JSON.stringify(body)}`);
  return body.Data[0];
};
/** Waits until `check` holds (polled every 100 ms), at most `ms`. */
const until = async <T>(what: string, ms: number, read: () => Promise<T>, check: (v: T) => boolean): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (check(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)} after ${ms} ms`);
    await sleep(100);
  }
};
/** Every check of a day as Redis records them: [slot, owner]. */
const historyOf = async (day: string, route: string): Promise<[number, string][]> => {
  const [o, d] = route.split("-");
  const keys = await redis.keys(`${prefix}*alerts:{alerts}:h:${o}|${d}|${day}|*`);
  const lines = keys.length === 0 ? [] : await redis.lrange(keys[0]!, 0, -1);
  return lines.map((l) => {
    const [slot, owner] = l.split(":");
    return [Number(slot), owner!];
  });
};
const instanceIdOf = (s: VoarServer) => s.logs().find((r) => r.msg === "listening")!["instanceId"] as string;

describe("price watches on two voar-server instances and Redis, in front of the fake upstream", () => {
  it("fire at the ceiling and at new lows only, share a day's check across tenants, deliver late but signed, survive a killed instance, refuse SSRF", async () => {
    const started = Date.now();
    const dropDay = addDays(today, 40);
    const loneDay = addDays(today, 41);
    const killDays = [50, 51, 52, 53, 54, 55].map((n) => addDays(today, n));
    levels.set("GRU-SSA", 0);
    levels.set("CNF-REC", 2);

    // SSRF: the deployment without the allowance refuses loopback, link-local, private and localhost webhooks.
    for (const url of [receiverUrl, "http://169.254.169.254/latest/meta-data", "http://10.1.2.3/hook", "http://[::1]:8080/x", "http://[::ffff:127.0.0.1]/x", "http://localhost:9/x"]) {
      const refused = await api(c, KEYS.acme, "", { Origem: "GRU", Destino: "SSA", Ida: dropDay, Webhook: url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.Erro).toMatchObject({ Codigo: "REQUISICAO_INVALIDA", Campos: [{ Campo: "Webhook" }] });
    }

    // The baseline: acme watches the day with any new low; beta watches the same day; acme also watches a lone day.
    const base = await api(a, KEYS.acme, "", { Origem: "GRU", Destino: "SSA", Ida: dropDay, Tipo: "dinheiro" });
    expect(base.status).toBe(201);
    const shared = await api(b, KEYS.beta, "", { Origem: "GRU", Destino: "SSA", Ida: dropDay, Tipo: "dinheiro" });
    const lone = await api(a, KEYS.acme, "", { Origem: "GRU", Destino: "SSA", Ida: loneDay, Tipo: "dinheiro" });
    // Six days of another route, for the instance killed mid-schedule.
    const killWatch = await api(b, KEYS.acme, "", { Origem: "CNF", Destino: "REC", Ida: addDays(today, 52), DiasFlexiveis: 3, Tipo: "dinheiro" });
    expect(killWatch.body.Data[0].Dias.filter((d: string) => killDays.includes(d))).toHaveLength(6);

    const first = await until("the first check", 20_000, () => alertOf(a, KEYS.acme, base.body.Data[0].Id), (w) => w.MenorValor !== null);
    const m0 = first.MenorValor.Valor as number;
    const ceiling = Math.round(m0 * 100 - 1) / 100;

    // The watch with a ceiling just under the price now, and a webhook: it waits, then fires at the drop.
    const secret = (await api(a, KEYS.acme, "/Segredo")).body.Data[0].Segredo as string;
    const watch = await api(a, KEYS.acme, "", { Origem: "GRU", Destino: "SSA", Ida: dropDay, Tipo: "dinheiro", TetoValor: ceiling, Webhook: receiverUrl, Referencia: "viajante-42" });
    expect(watch.status).toBe(201);
    const id = watch.body.Data[0].Id as string;
    await until("a check of the watch above its ceiling", 20_000, () => alertOf(b, KEYS.acme, id), (w) => w.Verificacoes >= 1);
    expect((await alertOf(a, KEYS.acme, id)).Avisos).toBe(0);

    // The kill: b dies while it holds a check of the other route (or any check: the leases are what matter).
    const bId = instanceIdOf(b);
    const aId = instanceIdOf(a);
    await until("b holding a check", 20_000, async () => (await redis.keys(`${prefix}*alerts:{alerts}:u:CNF|REC|*`)).length, (n) => n === 7);
    const held = await until(
      "b holding a lease",
      20_000,
      async () => {
        for (const k of await redis.keys(`${prefix}*alerts:{alerts}:u:*`)) if ((await redis.hget(k, "owner")) === bId) return k;
        return undefined;
      },
      (k) => k !== undefined,
    );
    await b.kill();
    const killedAt = Date.now();

    // The drop: the ceiling's watch fires once (through a, the survivor), and not again while the price stays.
    levels.set("GRU-SSA", 1);
    const fired = await until("the alert at the ceiling", 30_000, () => alertOf(a, KEYS.acme, id), (w) => w.Avisos >= 1);
    expect(fired.UltimoAvisoValor).toBeLessThanOrEqual(ceiling);
    const checksAtFire = fired.Verificacoes as number;
    const held2 = await until("two more checks at the same price", 20_000, () => alertOf(a, KEYS.acme, id), (w) => w.Verificacoes >= checksAtFire + 2);
    expect(held2.Avisos).toBe(1);
    // A new low: it fires again.
    levels.set("GRU-SSA", 2);
    const again = await until("the alert at a new low", 30_000, () => alertOf(a, KEYS.acme, id), (w) => w.Avisos >= 2);
    expect(again.UltimoAvisoValor).toBeLessThan(fired.UltimoAvisoValor);
    expect(again.MenorValor.Valor).toBe(again.UltimoAvisoValor);

    // The receiver failed its first three requests: the first alert still got through, signed, with one webhook-id.
    const deliveries = await until("both deliveries delivered", 20_000, async () => (await api(a, KEYS.acme, `/${id}/Entregas`)).body.Data, (d: any[]) => d.length === 2 && d.every((x) => x.Estado === "entregue"));
    const late = deliveries.at(-1);
    expect(late.Tentativas.length).toBeGreaterThanOrEqual(failFirst + 1);
    expect(late.Tentativas.slice(0, failFirst).map((t: any) => t.Status)).toEqual([503, 503, 503]);
    const tries = received.filter((r) => r.headers["webhook-id"] === late.Id);
    expect(tries.length).toBe(late.Tentativas.length);
    const ok = tries.at(-1)!;
    const event = new Webhook(secret).verify(ok.body, ok.headers as Record<string, string>) as any;
    expect(event).toMatchObject({ type: "alerta.preco_baixou", data: { AlertaId: id, Referencia: "viajante-42", Origem: "GRU", Destino: "SSA", Dia: dropDay, Motivo: ["dinheiro"] } });
    expect(event.data.Valor.Atual).toBe(fired.UltimoAvisoValor);
    expect(event.data.Valor.AnteriorMinimo).toBe(m0);
    // A bad signature is detectable: a changed body, or the wrong secret.
    expect(() => new Webhook(secret).verify(ok.body.replace(`"Atual":${event.data.Valor.Atual}`, `"Atual":1`), ok.headers as Record<string, string>)).toThrow(WebhookVerificationError);
    expect(() => new Webhook("whsec_" + btoa("another secret, not the tenant's")).verify(ok.body, ok.headers as Record<string, string>)).toThrow(WebhookVerificationError);

    // Two tenants' watches of one day: one check per slot, as many upstream searches as a day one tenant watches.
    const sharedSlots = (await historyOf(dropDay, "GRU-SSA")).length;
    const loneSlots = (await historyOf(loneDay, "GRU-SSA")).length;
    const perCheck = { shared: (starts.get(dropDay) ?? 0) / sharedSlots, lone: (starts.get(loneDay) ?? 0) / loneSlots };
    expect(perCheck.shared).toBeGreaterThan(0);
    expect(perCheck.shared).toBeLessThanOrEqual(perCheck.lone * 1.5);
    const [mine, theirs] = await Promise.all([alertOf(a, KEYS.acme, base.body.Data[0].Id), alertOf(a, KEYS.beta, shared.body.Data[0].Id)]);
    expect(Math.abs(mine.Verificacoes - theirs.Verificacoes)).toBeLessThanOrEqual(1);
    expect((await alertOf(a, KEYS.acme, lone.body.Data[0].Id)).Verificacoes).toBeGreaterThan(0);

    // The killed instance: every day's slots are 1..n, each once; the slot it held went to a after its lease.
    await until("the survivor past the dead lease", 20_000, () => Promise.resolve(Date.now() - killedAt), (ms) => ms > 4_000);
    const heldKey = held!.slice(held!.indexOf(":u:") + 3);
    const [ho, hd, hday] = heldKey.split("|");
    // The survivor checks the day the dead instance held once its lease lapsed and the day is due again (on a busy
    // machine its other days may come first).
    await until("the survivor checking the dead instance's day", 30_000, () => historyOf(hday!, `${ho}-${hd}`), (h) => h.some(([, owner]) => owner === aId));
    for (const day of [...killDays, dropDay, loneDay, hday!]) {
      const h = await historyOf(day, day === hday ? `${ho}-${hd}` : killDays.includes(day) ? "CNF-REC" : "GRU-SSA");
      expect(h.map(([slot]) => slot), day).toEqual(h.map((_, i) => i + 1));
    }
    const heldHistory = await historyOf(hday!, `${ho}-${hd}`);
    const afterKill = heldHistory.filter(([, owner]) => owner === aId);
    expect(afterKill.length, JSON.stringify({ heldKey, heldHistory, aId, bId, a: a.logs().filter((r) => String(r.msg).startsWith("alert.")).slice(-20) })).toBeGreaterThan(0);
    expect(heldHistory.filter(([, owner]) => owner === bId).length + afterKill.length).toBe(heldHistory.length);
    const msgs: Record<string, number> = {};
    for (const r of a.logs()) if (String(r.msg).startsWith("alert.")) msgs[String(r.msg)] = (msgs[String(r.msg)] ?? 0) + 1;
    const slots = await Promise.all(killDays.map(async (d) => (await historyOf(d, "CNF-REC")).length));
    console.log(JSON.stringify({ msgs, slots, checked: a.logs().filter((r) => r.msg === "alert.checked").slice(-5) }));
    console.log(
      `alerts e2e: m0 ${m0}, ceiling ${ceiling}, fired at ${fired.UltimoAvisoValor} then ${again.UltimoAvisoValor}; delivery after ${late.Tentativas.length} tries; ` +
        `upstream searches per check: shared day ${perCheck.shared.toFixed(2)}, lone day ${perCheck.lone.toFixed(2)}; held slot ${heldHistory.length} checks (${afterKill.length} by the survivor); ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 150_000);
});
