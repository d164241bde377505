/**
 * The whole proxy in front of a fake upstream that answers as the real deployment does, in virtual time:
 * a client of ours sends the recorded scenario's request to our Consultar endpoint and polls by Token; our
 * service searches the upstream through the configured upstream sources (`upstreamSourcesFor`, the fetch
 * build of the adapter) and answers. Asserted on what our client receives: the same offers at the same
 * totals as the upstream's final answer, fare family and baggage kept, the agency discount kept, Livelo as
 * its own programme, and the right error and retry semantics for a permission refusal, a server exception
 * and an empty result.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as fetchAdapter from "@voar/http-adapter/fetch";
import {
  SCENARIO_EPOCH,
  createFakeUpstream,
  createReplayUpstream,
  createSimulator,
  liveBackend,
  loadFixture,
  scenario,
  type FakeUpstream,
  type Fixture,
} from "@voar/testing";
import { createApp } from "../../src/app/create-app.js";
import { upstreamSourcesFor, type UpstreamAdapter } from "../../src/sources/upstream-sources.js";
import { consultar, memoryLogger, testConfig } from "../support/app.js";

/** A Mode B / single-airline offer as both the upstream and we write it (the members compared). */
interface WireOffer {
  readonly Token: string;
  readonly IdCia: number;
  readonly PontosAdulto: number;
  readonly ValorTotalComTaxa: number;
  readonly ValorAdulto: number;
  readonly ValorAdultoNaCia: number;
  readonly PercentualEconomia: number;
  readonly Site: string | null;
  readonly Taxas: { readonly Servico: number; readonly ServicoChd: number; readonly Embarque: number };
  readonly Voos: readonly { readonly Numero: string }[];
  /** `[0]` the offer's own fare; then the same seller's other fares of the flight, if any. */
  readonly Tarifas: readonly { readonly Tipo: string; readonly ValorTotalComTaxa?: number }[] | null;
  readonly BagagensInclusas: readonly { readonly Bagagem: number; readonly Quantidade: number }[] | null;
  readonly Outros?: readonly { readonly Site: string; readonly Valor: number }[];
}

const UPSTREAM = "http://fake-upstream.test/api";
const ACCOUNT = { username: "agencia", password: "segredo-da-agencia" };

/** The adapter's fetch build, every source talking to the fake upstream in process. */
const adapterOver = (upstream: FakeUpstream): UpstreamAdapter => ({
  createFanOutSources: (o) => fetchAdapter.createFanOutSources({ ...o, fetch: upstream.fetch, polling: { initialDelayMs: 250, maxDelayMs: 1_000 } }),
  createUpstreamSource: (o) => fetchAdapter.createUpstreamSource({ ...o, fetch: upstream.fetch, polling: { initialDelayMs: 250, maxDelayMs: 1_000 } }),
});

/** Our service configured with an upstream (as `voar-server` would be) in front of the given fake. */
const proxyOver = (upstream: FakeUpstream, more: { airlines?: number[]; maxAttempts?: number } = {}) => {
  const config = testConfig({
    upstream: { url: UPSTREAM, username: ACCOUNT.username, password: ACCOUNT.password, ...(more.airlines ? { airlines: more.airlines } : {}) },
    search: { maxAttempts: more.maxAttempts ?? 3 },
  });
  if (!config.upstream) throw new Error("the test configuration has an upstream");
  const sources = upstreamSourcesFor(config.upstream, adapterOver(upstream));
  const logs = memoryLogger();
  const app = createApp({ config, sources: sources.sources, logger: logs.logger });
  return { app, logs, close: sources.close };
};

/** Sends the body, then polls by Token every second (virtual time) until Completed; every answer. */
const searchToEnd = async (app: ReturnType<typeof createApp>, body: Record<string, unknown>) => {
  const answers = [await consultar(app, body)];
  for (let i = 0; i < 300 && !answers.at(-1)!.body.Completed; i++) {
    await vi.advanceTimersByTimeAsync(1_000);
    answers.push(await consultar(app, { Token: answers[0]!.body.Token }));
  }
  return answers;
};

