/**
 * Time to first result and time to complete for one query, through the service over a real loopback socket:
 *  - our SSE stream;
 *  - our polling endpoint, polled again after each answer's `Progresso.ProximaConsultaMs` hint;
 *  - a client polling at a fixed interval, as public clients of the real service do (every 10 s).
 * The anchor of "first result" is the moment the fastest source yielded its first batch inside the engine
 * (a timing wrapper around the simulator's sources, same process): SSE should be within 50 ms of it.
 */
import { serve, type ServerType } from "@hono/node-server";
import { createParser } from "eventsource-parser";
import type { AddressInfo } from "node:net";
import { resolveRelativeDate, type SearchSource } from "../packages/core/src/index.js";
import { createApp, defineConfig, silentLogger } from "../packages/hono-edge/src/index.js";
import { createSimulator } from "../packages/testing/src/simulator/index.js";
import { isQuick, summarize, type Figure } from "./lib/measure.js";

const KEY = "bench-key-0123456789abcdef";
const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}` };

/** Wraps sources so the bench knows when the first batch of any source left a source. */
const timed = (sources: readonly SearchSource[], mark: (t: number) => void): SearchSource[] =>
  sources.map((s) => ({
    ...s,
    search: async function* (query, signal) {
      for await (const batch of s.search(query, signal)) {
        if (batch.length > 0) mark(performance.now());
        yield batch;
      }
    },
  }));

interface Run {
  readonly firstSource: number;
  readonly first: number;
  readonly complete: number;
}

const body = (i: number) => ({ Origem: "CNF", Destino: ["SDU", "GRU", "POA", "REC", "SSA", "BSB", "FOR", "CWB"][i % 8], Ida: resolveRelativeDate("+30"), Adultos: 1 + (i % 3) });

const startServer = async (latencyScale: number) => {
  let firstSource = Number.POSITIVE_INFINITY;
  const simulator = createSimulator({ latencyMs: (id: string) => Math.round((200 + ((id.length * 997) % 2200)) * latencyScale) });
  const sources = timed(simulator.sources, (t) => (firstSource = Math.min(firstSource, t)));
  const config = defineConfig({ apiKeys: [{ name: "bench", key: KEY }], limits: { rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 } }, search: { pollHintMs: 100 } });
  const app = createApp({ config, sources, logger: silentLogger });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/ConsultaAereo`,
    resetFirst: () => (firstSource = Number.POSITIVE_INFINITY),
    firstSource: () => firstSource,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};

type Server = Awaited<ReturnType<typeof startServer>>;

const viaSse = async (srv: Server, i: number): Promise<Run> => {
  srv.resetFirst();
  const t0 = performance.now();
  let first = 0;
  let complete = 0;
  const res = await fetch(`${srv.url}/Stream`, { method: "POST", headers, body: JSON.stringify(body(i)) });
  const parser = createParser({
    onEvent: (e) => {
      const env = JSON.parse(e.data) as { TotalItens: number; Completed: boolean };
      if (!first && env.TotalItens > 0) first = performance.now();
      if (env.Completed) complete = performance.now();
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  return { firstSource: srv.firstSource() - t0, first: first - t0, complete: complete - t0 };
};

const viaPolling = async (srv: Server, i: number, fixedMs?: number): Promise<Run> => {
  srv.resetFirst();
  const t0 = performance.now();
  let first = 0;
  for (;;) {
    const res = await fetch(`${srv.url}/Consultar`, { method: "POST", headers, body: JSON.stringify(body(i)) });
    const env = (await res.json()) as { TotalItens: number; Completed: boolean; Progresso?: { ProximaConsultaMs: number } };
    if (!first && env.TotalItens > 0) first = performance.now();
    if (env.Completed) return { firstSource: srv.firstSource() - t0, first: first - t0, complete: performance.now() - t0 };
    await new Promise((r) => setTimeout(r, fixedMs ?? env.Progresso?.ProximaConsultaMs ?? 500));
  }
};

export interface LatencyFigures {
  readonly fixedIntervalMs: number;
  readonly firstSource: Figure;
  readonly sse: { first: Figure; complete: Figure; lag: Figure };
  readonly hinted: { first: Figure; complete: Figure };
  readonly fixed: { first: Figure; complete: Figure };
}

/** Runs the three clients on distinct queries (no shared search between runs), interleaved, `runs` times each. */
export const runLatencyBench = async (quick = isQuick()): Promise<LatencyFigures> => {
  const runs = 5;
  const fixedIntervalMs = quick ? 1_000 : 10_000;
  const srv = await startServer(1);
  const sse: Run[] = [];
  const hinted: Run[] = [];
  const fixed: Run[] = [];
  try {
    await viaSse(srv, 1_000); // warm-up
    for (let r = 0; r < runs; r++) {
      sse.push(await viaSse(srv, r * 3));
      hinted.push(await viaPolling(srv, r * 3 + 1));
      fixed.push(await viaPolling(srv, r * 3 + 2, fixedIntervalMs));
    }
  } finally {
    await srv.close();
  }
  const fig = (xs: Run[], k: keyof Run) => summarize(xs.map((x) => x[k]));
  return {
    fixedIntervalMs,
    firstSource: summarize([...sse, ...hinted, ...fixed].map((x) => x.firstSource)),
    sse: { first: fig(sse, "first"), complete: fig(sse, "complete"), lag: summarize(sse.map((x) => x.first - x.firstSource)) },
    hinted: { first: fig(hinted, "first"), complete: fig(hinted, "complete") },
    fixed: { first: fig(fixed, "first"), complete: fig(fixed, "complete") },
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await runLatencyBench();
  const ms = (x: Figure) => `${x.median.toFixed(0)} ms (${x.min.toFixed(0)}–${x.max.toFixed(0)})`;
  console.log(`fastest source's first batch: ${ms(f.firstSource)}`);
  console.log(`SSE:            first ${ms(f.sse.first)}, complete ${ms(f.sse.complete)}, lag behind source ${ms(f.sse.lag)}`);
  console.log(`poll (hint):    first ${ms(f.hinted.first)}, complete ${ms(f.hinted.complete)}`);
  console.log(`poll (${f.fixedIntervalMs / 1000} s):     first ${ms(f.fixed.first)}, complete ${ms(f.fixed.complete)}`);
}
