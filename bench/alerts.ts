/**
 * Price watches benchmark, on simulated time: the real schedule (createApp with `priceAlerts`, the memory store,
 * its worker driven minute by minute on a clock moved by hand) over a cost model of the upstream instead of a
 * live one (a day's search costs `SEARCH_REQUESTS` requests, none when an answer of the same day is younger than
 * the answer cache's freshness; each day's cheapest price moves now and then, more often near departure).
 *  - 1,000 watches over a Zipf mix of routes (some routes many agencies' travellers watch, most a few), a day,
 *    ±3 days or a whole month each, 1 to 180 days ahead: the upstream requests per watch per day on the second
 *    simulated day, against the naive cost (every day of every watch searched on its own every hour);
 *  - 10,000 watches held on one instance: the heap they take and the CPU per watch (creating them, and a
 *    simulated day of their checks).
 */
import { addDays, money, todayInSaoPaulo, type Carrier, type SearchQuery } from "../packages/core/src/index.js";
import { createApp, defineConfig, priceAlerts, silentLogger, type PriceAlerts, type RouteDayPrices } from "../packages/hono-edge/src/index.js";
import { createSimulator } from "../packages/testing/src/index.js";

/** Upstream requests of one ordinary search of a day (3 airlines: an ask and a poll each). */
export const SEARCH_REQUESTS = 6;
/** The answer cache's freshness (its default). */
const FRESH_MS = 300_000;
const MINUTE = 60_000;
const LATAM: Carrier = { iata: "LA", name: "LATAM" };
const AIRPORTS = ["GRU", "CGH", "GIG", "SDU", "BSB", "CNF", "SSA", "REC", "FOR", "POA", "CWB", "FLN", "BEL", "MAO", "VCP", "NAT", "MCZ", "GYN", "VIX", "CGB"];

/** A seeded random source (mulberry32), so each run asks the same mix. */
const rng = (seed: number) => () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Routes ranked by popularity, and a Zipf (s = 1) draw among them. */
const zipf = (n: number, random: () => number) => {
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  return () => {
    let r = random() * total;
    for (let i = 0; i < n; i++) if ((r -= weights[i]!) <= 0) return i;
    return n - 1;
  };
};

/** The cost model of the upstream, on the simulated clock: requests counted, prices that move now and then. */
const costModel = (now: () => number, random: () => number) => {
  const fetchedAt = new Map<string, number>();
  const price = new Map<string, { amount: number; until: number }>();
  let requests = 0;
  let checks = 0;
  const prices: RouteDayPrices = {
    check(query: SearchQuery) {
      checks++;
      const key = `${query.origin}${query.destination}${query.departureDate}${query.passengers.adults}`;
      const t = now();
      let cost = 0;
      if ((fetchedAt.get(key) ?? -Infinity) + FRESH_MS <= t) {
        cost = SEARCH_REQUESTS;
        fetchedAt.set(key, t);
      }
      requests += cost;
      // A day's cheapest fare holds for a while (hours to days), then moves up or down by up to 15 %.
      let p = price.get(key);
      if (!p || p.until <= t) {
        const before = p?.amount ?? 40_000 + Math.floor(random() * 160_000);
        p = { amount: Math.round(before * (0.85 + 0.3 * random())), until: t + (6 + random() * 42) * 3_600_000 };
        price.set(key, p);
      }
      const day = { cash: { total: money(p.amount), airlineId: 1, carrier: LATAM }, miles: { points: Math.round(p.amount / 4), taxes: money(5_000), airlineId: 1, carrier: LATAM, programme: "LATAM Pass" } };
      return Promise.resolve({ at: t, prices: { todas: day, economica: day }, requests: cost, failed: 0 });
    },
    searchFor: () => Promise.resolve(undefined),
  };
  return { prices, requests: () => requests, checks: () => checks };
};

/** An app with price alerts on a clock moved by hand, its worker driven by the bench. */
const benchApp = (o: { readonly tenants: number; readonly budgetPerHour?: number | undefined; readonly seed: number }) => {
  let t = Date.parse(`${todayInSaoPaulo(new Date())}T12:00:00Z`);
  const clock = { now: () => t };
  const model = costModel(() => t, rng(o.seed + 1));
  let alerts: PriceAlerts | undefined;
  const feature = priceAlerts({ timer: false, prices: () => model.prices });
  const keys = Array.from({ length: o.tenants }, (_, i) => ({ name: `agencia${i}`, key: `bench-alerts-key-${String(i).padStart(4, "0")}-0123456789` }));
  const app = createApp({
    config: defineConfig({
      apiKeys: keys,
      limits: { rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 } },
      alerts: { quota: { watches: 1_000_000, checksPerHour: 10_000_000 }, schedule: { concurrency: 100 }, ...(o.budgetPerHour ? { budget: { upstreamRequestsPerHour: o.budgetPerHour, share: 1 } } : {}) },
    }),
    sources: createSimulator().sources,
    clock,
    logger: silentLogger,
    priceAlerts: { ...feature, start: (d, s) => (alerts = feature.start(d, s)) },
  });
  /** Moves the clock `ms` ahead, a minute at a time, running every due check at each minute. */
  const run = async (ms: number) => {
    for (const end = t + ms; t < end; t += MINUTE) {
      await alerts!.tick();
      await alerts!.idle();
    }
  };
  return { app, keys, model, run, now: () => t, alerts: () => alerts! };
};

