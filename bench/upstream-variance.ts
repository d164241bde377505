/**
 * The upstream adapter against the plain client it replaces, under airline times that vary per search, in simulated
 * time (fake timers: the figures are the same on a busy machine and a quiet one): each search of the adapter paired
 * with a plain client (log in, `Companhia: -1`, poll the `LeaseId` every 10 s) on a twin fake upstream
 * drawing the same airline times, search by search (`pacingTrial` of @voar/testing). Figures per airline: how late
 * each side showed its offers after they existed; per search: the requests each side spent. Then a slow upstream
 * (every answer taking 30 s): when each side completes and what it spent.
 *
 * `npx tsx bench/upstream-variance.ts [--quick]`
 */
import FakeTimers from "@sinonjs/fake-timers";
import { AIRLINES, search, type SearchQuery, type SearchSnapshot } from "../packages/core/src/index.js";
import { lateness, pacingTrial, sellingSwitch, type PacingTrialOptions } from "../packages/testing/src/index.js";
import { createFanOutSources, createFetchTransport, type FetchLike } from "../packages/http-adapter/src/index.js";

/** Simulated seconds in ms (the clock is fake: nothing waits for real). */
const SCALE_MS = 1_000;
const sim = (seconds: number) => Math.round(seconds * SCALE_MS);

const ACCOUNT = { username: "agencia", password: "segredo" } as const;

/** The times of issue 37, in simulated seconds. */
const TIMES = (s: (x: number) => number): PacingTrialOptions["times"] => ({
  latam: { ms: [s(1), s(6)] },
  gol: { ms: [s(5), s(40)] },
  azul: { ms: s(4), tail: { share: 1 / 7, upToMs: s(50) } },
  iberia: { ms: s(45), hang: 0.25 },
  american: s(12),
  tap: { ms: [s(0.5), s(2)] },
  copa: s(1.6),
  livelo: { ms: [s(1), s(3)] },
});

const ROUTES = [
  ["GIG", "LIS"],
  ["GRU", "MIA"],
  ["CNF", "SDU"],
] as const;

/** The adapter's polling and the engine's limits, scaled. */
const polling = { initialDelayMs: sim(1), maxDelayMs: sim(10), maxDurationMs: sim(200), heartbeatMs: sim(5), maxPolls: 120 };
const engine = { deadlineMs: sim(60), deadlineHoldMs: sim(60), timeoutMs: sim(20) };

/** One airline's lateness in one paired search, in simulated seconds. */
export interface Late {
  readonly airline: number;
  readonly ours: number;
  readonly plain: number;
  readonly existedAfter: number;
}

/** A paired search's requests and completion, in simulated seconds. */
export interface Spent {
  readonly ours: number;
  readonly plain: number;
  readonly oursS: number;
  readonly plainS: number;
}

const dayOf = (n: number) => new Date(Date.now() + (40 + n) * 86_400_000).toISOString().slice(0, 10);

/** The adapter's requests counted per search (by the query's route and date, then by the lease the upstream gave it). */
const counting = (fetch: FetchLike) => {
  const leaseOf = new Map<string, string>();
  const spent = new Map<string, number>();
  let logins = 0;
  const counted: FetchLike = async (input, init) => {
    const url = String(input);
    if (url.endsWith("/Token")) logins++;
    const body = url.endsWith("/ConsultaAereo/Consultar") && typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const key = body ? (typeof body["LeaseId"] === "string" ? leaseOf.get(body["LeaseId"]) : `${String(body["Origem"])}-${String(body["Destino"])}|${String(body["Ida"])}`) : undefined;
    const res = await fetch(input, init);
    if (key) {
      spent.set(key, (spent.get(key) ?? 0) + 1);
      const json = (await res.clone().json().catch(() => undefined)) as { ExErro?: { Extensions?: { LeaseId?: string } } } | undefined;
      const lease = json?.ExErro?.Extensions?.LeaseId;
      if (lease) leaseOf.set(lease, key);
    }
    return res;
  };
  return { counted, spentOn: (route: string, day: string) => spent.get(`${route}|${day}`) ?? 0, logins: () => logins };
};