/** The upstream's last search answer in the fixture: what a client of the upstream itself ends with. */
const upstreamFinal = (fixture: Fixture): { Ida: readonly WireOffer[] } => {
  const last = fixture.exchanges.filter((e) => e.request.path.endsWith("/Consultar")).at(-1)!;
  return (last.response.json as { Data: [{ Ida: WireOffer[] }] }).Data[0];
};

const checkedBags = (o: WireOffer) => (o.BagagensInclusas ?? []).filter((b) => b.Bagagem !== 0).reduce((n, b) => n + b.Quantidade, 0);
const family = (o: WireOffer) => o.Tarifas?.[0]?.Tipo ?? null;

/** What a buyer compares of an offer: flights, programme, price in points and money, fare family, bags. */
const buyerView = (o: WireOffer) =>
  [o.Voos.map((v) => v.Numero).join(" "), o.IdCia, o.PontosAdulto, o.ValorTotalComTaxa.toFixed(2), o.ValorAdulto.toFixed(2), o.Taxas.Servico.toFixed(2), family(o), checkedBags(o)].join(" | ");

const sorted = (xs: readonly string[]) => [...xs].sort();

/** The members real answers write their own way (issue 28), by fare token: ours must be the upstream's. */
const asWritten = (list: readonly WireOffer[]) =>
  new Map(
    (list as readonly (WireOffer & Record<string, unknown>)[]).map((o) => [
      o.Token,
      {
        Voos: (o.Voos as readonly Record<string, unknown>[]).map((v) => [v.Numero, v.TempoEspera]),
        ...Object.fromEntries(["FlightCode", "QntdBagagem", "QtdBagagemInclusa", "PontosCrianca", "Nome", "Site", "UrlPesquisa"].map((k) => [k, o[k]])),
        TaxaEmbarque: o.Tarifas?.[0] ? (o.Tarifas[0] as Record<string, unknown>).TaxaEmbarque : null,
        Servico: o.Taxas.Servico,
      },
    ]),
  );

beforeEach(() => vi.useFakeTimers({ now: SCENARIO_EPOCH }));
afterEach(() => vi.useRealTimers());

