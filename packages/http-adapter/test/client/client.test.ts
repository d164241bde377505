import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lastValueFrom, toArray } from "rxjs";
import { EnvelopeSchema, todayInSaoPaulo } from "@voar/core";
import { createSimulator, inProcessFetch } from "@voar/testing";
import { createClient, type Envelope, type FetchLike } from "../../src/fetch.js";
import { liveUpstream, TEST_NOW } from "../support/live-upstream.js";
import { miniService } from "../support/mini-service.js";

/** `YYYY-MM-DD` plus days, as the test computes it by hand. */
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const request = { Origem: "CNF", Destino: "SDU", Ida: "2026-09-15", Companhia: -1 };
const sources = () => createSimulator({ latencyMs: { latam: 1_000, gol: 2_000, azul: 3_000 }, batches: 1 }).sources;

/** Collects a search$ while moving virtual time. */
const collect = async (promise: Promise<Envelope[]>) => {
  let done = false;
  void promise.finally(() => (done = true));
  for (let t = 0; t < 120_000 && !done; t += 100) await vi.advanceTimersByTimeAsync(100);
  return promise;
};

describe("the client", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it.each(["poll", "sse", "auto"] as const)("transport %s: every snapshot's envelope, growing, the last complete and valid", async (transport) => {
    const service = miniService({ sources: sources() });
    const client = createClient({ baseUrl: "http://voar.test/api", token: "k", transport, fetch: inProcessFetch(service.app), validate: true });
    const envelopes = await collect(lastValueFrom(client.search$(request).pipe(toArray())));
    expect(envelopes.length).toBeGreaterThan(2);
    expect(envelopes.at(-1)).toMatchObject({ Success: true, Completed: true });
    expect(envelopes.slice(0, -1).every((e) => !e.Completed)).toBe(true);
    const totals = envelopes.map((e) => e.TotalItens);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    expect(envelopes.every((e) => EnvelopeSchema.safeParse(e).success)).toBe(true);
    expect(transport === "poll" ? service.stats.stream : service.stats.consultar).toBe(0);
  });

  it("auto falls back to polling when the server has no stream (404), even a real-shaped upstream", async () => {
    const upstream = liveUpstream({ auth: { tokens: ["k"] } });
    const client = createClient({ baseUrl: upstream.baseUrl, token: "k", fetch: upstream.fetch });
    const final = collect(client.searchAll(request).then((e) => [e]));
    const [last] = await final;
    expect(last).toMatchObject({ Success: true, Completed: true });
    expect(upstream.stats.searches).toBeGreaterThan(1);
    upstream.close();
  });

  it("sends a relative date (+N) as the date N days from today in São Paulo, over SSE and by polling", async () => {
    for (const transport of ["sse", "poll"] as const) {
      const bodies: unknown[] = [];
      const service = miniService({ sources: sources() });
      const fetch: FetchLike = (input, init) => (bodies.push(JSON.parse(String(init?.body))), inProcessFetch(service.app)(input, init));
      const client = createClient({ baseUrl: "http://voar.test/api", token: "k", transport, fetch });
      const last = await collect(client.searchAll({ Origem: "CNF", Destino: "SDU", Ida: "+30", Volta: "+37" }).then((e) => [e]));
      expect(last[0], transport).toMatchObject({ Success: true, Completed: true });
      expect(bodies[0], transport).toMatchObject({ Ida: addDays(todayInSaoPaulo(new Date(TEST_NOW)), 30), Volta: addDays(todayInSaoPaulo(new Date(TEST_NOW)), 37) });
    }
  });

  it("follows the server's ProximaConsultaMs when polling", async () => {
    const service = miniService({ sources: sources(), stream: false, nextPollMs: 700 });
    const at: number[] = [];
    const started = Date.now();
    const fetch: FetchLike = (input, init) => (at.push(Date.now() - started), inProcessFetch(service.app)(input, init));
    const client = createClient({ baseUrl: "http://voar.test/api", token: "k", transport: "poll", fetch });
    await collect(lastValueFrom(client.search$(request).pipe(toArray())));
    expect(at.slice(0, 4)).toEqual([0, 700, 1400, 2100]);
  });

  it("goes on by polling when the stream breaks mid-search", async () => {
    const service = miniService({ sources: sources(), breakStreamAfter: 2 });
    const client = createClient({ baseUrl: "http://voar.test/api", token: "k", fetch: inProcessFetch(service.app) });
    const envelopes = await collect(lastValueFrom(client.search$(request).pipe(toArray())));
    expect(envelopes.at(-1)).toMatchObject({ Completed: true });
    expect(service.stats.stream).toBe(1);
    expect(service.stats.consultar).toBeGreaterThan(0);
  });

  it("is an async iterator too, and searchAll resolves the final envelope", async () => {
    const service = miniService({ sources: sources() });
    const client = createClient({ baseUrl: "http://voar.test/api", token: "k", fetch: inProcessFetch(service.app) });
    const seen: boolean[] = [];
    const iterate = (async () => {
      for await (const e of client.search(request)) seen.push(e.Completed);
      return seen;
    })();
    await collect(iterate.then(() => []));
    expect(seen.at(-1)).toBe(true);
    const final = await collect(client.searchAll(request).then((e) => [e]));
    expect(final[0]).toMatchObject({ Completed: true });
  });

  it("fails with core's tagged errors: 401 AuthError, 400 BusinessError with the message, 429 RateLimited", async () => {
    const service = miniService({ sources: sources() });
    const anonymous = createClient({ baseUrl: "http://voar.test/api", transport: "poll", fetch: inProcessFetch(service.app) });
    await expect(anonymous.searchAll(request)).rejects.toMatchObject({ _tag: "AuthError" });
    const client = createClient({ baseUrl: "http://voar.test/api", token: "k", fetch: inProcessFetch(service.app) });
    await expect(client.searchAll({ ...request, Destino: "CNF" })).rejects.toMatchObject({ _tag: "BusinessError", message: expect.stringMatching(/Destino|destino/) });
    // A 429 that never ends: the client waits Retry-After a few times, then gives up with RateLimited.
    const limited: FetchLike = () => Promise.resolve(new Response(JSON.stringify({ Success: false, MensagemErro: "Devagar." }), { status: 429, headers: { "retry-after": "3" } }));
    const outcome = createClient({ baseUrl: "http://x/api", token: "k", fetch: limited }).searchAll(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await outcome).toMatchObject({ _tag: "RateLimited", retryAfterMs: 3000 });
  });

  it("unsubscribing aborts the stream in flight", async () => {
    const service = miniService({ sources: sources() });
    const signals: AbortSignal[] = [];
    const fetch: FetchLike = (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return inProcessFetch(service.app)(input, init);
    };
    const client = createClient({ baseUrl: "http://voar.test/api", token: "k", fetch });
    const got: Envelope[] = [];
    const sub = client.search$(request).subscribe((e) => got.push(e));
    await vi.advanceTimersByTimeAsync(1_100);
    expect(got.length).toBeGreaterThan(0);
    sub.unsubscribe();
    expect(signals.every((s) => s.aborted)).toBe(true);
    const count = got.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(got.length).toBe(count);
  });
});