/** A mix of watches: a route by Zipf, a day 1-180 days ahead; 60 % one day, 30 % ±3 days, 10 % a month. */
const watchBodies = (count: number, seed: number, today: string) => {
  const random = rng(seed);
  const routes: [string, string][] = [];
  for (const o of AIRPORTS) for (const d of AIRPORTS) if (o !== d) routes.push([o, d]);
  // The popular routes first (a fixed shuffle), drawn by Zipf.
  routes.sort(() => random() - 0.5);
  const pick = zipf(routes.length, random);
  return Array.from({ length: count }, () => {
    const [Origem, Destino] = routes[pick()]!;
    const ahead = 1 + Math.floor(random() * 180);
    const kind = random();
    const Ida = addDays(today, ahead);
    return kind < 0.6 ? { Origem, Destino, Ida } : kind < 0.9 ? { Origem, Destino, Ida: addDays(today, Math.max(3, ahead)), DiasFlexiveis: 3 } : { Origem, Destino, Mes: addDays(today, Math.max(ahead, 32)).slice(0, 7) };
  });
};

/** Days of a watch as created (its answer's `Dias`). */
type Created = { readonly Data: { readonly Dias: readonly string[] }[] };

/** What the Zipf run measured. */
export interface ZipfFigures {
  readonly watches: number;
  readonly days: number;
  readonly scheduled: number;
  readonly requestsPerWatchPerDay: number;
  readonly naivePerWatchPerDay: number;
  readonly checksPerDay: number;
}

/** 1,000 watches (fewer in quick mode) over a Zipf mix, two simulated days; the second day's requests. */
export const runZipf = async (count: number, seed = 7): Promise<ZipfFigures> => {
  const bench = benchApp({ tenants: 50, seed });
  const today = todayInSaoPaulo(new Date(bench.now()));
  let days = 0;
  for (const [i, body] of watchBodies(count, seed, today).entries()) {
    const key = bench.keys[i % bench.keys.length]!.key;
    const res = await bench.app.request("/api/Alertas", { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`watch ${i}: ${res.status} ${await res.text()}`);
    days += ((await res.json()) as Created).Data[0]!.Dias.length;
  }
  await bench.run(86_400_000); // the first day: every day checked at once, then settling
  const before = { requests: bench.model.requests(), checks: bench.model.checks() };
  await bench.run(86_400_000);
  const requests = bench.model.requests() - before.requests;
  const stats = await bench.alerts().store.stats();
  return {
    watches: count,
    days,
    scheduled: stats.units,
    requestsPerWatchPerDay: requests / count,
    naivePerWatchPerDay: (days / count) * 24 * SEARCH_REQUESTS,
    checksPerDay: bench.model.checks() - before.checks,
  };
};

/** What the 10,000 watches measured. */
export interface HeldFigures {
  readonly watches: number;
  readonly heapBytesPerWatch: number;
  readonly createCpuMsPerWatch: number;
  readonly dayCpuMsPerWatch: number;
  readonly checksPerDay: number;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Heap used after a collection (when the process allows one: `--expose-gc`). */
const heapUsed = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** `count` watches of one day each on one instance: heap per watch, CPU to create one, CPU of a simulated day of checks. */
export const runHeld = async (count: number, seed = 11): Promise<HeldFigures> => {
  const bench = benchApp({ tenants: 100, seed });
  const today = todayInSaoPaulo(new Date(bench.now()));
  const bodies = watchBodies(count, seed, today).map((b) => ("Mes" in b ? { Origem: b.Origem, Destino: b.Destino, Ida: addDays(today, 60) } : b));
  const heap0 = heapUsed();
  const cpu0 = process.cpuUsage();
  for (const [i, body] of bodies.entries()) {
    const key = bench.keys[i % bench.keys.length]!.key;
    const res = await bench.app.request("/api/Alertas", { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`watch ${i}: ${res.status}`);
  }
  const cpu1 = process.cpuUsage(cpu0);
  await bench.run(3_600_000); // every day checked once (the results held too)
  const heap1 = heapUsed();
  const checks0 = bench.model.checks();
  const cpu2 = process.cpuUsage();
  await bench.run(86_400_000);
  const cpu3 = process.cpuUsage(cpu2);
  return {
    watches: count,
    heapBytesPerWatch: (heap1 - heap0) / count,
    createCpuMsPerWatch: (cpu1.user + cpu1.system) / 1000 / count,
    dayCpuMsPerWatch: (cpu3.user + cpu3.system) / 1000 / count,
    checksPerDay: bench.model.checks() - checks0,
  };
};
