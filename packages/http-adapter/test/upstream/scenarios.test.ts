/**
 * The adapter against the fake upstream replaying each shipped scenario, in virtual time: results complete
 * and correct, re-login, bounded retries, nothing lost when a poll fails and a later one succeeds.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FAKE_STACK_TRACE, createReplayUpstream, loadFixture, type FakeUpstream } from "@voar/testing";
import { SOURCE_FAILURE, type Offer } from "@voar/core";
import { createUpstreamSource, type UpstreamSource } from "../../src/fetch.js";
import { finalOffers, visible } from "../support/expected-offers.js";
import { runSearch } from "../support/run-search.js";
import { queryOf } from "../support/scenario-query.js";

const credentials = { username: "agencia", password: "segredo" };

const setup = (name: string, options: { readonly breaker?: false } = {}) => {
  const fixture = loadFixture(name);
  const upstream = createReplayUpstream(fixture);
  const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials, fetch: upstream.fetch, ...options });
  return { fixture, upstream, source, query: queryOf(fixture) };
};

const expectSameOffers = (actual: readonly { id: string }[], expected: readonly { id: string }[]) => {
  expect([...actual].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...expected].sort((a, b) => a.id.localeCompare(b.id)));
};

/**
 * Complete and correct: every offer of the final answer, equal; and nothing else but earlier views of the same
 * seller's same flight (in a round trip an alternative is read once per pairing, and pairings change as
 * returns arrive; results only grow, so the engine keeps the earlier reading too).
 */
const expectComplete = (actual: readonly Offer[], expected: readonly Offer[]) => {
  const got = new Map(actual.map((o) => [o.id, o]));
  for (const o of expected) expect(got.get(o.id)).toEqual(o);
  const who = (o: Offer) => `${o.seller.id}|${o.flightKey}|${o.miles ? "miles" : "cash"}`;
  const known = new Set(expected.map(who));
  expect(actual.filter((o) => !known.has(who(o)))).toEqual([]);
};

