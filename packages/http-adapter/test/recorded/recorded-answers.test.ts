/**
 * Every real upstream answer in ../shared/recorded, served by the fake upstream, read by the adapter and
 * written back as our own envelope (core's snapshotToEnvelope): the same flights, prices, miles, legs and times.
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { MalformedPayload, readUpstreamAnswer, snapshotToEnvelope, type SearchQuery, type SearchSnapshot } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createFakeUpstream, type FakeUpstream } from "@voar/testing";
import { createFanOutSources, createUpstreamSource, searchRequestBody } from "../../src/fetch.js";
import { describeRecorded, loadRecorded, recordedFiles } from "../support/recorded.js";
import { runSearch } from "../support/run-search.js";

type Json = Record<string, unknown>;
const FILES = {
  modeA: "modeA-all-airlines-complete-CNF-SDU.json",
  firstPoll: "modeA-all-airlines-first-poll-CNF-GIG.json",
  gol: "per-airline-GOL-miles-and-cash-CNF-GIG.json",
  denied: "error-permission-denied.json",
  bodies: "request-bodies-seen-in-clients.json",
};

const query = (destination: string, departureDate: string, mode: SearchQuery["mode"]): SearchQuery => ({
  origin: "CNF",
  destination,
  departureDate,
  passengers: { adults: 1, children: 0, infants: 0 },
  mode,
});

/** A fake upstream answering the given bodies in turn (the last one repeated). */
const serving = (...answers: unknown[]): FakeUpstream => {
  let n = 0;
  return createFakeUpstream({
    backend: { answer: () => ({ status: 200, json: answers[Math.min(n++, answers.length - 1)] }), close: () => undefined },
    auth: { tokens: ["k"] },
  });
};

const ours = (s: SearchSnapshot) => snapshotToEnvelope(s, { searchId: "s", requestId: "r", page: 1, pageSize: 100, airports }).body as unknown as Json;

const legsOf = (legs: readonly Json[]) => legs.map((l) => `${String(l.flightNumber)}:${String(l.departure)}>${String(l.arrival)}@${String(l.departureDate)}/${String(l.arrivalDate)}`).join("+");
const cents = (v: unknown) => Math.round(Number(v) * 100);

/** Every Mode A segment as a traveller sees it: its legs and times, its group's price, its points. */
const modeASegments = (body: Json): string[] =>
  ((body.Data as Json[])[0]!.flights as Json[]).flatMap((f) =>
    (f.segments as Json[]).map((s) => `${legsOf(s.legs as Json[])}|${cents((f.fareGroup as Json).priceWithTax)}|${String(s.PontosAdulto)}`),
  );

/** Every Mode B offer as a traveller sees it: its flights and times, its total, its points. */
const modeBOffers = (body: Json): string[] =>
  ((body.Data as Json[])[0]!.Ida as Json[]).map(
    (o) => `${(o.Voos as Json[]).map((v) => `${String(v.Numero).replace("-", "")}:${String(v.Saida)}/${String(v.Chegada)}`).join("+")}|${cents(o.ValorTotalComTaxa)}|${String(o.PontosAdulto)}`,
  );

