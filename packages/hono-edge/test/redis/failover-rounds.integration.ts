import { createSimulator } from "@voar/testing/simulator";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import { priceCalendar } from "../../src/calendar/price-calendar.js";
import { redisKeys, type RedisTarget } from "../../src/redis/index.js";
import { hostPort } from "../../src/redis/topology/redis-target.js";
import { daysAhead } from "../contract/contract-target.js";
import { API_KEY, memoryLogger, testConfig } from "../support/app.js";
import { parseSse } from "../support/sse.js";
import { openSearches, pollUntilComplete, violations } from "./support/failover-scenario.js";
import { LISBON, redisInstance } from "./support/instance-setup.js";
import { testPrefix } from "./support/redis-harness.js";
import { startCluster, startSentinels } from "./support/redis-topology.js";

/**
 * Ten failovers in a row, on a Sentinel setup (1 primary, 1 replica, 3 sentinels) and on a Redis Cluster (3 primaries,
 * 3 replicas), both at once, under two instances each: in every round, short searches polled on both instances
 * (no stickiness), SSE followers of two of them and a ±1 calendar followed by SSE, then the primary (on the cluster,
 * the one that holds the first search) killed with SIGKILL mid-search; the killed node comes back as a replica for
 * the next round. Every round: no 503 later than 5 s after the promotion, every search complete on both instances
 * with every offer it showed, every stream and the calendar's stream complete with the reference result.
 */

const ROUNDS = 10;
/** After the promotion, how long an instance may still answer 503 (the bound). */
const SERVES_AGAIN_MS = 5_000;
const latency = (id: string) => (id === "latam" ? 200 : id === "azul" ? 400 : id === "gol" ? 1_200 : 2_200);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `test` with a cleanup list of its own (the two tests run at once: neither may stop the other's topology). */
const withCleanup = async (test: (cleanup: (() => Promise<void>)[]) => Promise<void>) => {
  const cleanup: (() => Promise<void>)[] = [];
  try {
    await test(cleanup);
  } finally {
    for (const f of cleanup.reverse()) await f().catch(() => undefined);
  }
};

type App = { request: (path: string, init?: RequestInit) => Response | Promise<Response> };

interface Followed {
  /** The last whole answer's JSON (the completed one when `completed`). */
  readonly last: Record<string, unknown> | undefined;
  readonly completed: boolean;
  /** How many times the client connected again (an INDISPONIVEL event, a cut stream). */
  readonly reconnections: number;
}

/** A stream's text until it ends, or until `deadline` (then cut: a stream that went silent is what this test looks for). */
const textUntil = async (res: Response, deadline: number): Promise<string> => {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const step = await Promise.race([reader.read(), sleep(Math.max(0, deadline - Date.now())).then(() => "late" as const)]);
    if (step === "late") {
      await reader.cancel();
      return text;
    }
    if (step.done) return text;
    text += decoder.decode(step.value, { stream: true });
  }
};

/**
 * An SSE client as EventSource behaves: follows `path` on alternating instances, connecting again with
 * `Last-Event-ID` after a stream ends without the completed answer (its INDISPONIVEL event during the failover),
 * until the completed answer or `maxMs`.
 */
