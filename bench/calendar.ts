/**
 * Price calendar benchmark: the service (createApp in process, the fan-out over a loopback fake upstream whose
 * airlines answer in times spread by airline and day, behind the answer cache, as voar-server runs it), followed
 * by the typed client over its service on a real socket:
 *  - time to the first priced day of a ±3 calendar, against the first result of one ordinary search (the fastest
 *    airline's latency and the adapter's first poll);
 *  - time to the complete ±3 calendar, against seven ordinary searches of a week at once (a traveller's seven
 *    tabs: all complete when the slowest day's own search does);
 *  - the calendar's SSE stream: its bytes and events, against the whole calendar at every version;
 *  - upstream requests of a cold calendar, a warm one (the same tenant's calendar two days later: five of its
 *    days searched), a shared one (another tenant's identical calendar), beside 7 ordinary searches'.
 * Every run asks dates of its own, so each cold figure is cold.
 */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createParser } from "eventsource-parser";
import { applyCalendarChange, type CalendarChange, type CalendarEnvelope, type SearchQuery } from "../packages/core/src/index.js";
import { createAnswerCache, createApp, createMemoryAnswerStore, defineConfig, priceCalendar, silentLogger, systemClock } from "../packages/hono-edge/src/index.js";
import { createClient, createFanOutSources, type Envelope } from "../packages/http-adapter/src/index.js";
import { createFakeUpstream, createSimulator, liveBackend, serveOnNode } from "../packages/testing/src/index.js";
import { summarize, type Figure } from "./lib/measure.js";

/** Milliseconds each airline takes to answer completely, at least: the fastest well before the slowest. */
const LATENCY_MS: Readonly<Record<string, number>> = { latam: 200, tap: 300, azul: 600, gol: 900 };