describe("the upstream source on each recorded scenario", () => {
  let upstream: FakeUpstream | undefined;
  let source: UpstreamSource | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(async () => {
    upstream?.close();
    await source?.close();
    vi.useRealTimers();
  });

  it.each(["mode-a-one-way", "mode-a-round-trip", "mode-b-alternatives", "single-airline-miles-and-cash"])(
    "%s: completes with exactly the upstream's final offers, each poll's news as one batch",
    async (name) => {
      const s = setup(name);
      ({ upstream, source } = s);
      const run = await runSearch(s.query, [s.source]);
      expect(run.last()).toMatchObject({ completed: true, completion: "finished" });
      expect(run.last().sources[0]).toMatchObject({ state: "done", attempts: 1 });
      const expected = finalOffers(s.fixture, s.source.id, s.query);
      expect(expected.length).toBeGreaterThan(0);
      expectComplete(run.offers(), expected);
      if (name !== "mode-a-round-trip") expectSameOffers(run.offers(), expected);
      const growth = run.snapshots.map((x) => x.sources[0]!.items);
      expect(new Set(growth).size).toBeGreaterThan(2);
      expect(s.upstream.stats.searches).toBe(s.fixture.exchanges.filter((e) => e.request.path.endsWith("/Consultar")).length);
    },
  );

  it("mode-a-round-trip: follows the upstream's ProximaConsultaMs pace", async () => {
    const s = setup("mode-a-round-trip");
    ({ upstream, source } = s);
    const started = Date.now();
    const at: number[] = [];
    const spy: typeof s.upstream.fetch = (input, init) => (at.push(Date.now() - started), s.upstream.fetch(input, init));
    const paced = createUpstreamSource({ baseUrl: s.upstream.baseUrl, credentials, fetch: spy, polling: { initialDelayMs: 200 } });
    await runSearch(s.query, [paced]);
    // Login and first request at 0, then every ProximaConsultaMs (1000 ms) although the backoff would start at 200 ms.
    expect(at).toEqual([0, 0, 1000, 2000, 3000, 4000]);
  });

  it("no-availability: completes with no flight, the source done", async () => {
    const s = setup("no-availability");
    ({ upstream, source } = s);
    const run = await runSearch(s.query, [s.source]);
    expect(run.last()).toMatchObject({ completed: true });
    expect(run.last().sources[0]).toMatchObject({ state: "done", items: 0 });
  });

  it("permission-error: the refusal fails the source at once, with the clean message and no stack trace", async () => {
    const s = setup("permission-error");
    ({ upstream, source } = s);
    const run = await runSearch(s.query, [s.source]);
    const progress = run.last().sources[0]!;
    expect(progress).toMatchObject({ state: "failed", attempts: 1, error: { tag: "PermissionDenied", retryable: false } });
    // Our catalogue's sentence, not the upstream's.
    expect(progress.error?.message).toBe(SOURCE_FAILURE.PermissionDenied.mensagem);
    expect(JSON.stringify(run.last().sources)).not.toMatch(/StackTrace|\.cs:line|\bat Voar\./);
    expect(s.upstream.stats.searches).toBe(1);
  });

  it("token-expiry-mid-search: a 401 makes it log in once more and go on, losing nothing", async () => {
    const s = setup("token-expiry-mid-search");
    ({ upstream, source } = s);
    const run = await runSearch(s.query, [s.source]);
    expect(run.last().sources[0]).toMatchObject({ state: "done", attempts: 1 });
    expect(s.source.session.logins).toBe(2);
    expect(s.upstream.stats.logins).toBe(2);
    expectSameOffers(run.offers(), finalOffers(s.fixture, s.source.id, s.query));
  });

  it("rate-limited: waits the Retry-After, then goes on to the complete result", async () => {
    const s = setup("rate-limited");
    ({ upstream, source } = s);
    const started = Date.now();
    const at: { t: number; status: number }[] = [];
    const spy: typeof s.upstream.fetch = async (input, init) => {
      const t = Date.now() - started;
      const res = await s.upstream.fetch(input, init);
      at.push({ t, status: res.status });
      return res;
    };
    const limited = createUpstreamSource({ baseUrl: s.upstream.baseUrl, credentials, fetch: spy });
    const run = await runSearch(s.query, [limited]);
    expect(run.last().sources[0]).toMatchObject({ state: "done" });
    const i = at.findIndex((x) => x.status === 429);
    expect(at[i + 1]!.t - at[i]!.t).toBeGreaterThanOrEqual(2_000);
    expectSameOffers(run.offers(), finalOffers(s.fixture, limited.id, s.query));
  });

  it("flaky-transport: a 503, a truncated body, a slow answer and a reset cost nothing: every offer arrives", async () => {
    const s = setup("flaky-transport");
    ({ upstream, source } = s);
    const run = await runSearch(s.query, [s.source]);
    expect(run.last().sources[0]).toMatchObject({ state: "done", attempts: 1 });
    expectSameOffers(run.offers(), finalOffers(s.fixture, s.source.id, s.query));
    expect(run.offers().map(visible).length).toBeGreaterThan(0);
    expect(JSON.stringify(run.snapshots.map((x) => x.sources))).not.toContain(FAKE_STACK_TRACE.slice(0, 30));
  });

  it("upstream-dies-mid-search: retries stop once the source's breaker opens, the source fails as unavailable, its partial results stay", async () => {
    const s = setup("upstream-dies-mid-search");
    ({ upstream, source } = s);
    const run = await runSearch(s.query, [s.source], { baseDelayMs: 100 });
    const progress = run.last().sources[0]!;
    // The engine's retry is declined by the breaker, opened by the third failed request in a row.
    expect(progress).toMatchObject({ state: "failed", attempts: 2, error: { tag: "SourceUnavailable", retryable: true, message: SOURCE_FAILURE.SourceUnavailable.mensagem } });
    expect(run.offers().length).toBeGreaterThan(0);
    expectSameOffers(run.offers(), finalOffers(s.fixture, s.source.id, s.query));
    // 2 good answers, then the failed poll and its 2 poll retries; nothing after the breaker opened.
    expect(s.upstream.stats.searches).toBe(2 + 3);
  });

  it("upstream-dies-mid-search, breaker off: every engine attempt polls and retries, as before", async () => {
    const s = setup("upstream-dies-mid-search", { breaker: false });
    ({ upstream, source } = s);
    const run = await runSearch(s.query, [s.source], { baseDelayMs: 100 });
    expect(run.last().sources[0]!).toMatchObject({ state: "failed", attempts: 3, error: { tag: "TransportError", retryable: true } });
    // 2 good answers, then per engine attempt the failed poll and its 2 poll retries: 2 + 3 x 3.
    expect(s.upstream.stats.searches).toBe(2 + 3 * 3);
  });
});