describeRecorded("the adapter on the real upstream answers", () => {
  let upstream: FakeUpstream | undefined;
  beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2025, 6, 1, 12) }));
  afterEach(() => {
    upstream?.close();
    vi.useRealTimers();
  });

  it("covers every recorded file", () => {
    expect(recordedFiles()).toEqual(Object.values(FILES).sort());
  });

  it("Mode A complete (CNF-SDU): every price group, leg, time, price and miles value reaches our envelope", async () => {
    const recorded = loadRecorded(FILES.modeA) as Json;
    upstream = serving(recorded);
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch: upstream.fetch });
    const run = await runSearch(query("SDU", "2025-07-20", { kind: "all-airlines" }), [source]);
    expect(run.last().sources[0]).toMatchObject({ state: "done" });
    const read = readUpstreamAnswer(recorded, { airports, sourceId: source.id });
    if (read instanceof MalformedPayload) throw read;
    expect(read.skipped.count).toBe(0);
    expect(run.offers().length).toBe(read.offers.length);
    const body = ours(run.last());
    expect(body).toMatchObject({ Success: true, Completed: true });
    expect(new Set(modeASegments(body))).toEqual(new Set(modeASegments(recorded)));
    expect(run.offers().some((o) => o.miles !== undefined) && run.offers().some((o) => o.miles === undefined)).toBe(true);
  });

  it("Mode A first poll (CNF-GIG): Completed false with ActiveProviders and no flight is polled again, not taken as the end", async () => {
    upstream = serving(loadRecorded(FILES.firstPoll), loadRecorded(FILES.modeA));
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch: upstream.fetch });
    const run = await runSearch(query("SDU", "2025-07-20", { kind: "all-airlines" }), [source]);
    expect(run.last().sources[0]).toMatchObject({ state: "done" });
    expect(upstream.stats.searches).toBe(2);
    expect(run.offers().length).toBeGreaterThan(0);
  });

  it("single airline GOL (CNF-GIG): miles and cash, Cia null with CiaParceira, TempoTotalStr 01h 05m, TotalItens 0", async () => {
    const recorded = loadRecorded(FILES.gol) as Json;
    upstream = serving(recorded);
    const [gol] = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch: upstream.fetch, airlines: [2] });
    const q = query("GIG", "2025-07-15", { kind: "single-airline", airlineId: 2 });
    const run = await runSearch(q, [gol!]);
    expect(run.last().sources[0]).toMatchObject({ state: "done" });
    const offers = run.offers();
    expect(offers.length).toBe((((recorded.Data as Json[])[0]!.Ida as unknown[]) ?? []).length);
    expect(offers.every((o) => o.validatingCarrier.iata === "G3" && o.itinerary.durationMinutes > 0)).toBe(true);
    expect(offers.some((o) => o.miles) && offers.some((o) => !o.miles)).toBe(true);
    expect(new Set(modeBOffers(ours(run.last())))).toEqual(new Set(modeBOffers(recorded)));
  });

  it("permission denied: HTTP 200 with Success false is PermissionDenied, asked once, answered SEM_PERMISSAO without the upstream's words", async () => {
    const raw = loadRecorded(FILES.denied) as Json;
    upstream = serving(raw);
    const inner = upstream.fetch;
    let searches = 0;
    const fetch: typeof inner = (input, init) => {
      if (String(input).endsWith("/Consultar")) searches++;
      return inner(input, init);
    };
    const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: { token: "k" }, fetch });
    const run = await runSearch(query("GIG", "2025-07-15", { kind: "single-airline", airlineId: 2 }), [source], { maxAttempts: 3 });
    expect(run.last().sources[0]).toMatchObject({ state: "failed", attempts: 1, error: { tag: "PermissionDenied", retryable: false } });
    expect(searches).toBe(1);
    const { status, body } = snapshotToEnvelope(run.last(), { searchId: "s", requestId: "r", page: 1, pageSize: 100, airports });
    expect(status).toBe(403);
    expect(body).toMatchObject({ Success: false, Erro: { Codigo: "SEM_PERMISSAO", Retentavel: false } });
    const text = JSON.stringify(body);
    expect(text).not.toContain(String(raw.MensagemErro));
    expect(text).not.toMatch(/StackTrace|\.cs:line|ConsultaAereoRegra/);
  });

  it("request bodies real clients send: ours has the same members, and polls with LeaseId", async () => {
    const { examples } = loadRecorded(FILES.bodies) as { examples: { body: Json }[] };
    const first = examples[0]!.body;
    const q = query(String(first.Destino), String(first.Ida), { kind: "all-airlines" });
    const { NumeroPagina: _p, QuantidadePorPagina: _q, ...plain } = searchRequestBody({ ...q, origin: String(first.Origem) }, 1, 100);
    expect(plain).toEqual(first);
    expect(examples.some((e) => Object.keys(e.body).join() === "LeaseId")).toBe(true);
  });
});