/** Runs the paired searches: `waves` waves of three routes at once, TAP switched on for GIG-LIS from the fourth. */
export const runVariance = async (waves: number, options: { readonly slow?: boolean } = {}): Promise<{ late: Late[]; learnedLate: Late[]; spent: Spent[]; logins: number }> => {
  const clock = FakeTimers.install({ now: Date.now(), toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  try {
    return await runWaves(waves, options, async (promise) => {
      let done = false;
      void promise.finally(() => (done = true));
      while (!done) await clock.tickAsync(100);
      return promise;
    });
  } finally {
    clock.uninstall();
  }
};

const runWaves = async (waves: number, options: { readonly slow?: boolean }, drive: <T>(p: Promise<T>) => Promise<T>): Promise<{ late: Late[]; learnedLate: Late[]; spent: Spent[]; logins: number }> => {
  const selling = sellingSwitch([{ sourceId: "tap", route: "GIG-LIS" }]);
  const trial = pacingTrial({
    seed: 17,
    accounts: [ACCOUNT],
    selling,
    times: options.slow ? { latam: sim(3), azul: sim(6), gol: sim(45) } : TIMES(sim),
    otherMs: sim(1),
    backend: { deadlineMs: sim(120), policy: { timeoutMs: sim(120) }, ...(options.slow ? { answerDelayMs: sim(30) } : {}) },
  });
  const count = counting(trial.twin.fetch);
  const sources = createFanOutSources({ baseUrl: trial.twin.baseUrl, credentials: ACCOUNT, transport: createFetchTransport(count.counted), polling, requestTimeoutMs: sim(60), breaker: false });
  const airlineOf = new Map(sources.map((s) => [s.id, s.airlineId!]));
  const late: Late[] = [];
  const learnedLate: Late[] = [];
  const spent: Spent[] = [];
  for (let wave = 1; wave <= waves; wave++) {
    if (wave === 4) selling.turnOn("tap", "GIG-LIS");
    const day = dayOf(wave);
    await drive(Promise.all(
      (options.slow ? ROUTES.slice(2) : ROUTES).map(async ([origin, destination]) => {
        const query: SearchQuery = { origin, destination, departureDate: day, passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } };
        const request = { Origem: origin, Destino: destination, Ida: day, Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1 };
        const started = Date.now();
        const plain = trial.runPlain({ fetch: trial.plain.fetch, baseUrl: trial.plain.baseUrl, ...ACCOUNT, request, pollMs: sim(10), maxRequests: 200 }, query).then((r) => ({ r, at: Date.now() }));
        const shown = new Map<number, number>();
        await new Promise<SearchSnapshot>((resolve) => {
          let last: SearchSnapshot | undefined;
          search(query, sources, engine).subscribe({
            next: (s) => {
              last = s;
              for (const p of s.sources) if (p.state === "done" && p.items > 0 && !shown.has(airlineOf.get(p.id)!)) shown.set(airlineOf.get(p.id)!, Date.now());
            },
            complete: () => resolve(last!),
          });
        });
        const oursAt = Date.now();
        const { r: plainRun, at: plainAt } = await plain;
        const existed = trial.existed("twin", query);
        const ours = lateness(existed, shown);
        const theirs = lateness(trial.existed("plain", query), plainRun.shown);
        for (const [airline, ms] of ours) {
          const l: Late = { airline, ours: ms / SCALE_MS, plain: (theirs.get(airline) ?? Number.NaN) / SCALE_MS, existedAfter: (existed.get(airline)! - started) / SCALE_MS };
          late.push(l);
          if (wave >= 4) learnedLate.push(l);
        }
        spent.push({ ours: count.spentOn(`${origin}-${destination}`, day), plain: plainRun.requests, oursS: (oursAt - started) / SCALE_MS, plainS: (plainAt - started) / SCALE_MS });
      }),
    ));
  }
  trial.close();
  return { late, learnedLate, spent, logins: count.logins() };
};

/** Airline names by Companhia id. */
export const airlineName = (id: number): string => AIRLINES.find((a) => a.id === id)?.name ?? String(id);

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes("--quick");
  const r = await runVariance(quick ? 6 : 24);
  for (const id of [...new Set(r.learnedLate.map((l) => l.airline))]) {
    const mine = r.learnedLate.filter((l) => l.airline === id).map((l) => l.ours).sort((a, b) => a - b);
    console.log(`${airlineName(id)}: ${mine.length} searches, lateness ${mine.map((x) => x.toFixed(1)).join(" ")}`);
  }
  const ours = r.spent.reduce((n, s) => n + s.ours, 0) + r.logins;
  const plain = r.spent.reduce((n, s) => n + s.plain, 0);
  console.log(`requests ${ours} against ${plain} (${(ours / plain).toFixed(2)}x); per search ${r.spent.map((s) => `${s.ours}/${s.plain}`).join(" ")}`);
}
