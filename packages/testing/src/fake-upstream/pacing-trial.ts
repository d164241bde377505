/**
 * A trial of a client's pacing against the plain client it replaces, under airline times that vary per search: two
 * fake upstreams drawing the same times search by search (`variableLatency` with one seed), one for the plain client
 * (log in, send the query, poll its `LeaseId` every 10 s), one for the client under test. Each upstream tells when
 * each airline's offers existed; the plain client's answers tell when it had them; the trial gives each airline's
 * lateness (shown minus existed) on both sides and the requests each side sent.
 */
import { queryKey, readUpstreamAnswer, MalformedPayload, type AirportDirectory, type SearchQuery } from "@voar/core";
import { airports as defaultAirports } from "@voar/core/airports";
import { createSimulator } from "../simulator/create-simulator.js";
import { variableLatency, type LatencyDistribution, type SellingSwitch } from "../simulator/variable-latency.js";
import { driveSearch, type DriveOptions, type DriveResult } from "../scenarios/scenario-driver.js";
import { createFakeUpstream, type FakeUpstream } from "./create-fake-upstream.js";
import { liveBackend, type LiveBackendOptions, type LiveSourceEvent } from "./live-backend.js";
import type { FakeAccount } from "./token-store.js";

/** Options of {@link pacingTrial}. */
export interface PacingTrialOptions {
  /** Seed of the airline times. Default 1. */
  readonly seed?: number | undefined;
  /** Each airline's time by simulator source id (`latam`, `gol`...): a distribution, or a fixed time in ms. */
  readonly times: Readonly<Record<string, LatencyDistribution | number>>;
  /** Time of the sources not listed. Default 1 000 ms. */
  readonly otherMs?: number | undefined;
  /** Which airlines sell where (shared by both upstreams). Default: all sell what they fly. */
  readonly selling?: SellingSwitch | undefined;
  /** The upstreams' own settings (deadline, slow answers...). Default: a 120 s deadline, no timeout of their own before it. */
  readonly backend?: Omit<Partial<LiveBackendOptions>, "sources" | "onSourceEvent"> | undefined;
  /** The accounts both upstreams accept. */
  readonly accounts: readonly FakeAccount[];
  /** Batches an airline's offers come in. Default 1 (all at its time). */
  readonly batches?: number | undefined;
  readonly airports?: AirportDirectory | undefined;
}

/** When each airline (Companhia id) had its offers, in `Date.now()` ms. */
export type AirlineTimes = ReadonlyMap<number, number>;

/** A plain client's run. */
export interface PlainRun {
  readonly result: DriveResult;
  /** Requests it sent (logins included). */
  readonly requests: number;
  /** `Date.now()` when it started. */
  readonly startedAt: number;
  /** When it had all of each airline's offers (the count of its last answer). */
  readonly shown: AirlineTimes;
}

/** The trial's two upstreams and what they saw. */
export interface PacingTrial {
  /** The plain client's upstream. */
  readonly plain: FakeUpstream;
  /** The twin, for the client under test. */
  readonly twin: FakeUpstream;
  /**
   * When each airline's offers existed at an upstream, in the latest search of `query` (its `queryKey` or the query):
   * the moment the airline finished with offers (airlines that had none are left out).
   */
  existed(side: "plain" | "twin", query: SearchQuery | string): AirlineTimes;
  /** Runs the plain client on the plain upstream: `pollMs` 10 s unless given. */
  runPlain(options: Omit<DriveOptions, "onAnswer" | "pollMs" | "maxFailures" | "maxRequests"> & Partial<Pick<DriveOptions, "pollMs" | "maxFailures" | "maxRequests">>, query: SearchQuery): Promise<PlainRun>;
  close(): void;
}

/**
 * Two fake upstreams with the same airline times, and the plain client.
 *
 * @example
 * const trial = pacingTrial({ accounts: [account], times: { latam: { ms: [1_000, 6_000] }, gol: { ms: [5_000, 40_000] } } });
 * const plain = await trial.runPlain({ fetch: trial.plain.fetch, baseUrl: trial.plain.baseUrl, ...account, request }, query);
 * const late = lateness(trial.existed("plain", query), plain.shown); // per airline, ms
 */
export const pacingTrial = (options: PacingTrialOptions): PacingTrial => {
  const airports = options.airports ?? defaultAirports;
  const events = { plain: [] as LiveSourceEvent[], twin: [] as LiveSourceEvent[] };
  const upstream = (side: "plain" | "twin") => {
    const times = variableLatency({ seed: options.seed, sources: options.times, otherMs: options.otherMs });
    const simulator = createSimulator({ latencyMs: times.latencyMs, batches: options.batches ?? 1, selling: options.selling?.sells, airports });
    return {
      simulator,
      fake: createFakeUpstream({
        backend: liveBackend({ deadlineMs: 120_000, policy: { timeoutMs: 120_000 }, ...options.backend, airports, sources: simulator.sources, onSourceEvent: (e) => events[side].push(e) }),
        auth: { accounts: options.accounts },
      }),
    };
  };
  const plain = upstream("plain");
  const twin = upstream("twin");
  const companhiaOf = new Map(plain.simulator.airlines.map((a) => [a.sourceId, a.id]));

  const existed = (side: "plain" | "twin", query: SearchQuery | string): AirlineTimes => {
    const key = typeof query === "string" ? query : queryKey(query);
    const mine = events[side].filter((e) => e.query === key);
    const last = mine.at(-1)?.searchId;
    const out = new Map<number, number>();
    for (const e of mine) {
      if (e.searchId !== last || e.kind !== "done" || e.items === 0) continue;
      const id = companhiaOf.get(e.sourceId);
      if (id !== undefined) out.set(id, e.at);
    }
    return out;
  };

  const runPlain: PacingTrial["runPlain"] = async (drive, query) => {
    const counts: { at: number; by: Map<number, number> }[] = [];
    let requests = 0;
    const startedAt = Date.now();
    const result = await driveSearch({
      pollMs: 10_000,
      maxFailures: 3,
      maxRequests: 60,
      ...drive,
      fetch: (input, init) => {
        requests++;
        return drive.fetch(input, init);
      },
      onAnswer: ({ json, at }) => {
        const read = readUpstreamAnswer(json, { airports, sourceId: "plain", query });
        if (read instanceof MalformedPayload) return;
        const by = new Map<number, number>();
        for (const o of read.offers) by.set(o.airlineId, (by.get(o.airlineId) ?? 0) + 1);
        counts.push({ at, by });
      },
    });
    const final = counts.at(-1)?.by ?? new Map<number, number>();
    const shown = new Map<number, number>();
    for (const [airline, n] of final) {
      const first = counts.find((c) => (c.by.get(airline) ?? 0) >= n);
      if (first && n > 0) shown.set(airline, first.at);
    }
    return { result, requests, startedAt, shown };
  };

  return {
    plain: plain.fake,
    twin: twin.fake,
    existed,
    runPlain,
    close: () => {
      plain.fake.close();
      twin.fake.close();
    },
  };
};

/** Each airline's lateness (ms): when it was shown minus when its offers existed; an airline never shown is `Infinity`. */
export const lateness = (existed: AirlineTimes, shown: AirlineTimes): Map<number, number> =>
  new Map([...existed].map(([airline, at]) => [airline, (shown.get(airline) ?? Number.POSITIVE_INFINITY) - at]));