describe("our proxy in front of an upstream answering as the real one (recorded scenarios)", () => {
  it("fare families: the same offers at the same totals, each with its fare family and its bags", async () => {
    const fixture = loadFixture("fare-families");
    const upstream = createReplayUpstream(fixture, { auth: { accounts: [ACCOUNT] } });
    const proxy = proxyOver(upstream);
    const answers = await searchToEnd(proxy.app, scenario("fare-families").request);
    const last = answers.at(-1)!;
    expect(last.body).toMatchObject({ Success: true, Completed: true });
    const ours = last.body.Data[0].Ida as unknown as readonly WireOffer[];
    const theirs = upstreamFinal(fixture).Ida;
    expect(sorted(ours.map(buyerView))).toEqual(sorted(theirs.map(buyerView)));
    // Flight numbers, connection waits, bag counts, child points, the seller (none: Nome and Site null) as the upstream wrote them.
    expect(asWritten(ours)).toEqual(asWritten(theirs));
    expect(ours.every((o) => o.Site === null)).toBe(true);
    // The same flight at several prices is told apart by its family and bags, as the upstream told it.
    const families = new Set(ours.map(family).filter((f) => f !== null));
    expect(families).toEqual(new Set(["LIGHT", "PLUS", "MAX"]));
    expect(new Set(ours.filter((o) => o.Tarifas).map(checkedBags))).toEqual(new Set([0, 1, 2]));
    expect(answers[0]!.body.Completed).toBe(false); // progressive: the first answer came before the upstream's end
    await proxy.close();
    upstream.close();
  });

  it("agency discount: a negative Servico stays a discount; totals and PercentualEconomia match the wire to the centavo", async () => {
    const fixture = loadFixture("agency-discount");
    const upstream = createReplayUpstream(fixture, { auth: { accounts: [ACCOUNT] } });
    const proxy = proxyOver(upstream);
    const last = (await searchToEnd(proxy.app, scenario("agency-discount").request)).at(-1)!;
    expect(last.body).toMatchObject({ Success: true, Completed: true });
    // Every seller's price of a flight: the main offer, its own other fares (Tarifas[1..]) and other sellers' (Outros).
    const offersOf = (list: readonly WireOffer[]) =>
      list.flatMap((o) => {
        const flights = o.Voos.map((v) => v.Numero).join(" ");
        return [
          `${flights} | ${o.Site} | ${o.ValorTotalComTaxa.toFixed(2)}`,
          ...(o.Tarifas ?? []).slice(1).map((t) => `${flights} | ${o.Site} | ${t.ValorTotalComTaxa?.toFixed(2)}`),
          ...(o.Outros ?? []).map((x) => `${flights} | ${x.Site} | ${x.Valor.toFixed(2)}`),
        ];
      });
    const ours = last.body.Data[0].Ida as unknown as readonly WireOffer[];
    const theirs = upstreamFinal(fixture).Ida;
    // Every seller's price the upstream showed reaches our client (main offers and their Outros together).
    expect(new Set(offersOf(ours))).toEqual(new Set(offersOf(theirs)));
    const discounted = ours.filter((o) => o.Taxas.Servico < 0);
    expect(discounted.length).toBeGreaterThan(0);
    const byKey = new Map(theirs.map((o) => [`${o.Voos.map((v) => v.Numero).join(" ")}|${o.Site}`, o]));
    for (const o of ours) {
      const wire = byKey.get(`${o.Voos.map((v) => v.Numero).join(" ")}|${o.Site}`);
      if (!wire) continue;
      expect([o.Taxas.Servico, o.Taxas.ServicoChd, o.ValorTotalComTaxa, o.ValorAdulto, o.ValorAdultoNaCia]).toEqual([
        wire.Taxas.Servico,
        wire.Taxas.ServicoChd,
        wire.ValorTotalComTaxa,
        wire.ValorAdulto,
        wire.ValorAdultoNaCia,
      ]);
      expect(o.PercentualEconomia).toBeCloseTo(wire.PercentualEconomia, 2);
    }
    await proxy.close();
    upstream.close();
  });

  it("Livelo (34): its own programme and points, the flying airline beside it", async () => {
    const fixture = loadFixture("livelo");
    const upstream = createReplayUpstream(fixture, { auth: { accounts: [ACCOUNT] } });
    const proxy = proxyOver(upstream);
    const last = (await searchToEnd(proxy.app, scenario("livelo").request)).at(-1)!;
    expect(last.body).toMatchObject({ Success: true, Completed: true });
    const ours = last.body.Data[0].Ida as unknown as readonly WireOffer[];
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.every((o) => o.IdCia === 34)).toBe(true);
    expect(sorted(ours.map(buyerView))).toEqual(sorted(upstreamFinal(fixture).Ida.map(buyerView)));
    expect(asWritten(ours)).toEqual(asWritten(upstreamFinal(fixture).Ida));
    expect(ours.every((o) => o.Site === null)).toBe(true);
    expect(last.body.Progresso.Fontes.map((f) => f.Nome)).toEqual([expect.stringMatching(/Livelo/)]);
    await proxy.close();
    upstream.close();
  });

  it("an empty result: completes with Success and nothing, the source done", async () => {
    const fixture = loadFixture("no-availability");
    const upstream = createReplayUpstream(fixture, { auth: { accounts: [ACCOUNT] } });
    // The recording asked Mode A as one request; the fan-out asks per airline: allow one airline.
    const proxy = proxyOver(upstream, { airlines: [1] });
    const last = (await searchToEnd(proxy.app, scenario("no-availability").request)).at(-1)!;
    expect(last.body).toMatchObject({ Success: true, Completed: true, TotalItens: 0 });
    expect(last.body.Progresso.Fontes).toEqual([expect.objectContaining({ Estado: "concluida", Itens: 0 })]);
    await proxy.close();
    upstream.close();
  });

  it("a permission refusal: 403 SEM_PERMISSAO, not retryable, asked once, none of the upstream's words", async () => {
    const fixture = loadFixture("permission-error");
    const upstream = createReplayUpstream(fixture, { auth: { accounts: [ACCOUNT] } });
    const proxy = proxyOver(upstream);
    const answers = await searchToEnd(proxy.app, scenario("permission-error").request);
    const last = answers.at(-1)!;
    expect(last.status).toBe(403);
    expect(last.body).toMatchObject({ Success: false, Completed: true, Erro: { Codigo: "SEM_PERMISSAO", Retentavel: false } });
    expect(last.body.Progresso.Fontes).toEqual([expect.objectContaining({ Estado: "falhou", Codigo: "SEM_PERMISSAO", Retentavel: false })]);
    expect(upstream.stats.searches).toBe(1);
    const upstreamWords = JSON.stringify(fixture.exchanges.at(-1)!.response.json);
    for (const answer of answers) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toMatch(/StackTrace|Consultas\.cs|FakeUpstream|ExceptionErro":\{/);
      expect(upstreamWords).toMatch(/Consultas\.cs/); // the fixture does carry them: the proxy dropped them
    }
    expect(proxy.logs.text()).toMatch(/permiss/); // the detail went to our log
    await proxy.close();
    upstream.close();
  });
});

