/**
 * The reader of successive answers gives, at every poll, exactly the offers core's reader gives for the
 * whole answer, while reading only the entries an earlier answer did not hold: on the answers of the live
 * fake upstream (captured poll by poll) and on the real recorded answers grown, reordered and changed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MalformedPayload, readUpstreamAnswer, type Offer, type ReadContext, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import type { FetchLike } from "../../src/fetch.js";
import { createFanOutSources, createUpstreamSource } from "../../src/fetch.js";
import { AnswerReader } from "../../src/upstream/answer-reader.js";
import { stableOfferIds } from "../../src/upstream/offer-identity.js";
import { describeRecorded, loadRecorded } from "../support/recorded.js";
import { agency, liveUpstream, testQuery, TEST_NOW } from "../support/live-upstream.js";
import { runSearch } from "../support/run-search.js";

type Json = Record<string, unknown>;

/** A fetch that keeps the parsed body of every answer to a search request. */
const capturing = (inner: FetchLike) => {
  const answers: unknown[] = [];
  const fetch: FetchLike = async (input, init) => {
    const response = await inner(input, init);
    if (String(input).endsWith("/Consultar")) answers.push(JSON.parse(await response.clone().text()));
    return response;
  };
  return { fetch, answers };
};

const offersOf = (read: ReturnType<typeof readUpstreamAnswer>): readonly Offer[] => {
  if (read instanceof MalformedPayload) throw read;
  return read.offers;
};

/** Feeds the answers in turn; at each, the offers must be those of the whole answer read afresh. */
const replay = (answers: readonly unknown[], ctx: ReadContext) => {
  const reader = new AnswerReader(ctx);
  let entries = 0;
  for (const json of answers) {
    const whole = readUpstreamAnswer(json, ctx);
    const mine = reader.read(json);
    expect(mine instanceof MalformedPayload).toBe(whole instanceof MalformedPayload);
    if (whole instanceof MalformedPayload) continue;
    expect(offersOf(mine)).toEqual(whole.offers);
    const said = (a: typeof whole) => [a.success, a.completed, a.leaseId, a.errorMessage, a.searchToken];
    expect(said(mine as typeof whole)).toEqual(said(whole));
    entries += entriesOf(json);
  }
  return { entriesRead: reader.entriesRead, entriesSent: entries };
};

/** Offer-list entries in an answer (`flights`, `Ida`, `Volta` of every item). */
const entriesOf = (json: unknown): number =>
  ((json as Json).Data as Json[]).reduce((n, item) => n + ["flights", "Ida", "Volta"].reduce((m, k) => m + (Array.isArray(item[k]) ? (item[k] as unknown[]).length : 0), 0), 0);

/** Entries of each answer that the previous answer did not hold in the same list (as JSON text). */
const newEntries = (answers: readonly unknown[]): number => {
  let before = new Map<string, Set<string>>();
  let n = 0;
  for (const json of answers) {
    const now = new Map<string, Set<string>>();
    ((json as Json).Data as Json[]).forEach((item, i) => {
      for (const k of ["flights", "Ida", "Volta"]) {
        if (!Array.isArray(item[k])) continue;
        const texts = (item[k] as unknown[]).map((e) => JSON.stringify(e));
        n += texts.filter((t) => !before.get(`${i}.${k}`)?.has(t)).length;
        now.set(`${i}.${k}`, new Set(texts));
      }
    });
    before = now;
  }
  return n;
};

