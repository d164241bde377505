/**
 * The adapter against the plain client it replaces, in virtual time, under airline times that vary per search: each
 * wave searches a few routes at once, each search paired with a plain client on the twin upstream (the same airline
 * times, search by search). Gives each airline's lateness on both sides, per search, and the requests each spent.
 */
import { vi } from "vitest";
import { search, type SearchQuery, type SearchSnapshot } from "@voar/core";
import { lateness, pacingTrial, sellingSwitch, type PacingTrialOptions } from "@voar/testing";
import { createFanOutSources } from "../../src/fetch.js";
import type { UpstreamOptions } from "../../src/upstream/upstream-options.js";
import { agency } from "./live-upstream.js";

/** The times of the issue that asked for this: LATAM 1-6 s, GOL 5-40 s, Azul 4 s (one in seven up to 50 s), Iberia 45 s (one in four hangs). */
export const VARYING_TIMES: PacingTrialOptions["times"] = {
  latam: { ms: [1_000, 6_000] },
  gol: { ms: [5_000, 40_000] },
  azul: { ms: 4_000, tail: { share: 1 / 7, upToMs: 50_000 } },
  iberia: { ms: 45_000, hang: 0.25 },
  tap: { ms: [500, 2_000] },
  copa: 1_600,
  american: 12_000,
  livelo: { ms: [1_000, 3_000] },
};

/** The routes of each wave: LATAM, Azul, TAP (switched on from a wave on) and Iberia; LATAM, GOL and American; LATAM, GOL and Azul. */
export const WAVE_ROUTES = [
  ["GIG", "LIS"],
  ["GRU", "MIA"],
  ["CNF", "SDU"],
] as const;

/** One airline's figures in one paired search. */
export interface PairedLateness {
  readonly wave: number;
  readonly route: string;
  readonly airline: number;
  /** ms from the offers' existence to each side showing them. */
  readonly ours: number;
  readonly plain: number;
  /** When the offers existed, ms from the search's start. */
  readonly existedAfter: number;
}

/** One paired search. */
export interface PairedSearch {
  readonly wave: number;
  readonly route: string;
  readonly ours: number;
  readonly plain: number;
}

const dayOf = (wave: number) => {
  const d = new Date(Date.UTC(2026, 8, 1) + wave * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/**
 * Runs `waves` waves; TAP starts selling on GIG-LIS at wave `tapFrom`. Each wave starts when the one before it ended,
 * or, with `spacingMs`, that long after it started (waves then overlap, as a busy service's searches do).
 */
export const varianceTrial = async (o: { readonly waves: number; readonly seed?: number; readonly tapFrom?: number; readonly spacingMs?: number; readonly adapter?: Partial<UpstreamOptions>; readonly backend?: PacingTrialOptions["backend"] }) => {
  const selling = sellingSwitch([{ sourceId: "tap", route: "GIG-LIS" }]);
  const trial = pacingTrial({ seed: o.seed ?? 7, times: VARYING_TIMES, selling, accounts: [agency], backend: o.backend });
  // Requests of the adapter, per query: the twin's requests counted by the search they belong to.
  const leaseRoute = new Map<string, string>();
  const spent = new Map<string, number>();
  const twinFetch = trial.twin.fetch;
  const counted: typeof twinFetch = async (input, init) => {
    const consultar = String(input).endsWith("/ConsultaAereo/Consultar") && typeof init?.body === "string";
    const body = consultar ? (JSON.parse(init.body as string) as Record<string, unknown>) : undefined;
    const key = body ? (typeof body["LeaseId"] === "string" ? leaseRoute.get(body["LeaseId"]) : `${String(body["Origem"])}-${String(body["Destino"])}|${String(body["Ida"])}`) : undefined;
    const res = await twinFetch(input, init);
    if (key) {
      spent.set(key, (spent.get(key) ?? 0) + 1);
      const json = (await res.clone().json().catch(() => undefined)) as { ExErro?: { Extensions?: { LeaseId?: string } } } | undefined;
      const lease = json?.ExErro?.Extensions?.LeaseId;
      if (lease) leaseRoute.set(lease, key);
    }
    return res;
  };
  const ours = createFanOutSources({ baseUrl: trial.twin.baseUrl, credentials: agency, fetch: counted, ...o.adapter });
  const airlineOf = new Map(ours.map((s) => [s.id, s.airlineId!]));
  const late: PairedLateness[] = [];
  const searches: PairedSearch[] = [];
  const completedAt: number[] = [];
  const all: Promise<unknown>[] = [];
  for (let wave = 1; wave <= o.waves; wave++) {
    if (wave === (o.tapFrom ?? 5)) selling.turnOn("tap", "GIG-LIS");
    const day = dayOf(wave);
    const runs = WAVE_ROUTES.map(async ([origin, destination]) => {
      const query: SearchQuery = { origin, destination, departureDate: day, passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } };
      const started = Date.now();
      const request = { Origem: origin, Destino: destination, Ida: day, Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1 };
      const plain = trial.runPlain({ fetch: trial.plain.fetch, baseUrl: trial.plain.baseUrl, ...agency, request }, query);
      const shown = new Map<number, number>();
      const last = await new Promise<SearchSnapshot>((resolve) => {
        let latest: SearchSnapshot | undefined;
        search(query, ours, { deadlineMs: 60_000, deadlineHoldMs: 60_000 }).subscribe({
          next: (s) => {
            latest = s;
            for (const p of s.sources) if (p.state === "done" && p.items > 0 && !shown.has(airlineOf.get(p.id)!)) shown.set(airlineOf.get(p.id)!, Date.now());
          },
          complete: () => resolve(latest!),
        });
      });
      completedAt.push(Date.now() - started);
      const plainRun = await plain;
      const route = `${origin}-${destination}`;
      const existedOurs = trial.existed("twin", query);
      const existedPlain = trial.existed("plain", query);
      const oursLate = lateness(existedOurs, shown);
      const plainLate = lateness(existedPlain, plainRun.shown);
      for (const [airline, ms] of oursLate) late.push({ wave, route, airline, ours: ms, plain: plainLate.get(airline) ?? Number.NaN, existedAfter: existedOurs.get(airline)! - started });
      searches.push({ wave, route, ours: spent.get(`${route}|${day}`) ?? 0, plain: plainRun.requests });
      return last;
    });
    all.push(...runs);
    if (o.spacingMs !== undefined) await vi.advanceTimersByTimeAsync(o.spacingMs);
    else await settled(runs);
  }
  await settled(all);
  trial.close();
  return { late, searches, completedAt };
};

/** Advances virtual time until every run ended. */
const settled = async (runs: readonly Promise<unknown>[]): Promise<void> => {
  let done = false;
  void Promise.all(runs).then(() => (done = true));
  while (!done) await vi.advanceTimersByTimeAsync(100);
};

/** The p-quantile of numbers. */
export const quantile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? Number.NaN;
};