describe("our proxy in front of an upstream that throws server exceptions", () => {
  /** A live fake upstream over the simulator; every search request from `from` on answers HTTP 500 with a .NET exception. */
  const failingUpstream = (from: number) =>
    createFakeUpstream({
      backend: liveBackend({ sources: createSimulator({ latencyMs: 500, batches: 1 }).sources }),
      auth: { accounts: [ACCOUNT] },
      faults: [{ at: from, through: "end", fault: { kind: "status", status: 500 } }],
    });

  it("is retried, then answers 502 FALHA_FORNECEDOR, retryable, without the exception's text; a client retry reaches the upstream again", async () => {
    const upstream = failingUpstream(1);
    const proxy = proxyOver(upstream, { airlines: [2], maxAttempts: 2 });
    const body = { Origem: "CNF", Destino: "GIG", Ida: "2026-09-15", Companhia: 2 };
    const answers = await searchToEnd(proxy.app, body);
    const last = answers.at(-1)!;
    expect(last.status).toBe(502);
    expect(last.body).toMatchObject({ Success: false, Completed: true, Erro: { Codigo: "FALHA_FORNECEDOR", Retentavel: true } });
    const asked = upstream.stats.searches;
    // Retried (the adapter's own bounded retries within each of the engine's 2 attempts), then given up.
    expect(asked).toBeGreaterThan(1);
    expect(asked).toBeLessThanOrEqual(8);
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toMatch(/StackTrace|Exception|at Voar|\.cs:line/);
    // The client tries again later: the failure is not replayed for the whole TTL, the upstream is asked again.
    await vi.advanceTimersByTimeAsync(60_000);
    const again = await searchToEnd(proxy.app, body);
    expect(again.at(-1)!.status).toBe(502);
    expect(upstream.stats.searches).toBeGreaterThan(asked);
    await proxy.close();
    upstream.close();
  });

  it("a transient exception is retried and the client gets the whole result", async () => {
    const upstream = createFakeUpstream({
      backend: liveBackend({ sources: createSimulator({ latencyMs: 500, batches: 1 }).sources }),
      auth: { accounts: [ACCOUNT] },
      faults: [{ at: 1, fault: { kind: "status", status: 500 } }],
    });
    const proxy = proxyOver(upstream, { airlines: [2] });
    const last = (await searchToEnd(proxy.app, { Origem: "CNF", Destino: "GIG", Ida: "2026-09-15", Companhia: 2 })).at(-1)!;
    expect(last.body).toMatchObject({ Success: true, Completed: true });
    expect((last.body.Data[0].Ida as unknown as readonly WireOffer[]).length).toBeGreaterThan(0);
    expect(last.body.Progresso.Fontes).toEqual([expect.objectContaining({ Estado: "concluida" })]);
    await proxy.close();
    upstream.close();
  });
});