const follow = async (apps: readonly App[], path: string, body: unknown, first: number, maxMs = 40_000): Promise<Followed> => {
  const deadline = Date.now() + maxMs;
  let lastId: string | undefined;
  let last: Record<string, unknown> | undefined;
  let reconnections = -1;
  for (let turn = first; Date.now() < deadline; turn++) {
    reconnections++;
    const headers: Record<string, string> = { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json", ...(lastId ? { "Last-Event-ID": lastId } : {}) };
    const res = await apps[turn % 2]!.request(path, { method: "POST", headers, body: JSON.stringify(body) });
    const events = res.status === 200 ? parseSse(await textUntil(res, deadline)) : [];
    for (const e of events) {
      if (e.data === undefined || e.event !== undefined) continue; // changes (`event: dias`) come between whole answers
      const data = JSON.parse(e.data) as Record<string, unknown>;
      if (e.id === undefined) continue; // an INDISPONIVEL event: connect again
      lastId = e.id;
      last = data;
    }
    if (last?.["Completed"] === true) return { last, completed: true, reconnections };
    await sleep(500);
  }
  return { last, completed: false, reconnections };
};

const ratesOf = (answer: Record<string, unknown> | undefined) =>
  new Set(((answer?.["Data"] as { flights: { segments: { rateToken: string }[] }[] }[] | undefined)?.[0]?.flights ?? []).flatMap((f) => f.segments.map((s) => s.rateToken)));
const daysOf = (calendar: Record<string, unknown> | undefined) => (calendar?.["Data"] as { Data: string; MenorValor: number | null }[] | undefined)?.map((d) => [d.Data, d.MenorValor]);

/** The calendar a store without failover computes for the same query (same simulator): the reference. */
const referenceCalendar = async (query: unknown) => {
  const config = testConfig({ search: { leaseMs: 1_000 } });
  const app = createApp({ config, sources: createSimulator({ latencyMs: () => 1, batches: 3 }).sources, logger: memoryLogger().logger, priceCalendar: priceCalendar() });
  return (await follow([app, app], "/api/ConsultaAereo/Calendario/Stream", query, 0)).last;
};

interface Topology {
  readonly target: RedisTarget;
  /** Kills the primary to kill this round (`tokens`: the round's searches); resolves when the promotion is seen, with the killed node's port. */
  kill(tokens: readonly string[], prefix: string): Promise<number>;
  /** Brings the killed node back (a replica for the next round). */
  restart(port: number): Promise<void>;
}

/** Ten rounds on a topology; a line per round for the report, and what broke. */
const rounds = async (name: string, topology: Topology, cleanup: (() => Promise<void>)[]): Promise<string[]> => {
  const prefix = testPrefix();
  const logs = [memoryLogger(), memoryLogger()];
  const instances = ["a", "b"].map((id, i) => redisInstance({ redis: topology.target, prefix, instanceId: `${name}-${id}`, latency, logger: logs[i]!.logger }));
  for (const { store } of instances) cleanup.push(() => store.close());
  const apps = instances.map((i) => i.app);
  for (let i = 0; i < 50 && !(await Promise.all(instances.map((x) => x.store.ready?.()))).every(Boolean); i++) await sleep(100);
  const broken: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const firstDay = 30 + round * 12;
    const tokens = await openSearches(apps, 6, firstDay);
    const calendarQuery = { Origem: LISBON.Origem, Destino: LISBON.Destino, Ida: daysAhead(firstDay + 8), DiasFlexiveis: 1 };
    const reference = referenceCalendar(calendarQuery);
    const streams = tokens.slice(0, 2).map((token, i) => follow(apps, "/api/ConsultaAereo/Stream", { Token: token, QuantidadePorPagina: 100 }, i));
    const calendar = follow(apps, "/api/ConsultaAereo/Calendario/Stream", calendarQuery, 1);
    const failover = { from: 0, to: Infinity };
    let killed = 0;
    const runs = await pollUntilComplete(apps, tokens, async () => {
      await sleep(600); // the early sources in, the others running
      failover.from = Date.now();
      killed = await topology.kill(tokens, prefix);
      failover.to = Date.now() + SERVES_AGAIN_MS;
    }, 40_000);
    const followed = await Promise.all(streams);
    const cal = await calendar;
    const found = violations(runs, failover);
    for (const [i, s] of followed.entries()) {
      const polled = [...runs[i]!.seen].reverse().find((x) => x.status === 200 && x.completed);
      if (!s.completed) found.push(`stream ${i}: not completed (last version ${String(s.last?.["Progresso"] && (s.last["Progresso"] as { Versao?: number }).Versao)})`);
      else if (!polled || ratesOf(s.last).size !== polled.rates.size || [...polled.rates].some((r) => !ratesOf(s.last).has(r))) found.push(`stream ${i}: its completed answer differs from the polled one`);
    }
    if (!cal.completed) found.push(`calendar: not completed (${JSON.stringify(daysOf(cal.last))})`);
    else if (JSON.stringify(daysOf(cal.last)) !== JSON.stringify(daysOf(await reference))) found.push(`calendar: ${JSON.stringify(daysOf(cal.last))} against the reference ${JSON.stringify(daysOf(await reference))}`);
    const unavailable = runs.flatMap((r) => r.seen).filter((s) => s.status === 503);
    console.log(
      `${name} round ${round + 1}: promoted ${failover.to - SERVES_AGAIN_MS - failover.from} ms after the kill; 503s ${unavailable.length}, the last ` +
        `${Math.max(0, ...unavailable.map((s) => s.at - failover.from))} ms after the kill; stream reconnections ${followed.map((f) => f.reconnections).join("/")}, ` +
        `calendar ${cal.reconnections}; ${found.length} violations`,
    );
    broken.push(...found.map((f) => `${name} round ${round + 1}: ${f}`));
    await topology.restart(killed);
  }
  const stalls = logs.flatMap((l) => l.records).filter((r) => r.msg === "stream.stalled").length;
  const restarted = logs.flatMap((l) => l.records).filter((r) => r.msg === "store.client_restarted").length;
  console.log(`${name}: ${ROUNDS} failovers; streams that fell back to reading the store ${stalls}; clients restarted after giving up ${restarted}`);
  return broken;
};

describe("ten failovers in a row, Sentinel and Cluster at once", () => {
  it.concurrent(
    "Sentinel: every round, both instances serve again within 5 s of the promotion, every search, stream and calendar completes with the reference result, no offer lost",
    () =>
      withCleanup(async (cleanup) => {
      const sentinels = await startSentinels({ downAfterMs: 600 });
      cleanup.push(() => sentinels.stop());
      const broken = await rounds("sentinel", {
        target: { kind: "sentinel", sentinels: sentinels.sentinels.map(hostPort), name: sentinels.name },
        async kill() {
          const primary = sentinels.primaryPort();
          await sentinels.killNode(primary);
          await sentinels.waitPromoted(primary);
          return primary;
        },
        restart: (port) => sentinels.restartNode(port),
      }, cleanup);
      expect(broken).toEqual([]);
    }),
    240_000,
  );

  it.concurrent(
    "Cluster: every round, both instances serve again within 5 s of the promotion, every search, stream and calendar completes with the reference result, no offer lost",
    () =>
      withCleanup(async (cleanup) => {
      const cluster = await startCluster({ nodeTimeoutMs: 1_000 });
      cleanup.push(() => cluster.stop());
      const broken = await rounds("cluster", {
        target: { kind: "cluster", nodes: cluster.nodes.map(hostPort) },
        async kill(tokens, prefix) {
          const victim = cluster.primaryOf(redisKeys(prefix).search(tokens[0]!));
          await cluster.killNode(victim);
          await cluster.waitHealthy();
          return victim;
        },
        async restart(port) {
          await cluster.restartNode(port);
          await cluster.waitHealthy();
        },
      }, cleanup);
      expect(broken).toEqual([]);
    }),
    240_000,
  );
});
