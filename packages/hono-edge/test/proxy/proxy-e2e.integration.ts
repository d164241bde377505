/**
 * The proxy end to end, over real loopback sockets: the fake upstream (live, over the simulator) served by
 * @hono/node-server; our service whose one source is @voar/http-adapter's upstream source pointed at it;
 * the adapter's clients polling our Consultar endpoint and reading our SSE stream. Both get the complete
 * result. (Here rather than in http-adapter, which the service depends on: a test there needing the service
 * made the two packages depend on each other.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastValueFrom, toArray } from "rxjs";
import { search, snapshotToEnvelope, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createClient, createUpstreamSource, type Envelope, type UpstreamSource } from "@voar/http-adapter";
import { createFakeUpstream, createSimulator, liveBackend, serveOnNode, type FakeUpstream, type ServedOnNode } from "@voar/testing";
import { createApp, defineConfig, silentLogger } from "../../src/index.js";

/** A date `days` from today, `YYYY-MM-DD` (UTC). */
const daysAhead = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const agency = { username: "agencia", password: "segredo" };
const key = "e2e-key-0123456789";
const latencyMs = { latam: 300, gol: 700, azul: 1_100 };

let upstream: FakeUpstream;
let upstreamServer: ServedOnNode;
let service: ServedOnNode;
let source: UpstreamSource;

beforeAll(async () => {
  upstream = createFakeUpstream({
    backend: liveBackend({ sources: createSimulator({ latencyMs, batches: 2 }).sources }),
    auth: { accounts: [agency] },
  });
  upstreamServer = await serveOnNode(upstream.app.fetch);
  source = createUpstreamSource({
    baseUrl: `${upstreamServer.origin}/api`,
    credentials: agency,
    polling: { initialDelayMs: 100, maxDelayMs: 400 },
    connections: 4,
  });
  const app = createApp({ config: defineConfig({ apiKeys: [{ name: "e2e", key }], search: { pollHintMs: 200 } }), sources: [source], logger: silentLogger });
  service = await serveOnNode(app.fetch);
});

afterAll(async () => {
  await service.close();
  await source.close();
  await upstreamServer.close();
  upstream.close();
});

/** What the adapter finds on its own for a query, written as our envelope: the reference. */
const direct = async (query: SearchQuery) => {
  const own = createUpstreamSource({ id: "upstream", baseUrl: `${upstreamServer.origin}/api`, credentials: agency, polling: { initialDelayMs: 100, maxDelayMs: 400 } });
  const last = await lastValueFrom(search(query, [own]));
  await own.close();
  return snapshotToEnvelope(last, { searchId: null, requestId: "r", page: 1, pageSize: 100, airports }).body;
};

/** The offers of an answer as JSON text, without the freshness members (when each was seen: they differ by the time of the run). */
const flightsOf = (e: Envelope | { Data: unknown[] }) =>
  JSON.stringify((e.Data[0] as { flights?: unknown; Ida?: unknown }).flights ?? (e.Data[0] as { Ida?: unknown }).Ida, (k, v: unknown) =>
    k === "VistoEm" || k === "ValidoAte" ? undefined : v,
  );

/** Every Mode A segment of an answer. */
const segmentsOf = (e: Envelope) => ((e.Data[0] as { flights?: { segments: { VistoEm?: string; ValidoAte?: string }[] }[] }).flights ?? []).flatMap((f) => f.segments);

describe("our service proxying the fake upstream over loopback", () => {
  it("a client polling our endpoint gets the complete result", async () => {
    const date = daysAhead(30);
    const client = createClient({ baseUrl: `${service.origin}/api`, token: key, transport: "poll", validate: true });
    const envelopes = await lastValueFrom(client.search$({ Origem: "CNF", Destino: "SDU", Ida: date, QuantidadePorPagina: 100 }).pipe(toArray()));
    const last = envelopes.at(-1)!;
    expect(last).toMatchObject({ Success: true, Completed: true });
    expect(envelopes.length).toBeGreaterThan(1);
    const reference = await direct({ origin: "CNF", destination: "SDU", departureDate: date, passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } });
    expect(last.TotalItens).toBe(reference.TotalItens);
    expect(last.TotalItens).toBeGreaterThan(0);
    expect(flightsOf(last)).toBe(flightsOf(reference as Envelope));
    // Through the upstream adapter, every offer says when it was seen and until when it is current.
    const segments = segmentsOf(last);
    expect(segments.length).toBeGreaterThan(0);
    for (const s of segments) expect(Date.parse(s.ValidoAte!)).toBeGreaterThan(Date.parse(s.VistoEm!));
  });

  it("a client on our SSE stream gets the complete result", async () => {
    const date = daysAhead(31);
    const client = createClient({ baseUrl: `${service.origin}/api`, token: key, transport: "sse", validate: true });
    const envelopes = await lastValueFrom(client.search$({ Origem: "CNF", Destino: "SDU", Ida: date, Companhia: 1300 }).pipe(toArray()));
    const last = envelopes.at(-1)!;
    expect(last).toMatchObject({ Success: true, Completed: true });
    expect(envelopes.length).toBeGreaterThan(1);
    const reference = await direct({ origin: "CNF", destination: "SDU", departureDate: date, passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "ota-comparison" } });
    expect(last.TotalItens).toBe(reference.TotalItens);
    expect(flightsOf(last)).toBe(flightsOf(reference as Envelope));
  });

  it("auto picks our stream; the upstream saw one login for the whole session", async () => {
    const client = createClient({ baseUrl: `${service.origin}/api`, token: key });
    const last = await client.searchAll({ Origem: "CNF", Destino: "GIG", Ida: daysAhead(32), Companhia: 2 });
    expect(last).toMatchObject({ Completed: true, Success: true });
    expect(source.session.logins).toBe(1);
  });
});
