/**
 * The fake upstream's times that vary per search: draws per search, the same for two simulators with one seed,
 * tails and hangs, airlines switched on per route, slow answers, and what it tells of each airline's offers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { queryKey, type SearchQuery } from "@voar/core";
import { createFakeUpstream, createSimulator, liveBackend, sellingSwitch, variableLatency, type LiveSourceEvent } from "../../src/index.js";

const query = (day: string, origin = "GRU", destination = "SSA"): SearchQuery => ({ origin, destination, departureDate: day, passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } });

describe("airline times that vary per search", () => {
  it("draws each search's time from its distribution: ranges, a heavy tail, hangs", () => {
    const times = variableLatency({ seed: 3, sources: { latam: { ms: [1_000, 6_000] }, azul: { ms: 4_000, tail: { share: 1 / 7, upToMs: 50_000 } }, iberia: { ms: 45_000, hang: 0.25 } } });
    const draws = (id: string) => Array.from({ length: 700 }, (_, i) => times.latencyMs(id, query(`2027-01-${String(1 + (i % 28)).padStart(2, "0")}`)));
    const latam = draws("latam");
    expect(Math.min(...latam)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...latam)).toBeLessThanOrEqual(6_000);
    const azul = draws("azul");
    const tail = azul.filter((ms) => ms > 4_000).length / azul.length;
    expect(tail).toBeGreaterThan(0.1);
    expect(tail).toBeLessThan(0.19);
    const hangs = draws("iberia").filter((ms) => ms === Number.POSITIVE_INFINITY).length / 700;
    expect(hangs).toBeGreaterThan(0.2);
    expect(hangs).toBeLessThan(0.3);
    expect(draws("tap").every((ms) => ms === 1_000)).toBe(true);
  });

  it("two simulators with one seed draw the same times for the same sequence of searches: a plain client and the client under test see the same upstream", () => {
    const a = variableLatency({ seed: 9, sources: { gol: { ms: [5_000, 40_000] } } });
    const b = variableLatency({ seed: 9, sources: { gol: { ms: [5_000, 40_000] } } });
    const q = query("2027-02-01");
    expect([a.latencyMs("gol", q), a.latencyMs("gol", q)]).toEqual([b.latencyMs("gol", q), b.latencyMs("gol", q)]);
    expect(a.drawn().map((d) => [d.query, d.occurrence])).toEqual([[queryKey(q), 1], [queryKey(q), 2]]);
  });
});

describe("the live fake upstream with such times", () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2026, 11, 1, 12) }));
  afterEach(() => vi.useRealTimers());

  const ask = async (upstream: ReturnType<typeof createFakeUpstream>, body: unknown) =>
    (await (await upstream.fetch(`${upstream.baseUrl}/ConsultaAereo/Consultar`, { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as Record<string, unknown>;

  it("tells when each airline's offers existed, answers late when slow, and an airline switched off sells nothing until switched on", async () => {
    const events: LiveSourceEvent[] = [];
    const selling = sellingSwitch([{ sourceId: "azul", route: "GRU-SSA" }]);
    const simulator = createSimulator({ latencyMs: { latam: 2_000, gol: 3_000, azul: 1_000, iberia: 30_000 }, batches: 1, selling: selling.sells });
    const upstream = createFakeUpstream({ backend: liveBackend({ sources: simulator.sources, answerDelayMs: 5_000, onSourceEvent: (e) => events.push(e) }), auth: { tokens: ["k"] } });
    const body = { Origem: "GRU", Destino: "SSA", Ida: "2027-01-10", Adultos: 1, Companhia: -1 };
    const started = Date.now();
    const first = ask(upstream, body);
    await vi.advanceTimersByTimeAsync(5_000);
    // The answer left 5 s after the request, with what the search had then: LATAM (2 s) and GOL (3 s), Azul with nothing.
    const answer = await first;
    expect(answer["Completed"]).toBe(false);
    const done = (id: string) => events.find((e) => e.sourceId === id && e.kind === "done");
    expect(done("latam")).toMatchObject({ at: started + 2_000 });
    expect(done("latam")!.items).toBeGreaterThan(0);
    expect(done("azul")).toMatchObject({ at: started + 1_000, items: 0 });
    selling.turnOn("azul", "GRU-SSA");
    ask(upstream, { ...body, Ida: "2027-01-11" }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(events.find((e) => e.sourceId === "azul" && e.kind === "done" && e.at > started + 5_000)!.items).toBeGreaterThan(0);
    upstream.close();
  });

  it("an airline that hangs never answers: the upstream's own deadline ends its search", async () => {
    const simulator = createSimulator({ latencyMs: (id) => (id === "iberia" ? Number.POSITIVE_INFINITY : 500), batches: 1 });
    const upstream = createFakeUpstream({ backend: liveBackend({ sources: simulator.sources, deadlineMs: 90_000, policy: { timeoutMs: 120_000 } }), auth: { tokens: ["k"] } });
    const body = { Origem: "GRU", Destino: "MAD", Ida: "2027-01-10", Adultos: 1, Companhia: -1 };
    const lease = ((await ask(upstream, body))["ExErro"] as { Extensions: { LeaseId: string } }).Extensions.LeaseId;
    await vi.advanceTimersByTimeAsync(60_000);
    const running = await ask(upstream, { LeaseId: lease });
    expect(running["Completed"]).toBe(false);
    expect(JSON.stringify(running)).toMatch(/iberia/i);
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await ask(upstream, { LeaseId: lease }))["Completed"]).toBe(true);
    upstream.close();
  });
});