describe("answers of the live fake upstream, poll by poll", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  const cases: [string, SearchQuery["mode"], "single" | "fan-out"][] = [
    ["Mode A round trip", { kind: "all-airlines" }, "single"],
    ["single-airline fan-out (Mode B shape)", { kind: "all-airlines" }, "fan-out"],
  ];
  it.each(cases)("%s: the same offers as reading each whole answer, reading each entry once", async (_, mode, how) => {
    const upstream = liveUpstream({ simulator: { latencyMs: { latam: 500, gol: 2_000, azul: 3_000 }, batches: 4 } });
    const spy = capturing(upstream.fetch);
    const options = { baseUrl: upstream.baseUrl, credentials: agency, fetch: spy.fetch };
    const query = testQuery(mode, "2026-09-20");
    const sources = how === "single" ? [createUpstreamSource(options)] : createFanOutSources({ ...options, airlines: [2], strategy: "fan-out" });
    const run = await runSearch(query, sources);
    expect(run.last().sources.every((s) => s.state === "done")).toBe(true);
    const answers = spy.answers.filter((a) => Array.isArray((a as Json).Data));
    // Answers accumulate: several polls, the later ones holding what the earlier ones did.
    expect(answers.length).toBeGreaterThan(2);
    const sourceId = sources[0]!.id;
    const forSource = how === "single" ? query : { ...query, mode: { kind: "single-airline" as const, airlineId: 2 } };
    const { entriesRead, entriesSent } = replay(answers, { airports, sourceId, query: forSource });
    const last = answers.at(-1)!;
    // The upstream sorts its lists by price, so earlier entries move: each entry is still read only once.
    expect(entriesRead).toBe(newEntries(answers));
    expect(entriesSent).toBeGreaterThan(entriesRead);
    // What the engine ends with: the offers of every poll's whole answer read afresh (the pages after the
    // first joining the last poll's batch), each in its last version.
    const batches: Offer[][] = [];
    for (const json of answers) {
      const offers = offersOf(readUpstreamAnswer(json, { airports, sourceId, query: forSource }));
      if (Number(((json as Json).pagination as Json | undefined)?.currentPage ?? 1) > 1) batches.at(-1)!.push(...offers);
      else batches.push([...offers]);
    }
    const expected = new Map<string, Offer>();
    for (const batch of batches) for (const o of stableOfferIds(batch)) expected.set(o.id, o);
    const priced = (offers: Iterable<Offer>) => new Map([...offers].map((o) => [o.id, o.total.amount]));
    expect(priced(run.offers())).toEqual(priced(expected.values()));
    expect(last).toBeDefined();
    upstream.close();
  });
});

describeRecorded("the recorded real answers grown, reordered and changed", () => {
  const ctx = (sourceId: string): ReadContext => ({ airports, sourceId });
  /** Successive answers made from a recorded one: its list growing, then reordered, then one entry repriced. */
  const progression = (json: Json, member: "flights" | "Ida"): Json[] => {
    const item = (json.Data as Json[])[0]!;
    const all = item[member] as Json[];
    const withList = (list: unknown[], completed: boolean): Json => ({ ...json, Completed: completed, Data: [{ ...item, [member]: list, ActiveProviders: completed ? [] : ["x"] }] });
    const third = Math.ceil(all.length / 3);
    const repriced = structuredClone(all);
    const first = repriced[0]!;
    if (member === "flights") (first.fareGroup as Json).priceWithTax = Number((first.fareGroup as Json).priceWithTax) + 10;
    else first.ValorTotal = Number(first.ValorTotal ?? 0) + 10;
    // Ids repeated within one entry (a group offering the same alternative twice) and across entries.
    const doubled = structuredClone(all[0]!);
    if (member === "flights") doubled.segments = [...(doubled.segments as unknown[]), ...(doubled.segments as unknown[])];
    const twoAdults = (a: Json): Json => ({ ...a, Data: [{ ...(a.Data as Json[])[0]!, QntdAdulto: 2 }] });
    return [
      withList([doubled, all[0]], false),
      withList([], false),
      withList(all.slice(0, third), false),
      withList(all.slice(0, 2 * third), false),
      withList(all, false),
      withList([...all].reverse(), false),
      withList(repriced, true),
      { ...withList(repriced, true), Token: "another-search-token" },
      twoAdults({ ...withList(repriced, true), Token: "another-search-token" }),
    ];
  };

  it("Mode A price groups: each answer's offers equal the whole answer's", () => {
    const answers = progression(loadRecorded("modeA-all-airlines-complete-CNF-SDU.json") as Json, "flights");
    const { entriesRead } = replay(answers, ctx("upstream"));
    // Each group read once as the list grew; once more the repriced one; all again under another token.
    const n = ((answers[4]!.Data as Json[])[0]!.flights as unknown[]).length;
    expect(entriesRead).toBe(2 + n + 1 + n + n);
  });

  it("single-airline offers (GOL, miles and cash): each answer's offers equal the whole answer's", () => {
    const answers = progression(loadRecorded("per-airline-GOL-miles-and-cash-CNF-GIG.json") as Json, "Ida");
    const { entriesRead } = replay(answers, ctx("upstream:gol"));
    const n = ((answers[4]!.Data as Json[])[0]!.Ida as unknown[]).length;
    expect(entriesRead).toBeLessThanOrEqual(2 + 3 * n + 1);
  });
});
