import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lastValueFrom, map } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { request } from "undici";
import { MalformedPayload, readUpstreamAnswer, search, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import { consultarAnswers, createReplayUpstream, fixtureTimeline$, loadFixture, replayMockAgent, replaySource } from "../../src/index.js";

const query: SearchQuery = {
  origin: "CNF",
  destination: "SDU",
  departureDate: "2026-09-15",
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
};

const lastOffers = (name: string, sourceId: string) => {
  const read = readUpstreamAnswer(consultarAnswers(loadFixture(name)).filter((r) => r.status === 200).at(-1)!.json, { airports, sourceId, query });
  if (read instanceof MalformedPayload) throw read;
  return read.offers;
};

describe("replaying a fixture", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("serves the recorded answers in order over HTTP, and logs in anyone", async () => {
    const upstream = createReplayUpstream(loadFixture("rate-limited"));
    const form = new URLSearchParams({ grant_type: "password", username: "x", password: "y" }).toString();
    const login = await upstream.fetch(`${upstream.baseUrl}/Token`, { method: "POST", headers: { origin: "externo" }, body: form });
    const { access_token } = (await login.json()) as { access_token: string };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await upstream.fetch(`${upstream.baseUrl}/ConsultaAereo/Consultar`, { method: "POST", headers: { authorization: `Bearer ${access_token}` }, body: "{}" });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("retry-after")).toBe("2");
    }
    expect(statuses).toEqual([200, 429, 200, 200, 200]);
    expect(upstream.served()).toBe(5);
  });

  it("plays back as a core source: the search ends with the recorded final offers, at the recorded time", async () => {
    const source = replaySource(loadFixture("mode-a-one-way"));
    const done = lastValueFrom(search(query, [source]));
    await vi.advanceTimersByTimeAsync(10_000);
    const snapshot = await done;
    expect(snapshot).toMatchObject({ completed: true, completion: "finished" });
    const expected = lastOffers("mode-a-one-way", source.id);
    expect(snapshot.offers.size).toBe(expected.length);
    for (const o of expected) expect(snapshot.offers.get(o.id)).toEqual(o);
  });

  it("plays back failures as tagged errors, resumes after them on retry, and loses nothing", async () => {
    const source = replaySource(loadFixture("flaky-transport"));
    const done = lastValueFrom(search(query, [source], { maxAttempts: 5, baseDelayMs: 10 }));
    await vi.advanceTimersByTimeAsync(60_000);
    const snapshot = await done;
    expect(snapshot.sources[0]).toMatchObject({ state: "done", attempts: 4 });
    expect(snapshot.offers.size).toBe(lastOffers("flaky-transport", source.id).length);
  });

  it("plays back an upstream that died as a failed source that keeps its partial results", async () => {
    const source = replaySource(loadFixture("upstream-dies-mid-search"));
    const done = lastValueFrom(search(query, [source], { baseDelayMs: 10 }));
    await vi.advanceTimersByTimeAsync(60_000);
    const snapshot = await done;
    expect(snapshot.sources[0]).toMatchObject({ state: "failed", attempts: 3, error: { tag: "TransportError" } });
    expect(snapshot.offers.size).toBeGreaterThan(0);
  });

  it("replays as an undici MockAgent, delays and dropped connections included", async () => {
    const agent = replayMockAgent(loadFixture("flaky-transport"));
    const post = () => request("http://upstream.test/api/ConsultaAereo/Consultar", { method: "POST", body: "{}", dispatcher: agent });
    const token = await request("http://upstream.test/api/Token", { method: "POST", body: "", dispatcher: agent });
    expect(await token.body.json()).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    expect((await (await post()).body.json()) as object).toMatchObject({ Completed: false });
    const failed = await post();
    expect(failed.statusCode).toBe(503);
    await failed.body.dump();
    await expect(post()).rejects.toMatchObject({ code: "UND_ERR_SOCKET" });
    let slowDone = false;
    const slow = post().then((r) => ((slowDone = true), r));
    await vi.advanceTimersByTimeAsync(3_999);
    expect(slowDone).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await slow).statusCode).toBe(200);
    await (await slow).body.dump();
    await expect(post()).rejects.toMatchObject({ code: "UND_ERR_SOCKET" });
    const last = (await (await post()).body.json()) as { Completed: boolean };
    expect(last.Completed).toBe(true);
    expect(((await (await post()).body.json()) as { Completed: boolean }).Completed).toBe(true);
    await agent.close();
  });
});

describe("a fixture in virtual time", () => {
  it("emits each answer at its recorded arrival on a TestScheduler", () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ expectObservable }) => {
      const kinds = fixtureTimeline$(loadFixture("rate-limited"), scheduler).pipe(map((a) => (a.outcome.kind === "answer" ? (a.outcome.answer.completed ? "c" : "a") : "f")));
      expectObservable(kinds).toBe("a 999ms f 1999ms a 999ms (c|)");
    });
  });
});