/** Each airline's time on a day: its own, up to 1.6x, spread by day (the same day always the same), as an upstream's vary. */
const latency = (sourceId: string, q: SearchQuery): number => {
  const base = LATENCY_MS[sourceId] ?? 500;
  const spread = [...`${sourceId}${q.departureDate}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000, 7) / 1_000;
  return Math.round(base * (1 + 0.6 * spread));
};
const AIRLINES = [1, 2, 3, 11];
const account = { username: "bench", password: "bench-secret" };
const KEYS = ["bench-calendar-a-key-0123456789", "bench-calendar-b-key-0123456789"] as const;
const DAYS = 3;

/** What one run measured. */
export interface CalendarFigures {
  readonly runs: number;
  readonly firstPricedDay: Figure;
  readonly ordinaryFirstResult: Figure;
  readonly calendarComplete: Figure;
  /** Seven ordinary searches at once: when the last completes. */
  readonly sevenAtOnce: Figure;
  /** The ±3 calendar's SSE stream: bytes, events, and the whole calendar at every version (its versions times its last answer). */
  readonly stream: { readonly bytes: Figure; readonly events: Figure; readonly everyVersionWhole: Figure };
  readonly requests: { readonly cold: Figure; readonly warm: Figure; readonly shared: Figure; readonly sevenSearches: Figure };
}

const dateIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The fake upstream and the service on sockets of their own; `requests()` counts the upstream's search requests. */
const setup = async () => {
  const upstream = createFakeUpstream({ backend: liveBackend({ sources: createSimulator({ latencyMs: latency, batches: 2 }).sources }), auth: { accounts: [account] } });
  const served = await serveOnNode(upstream.app.fetch);
  const fan = createFanOutSources({ baseUrl: `${served.origin}/api`, credentials: account, airlines: AIRLINES, polling: { initialDelayMs: 150, maxDelayMs: 600 } });
  const cache = createAnswerCache({ store: createMemoryAnswerStore({ maxEntries: 10_000, clock: systemClock }), clock: systemClock, freshMs: 300_000, staleMs: 300_000, account: "bench" });
  const config = defineConfig({
    apiKeys: KEYS.map((key, i) => ({ name: `agency-${i}`, key })),
    limits: { rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 } },
    search: { pollHintMs: 100 },
  });
  const shutdown = new AbortController();
  const app = createApp({ config, sources: cache.wrap(fan), logger: silentLogger, signal: shutdown.signal, priceCalendar: priceCalendar() });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return {
    baseUrl,
    clients: KEYS.map((token) => createClient({ baseUrl, token, transport: "sse" })),
    requests: () => upstream.stats.searches,
    close: async () => {
      shutdown.abort();
      cache.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if ("closeAllConnections" in server) server.closeAllConnections();
      await fan[0]?.close();
      await served.close();
      upstream.close();
    },
  };
};

type Setup = Awaited<ReturnType<typeof setup>>;
type Client = Setup["clients"][number];


/**
 * A ±3 calendar over its SSE stream, read as it comes (the whole calendar first and last, the days that changed
 * between, applied in turn): ms to its first priced day and to completion, the stream's bytes and events, and
 * what it would weigh with the whole calendar at every version.
 */
const timedCalendar = async (s: Setup, key: string, ida: string) => {
  const t0 = performance.now();
  const res = await fetch(`${s.baseUrl}/ConsultaAereo/Calendario/Stream`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ Origem: "GRU", Destino: "SSA", Ida: ida, DiasFlexiveis: DAYS }),
  });
  let first: number | undefined;
  let last: CalendarEnvelope | undefined;
  let events = 0;
  const parser = createParser({
    onEvent: (e) => {
      events++;
      last = e.event === "dias" ? applyCalendarChange(last!, JSON.parse(e.data) as CalendarChange) : (JSON.parse(e.data) as CalendarEnvelope);
      if (first === undefined && last.Data.some((d) => d.MenorValor !== null || d.MenorPontos !== null)) first = performance.now() - t0;
    },
  });
  const decoder = new TextDecoder();
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  if (!last?.Completed) throw new Error("the calendar did not complete");
  const everyVersionWhole = last.Progresso.Versao * Buffer.byteLength(`data: ${JSON.stringify(last)}\n\n`);
  return { first: first ?? Number.NaN, complete: performance.now() - t0, bytes, events, everyVersionWhole };
};

/** One ordinary search over the stream: ms to its first offer and to completion. */
const timedSearch = async (client: Client, ida: string) => {
  const t0 = performance.now();
  let first: number | undefined;
  for await (const e of client.search({ Origem: "GRU", Destino: "SSA", Ida: ida }) as AsyncGenerator<Envelope>) {
    if (first === undefined && e.TotalItens > 0) first = performance.now() - t0;
  }
  return { first: first ?? Number.NaN, complete: performance.now() - t0 };
};

/** Upstream requests a step causes. */
const costOf = async (s: Setup, step: () => Promise<unknown>) => {
  const before = s.requests();
  await step();
  return s.requests() - before;
};

/** Runs the calendar benchmark (`quick`: one run of each). */
export const runCalendarBench = async (quick: boolean): Promise<CalendarFigures> => {
  const runs = quick ? 1 : 5;
  const s = await setup();
  const [a] = s.clients as [Client, Client];
  const samples = {
    first: [] as number[], ordinary: [] as number[], complete: [] as number[], atOnce: [] as number[],
    bytes: [] as number[], events: [] as number[], whole: [] as number[],
    cold: [] as number[], warm: [] as number[], shared: [] as number[], seven: [] as number[],
  };
  try {
    // Warm-up: the login, the connections, the code, and what the fan-out's pacing learns of each airline.
    for (const d of [200, 201, 202]) await timedSearch(a, dateIn(d));
    for (let r = 0; r < runs; r++) {
      // Each run its own weeks: 20 days apart, nothing cached from the run before.
      const base = 30 + r * 20;
      const ordinary = await timedSearch(a, dateIn(base + 15));
      samples.ordinary.push(ordinary.first);
      const calendarCold = async () => {
        let t: Awaited<ReturnType<typeof timedCalendar>> | undefined;
        samples.cold.push(await costOf(s, async () => void (t = await timedCalendar(s, KEYS[0], dateIn(base)))));
        samples.first.push(t!.first);
        samples.complete.push(t!.complete);
        samples.bytes.push(t!.bytes);
        samples.events.push(t!.events);
        samples.whole.push(t!.everyVersionWhole);
      };
      // A traveller's seven tabs: the same seven days of another week, all searched at once.
      const sevenAtOnce = async () => {
        const t0 = performance.now();
        samples.seven.push(await costOf(s, () => Promise.all(Array.from({ length: 2 * DAYS + 1 }, (_, i) => timedSearch(a, dateIn(base + 8 + i - DAYS))))));
        samples.atOnce.push(performance.now() - t0);
      };
      // In turn first, so that neither always runs on a machine the other just warmed.
      if (r % 2 === 0) await calendarCold().then(sevenAtOnce);
      else await sevenAtOnce().then(calendarCold);
      samples.warm.push(await costOf(s, () => timedCalendar(s, KEYS[0], dateIn(base + 2))));
      samples.shared.push(await costOf(s, () => timedCalendar(s, KEYS[1], dateIn(base))));
    }
  } finally {
    await s.close();
  }
  return {
    runs,
    firstPricedDay: summarize(samples.first),
    ordinaryFirstResult: summarize(samples.ordinary),
    calendarComplete: summarize(samples.complete),
    sevenAtOnce: summarize(samples.atOnce),
    stream: { bytes: summarize(samples.bytes), events: summarize(samples.events), everyVersionWhole: summarize(samples.whole) },
    requests: { cold: summarize(samples.cold), warm: summarize(samples.warm), shared: summarize(samples.shared), sevenSearches: summarize(samples.seven) },
  };
};
