/**
 * Every member as the upstream wrote it (issue 28), through the proxy path: an upstream answer read with
 * `readUpstreamAnswer` and written back by the service's writers (`snapshotToEnvelope`, and the Mode A and B
 * writers it uses). Each case is a synthetic answer built to the numbers real answers showed; where the spec's
 * rules and the upstream disagree (`TempoTotalStr`), decisions.md's rule is kept and pinned.
 */
import { describe, expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import type { Offer } from "../../src/domain/offer.js";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot } from "../../src/engine/snapshot.js";
import { ModeAEnvelopeSchema, ModeBEnvelopeSchema } from "../../src/envelope/envelope.js";
import { toWireSegment } from "../../src/envelope/mode-a.js";
import { toWireComparison, toWireSingleAirlineOffer } from "../../src/envelope/mode-b.js";
import type { ModeBOffer } from "../../src/envelope/mode-b-schema.js";
import { snapshotToEnvelope } from "../../src/envelope/to-envelope.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import type { SearchQuery } from "../../src/query/query.js";
import { readUpstreamAnswer } from "../../src/upstream/index.js";
import { envelopeA, envelopeB, groupA, legA, segmentA } from "./synthetic-answers.js";

type Json = Record<string, unknown>;

const ONE_ADULT = { adults: 1, children: 0, infants: 0 };

const read = (json: Json, sourceId = "s"): readonly Offer[] => {
  const answer = readUpstreamAnswer(json, { airports, sourceId });
  if (answer instanceof MalformedPayload) throw new Error(answer.detail);
  return answer.offers;
};

/** A single-airline answer proxied: read, then written as the service writes a single-airline search. */
const proxiedB = (offers: Json[], airlineId = 1): ModeBOffer[] => {
  const query: SearchQuery = { origin: "GRU", destination: "GIG", departureDate: "2025-08-01", passengers: ONE_ADULT, mode: { kind: "single-airline", airlineId } };
  const s = reduce(initialSnapshot(query, [{ id: "s", name: "S" }]), { type: "batch", sourceId: "s", offers: read(envelopeB(offers)) });
  const { body } = snapshotToEnvelope(s, { searchId: "b", requestId: "r", page: 1, pageSize: 10, airports });
  const parsed = ModeBEnvelopeSchema.parse(body);
  return parsed.Data[0]!.Ida;
};

const only = <T>(list: readonly T[]): T => {
  expect(list).toHaveLength(1);
  return list[0]!;
};

/** LATAM's cash LIGHT fare as its single-airline answers write it. */
const LATAM_FLIGHT = { Numero: "LA-3300", Saida: "2025-08-01T08:00:00", Chegada: "2025-08-01T09:05:00", Origem: "GRU", Destino: "GIG", Duracao: 0, Tempo: "01:05", TempoEspera: null, ClasseStr: "Economica" };
const latamCash = {
  Token: "la-cash",
  IdCia: 1,
  CiaParceira: { Id: 1, Nome: "LATAM", Iata: "LA" },
  PontosAdulto: -1,
  PontosCrianca: 0,
  QntdBagagem: 0,
  QtdBagagemInclusa: 0,
  Taxas: { Embarque: 60.62, EmbarqueChd: 0, Servico: 0, ServicoChd: 0 },
  Voos: [LATAM_FLIGHT],
  Tarifas: [
    {
      Tipo: "STANDARD",
      ValorAdulto: 712.9,
      ValorCrianca: 0,
      TaxaEmbarque: 0,
      Classe: "Economica",
      BagagensInclusas: [{ Bagagem: 1, TextoBagagem: "Até 1 bagagens para despachar", Quantidade: 1 }],
    },
  ],
  ValorAdulto: 712.9,
  ValorAdultoNaCia: 712.9,
  ValorTotal: 712.9,
  ValorTotalTaxas: 60.62,
  ValorTotalComTaxa: 773.52,
  TempoTotalStr: "01: 05",
  BagagensInclusas: [{ Bagagem: 1, TextoBagagem: "Até 1 bagagens para despachar", Quantidade: 1 }],
};

describe("members written as the upstream wrote them (single-airline answers, proxied)", () => {
  it("Tarifas[0].TaxaEmbarque: LATAM's 0 stays 0, while Taxas.Embarque and the totals carry the boarding fee", () => {
    const w = only(proxiedB([latamCash]));
    expect(w.Tarifas![0]).toMatchObject({ Tipo: "STANDARD", ValorAdulto: 712.9, ValorCrianca: 0, TaxaEmbarque: 0 });
    expect(w.Taxas.Embarque).toBe(60.62);
    expect([w.ValorTotal, w.ValorTotalTaxas, w.ValorTotalComTaxa]).toEqual([712.9, 60.62, 773.52]);
    // GOL writes them equal (the recorded answer): a listing equal to the fee is written as the fee.
    const gol = only(proxiedB([{ ...latamCash, Token: "g", IdCia: 2, CiaParceira: { Id: 2, Nome: "Gol", Iata: "G3" }, Voos: [{ ...LATAM_FLIGHT, Numero: "G3-2053" }], Tarifas: [{ ...latamCash.Tarifas[0], TaxaEmbarque: 60.62 }] }], 2));
    expect([gol.Tarifas![0]!.TaxaEmbarque, gol.Taxas.Embarque]).toEqual([60.62, 60.62]);
  });

  it("QtdBagagemInclusa and QntdBagagem: 0 as written beside a listed checked bag, which the fare still counts", () => {
    const [offer] = read(envelopeB([latamCash]));
    expect(offer!.baggage.checked).toBe(1);
    const w = only(proxiedB([latamCash]));
    expect([w.QntdBagagem, w.QtdBagagemInclusa]).toEqual([0, 0]);
    expect(w.BagagensInclusas).toEqual(latamCash.BagagensInclusas);
    // A source that writes the counts gets them back; one that writes none gets the checked bags.
    expect(only(proxiedB([{ ...latamCash, QntdBagagem: 2, QtdBagagemInclusa: 1 }])).QtdBagagemInclusa).toBe(1);
    const { QntdBagagem: _a, QtdBagagemInclusa: _b, ...silent } = latamCash;
    expect(only(proxiedB([silent])).QtdBagagemInclusa).toBe(1);
  });

  /** LATAM Pass award seat: the offer's ValorAdulto is what its points are worth; the family lists its own fare. */
  const latamAward = (servico: number) => ({
    ...latamCash,
    Token: `la-award${servico}`,
    PontosAdulto: 15_400,
    PontosCrianca: 0,
    Taxas: { Embarque: 60.62, EmbarqueChd: 0, Servico: servico, ServicoChd: 0 },
    Tarifas: [{ ...latamCash.Tarifas[0], Tipo: "LIGHT", ValorAdulto: 598.9, TaxaEmbarque: 0 }],
    ValorAdulto: 286.85,
    ValorAdultoNaCia: 598.9,
    ValorTotal: 286.85,
    ValorTotalTaxas: 60.62,
    ValorTotalComTaxa: 347.47,
    TempoTotalStr: "01h 05m",
  });

  it("award offers: Tarifas[0].ValorAdulto is the family's listed fare (598.90), not the offer's ValorAdulto (286.85)", () => {
    const w = only(proxiedB([latamAward(0)]));
    expect(w.Tarifas![0]).toMatchObject({ Tipo: "LIGHT", ValorAdulto: 598.9, TaxaEmbarque: 0 });
    expect([w.ValorAdulto, w.ValorAdultoNaCia, w.ValorTotalComTaxa, w.PontosAdulto]).toEqual([286.85, 598.9, 347.47, 15_400]);
  });

  it("Taxas.Servico on award offers: -10 and +25 written as they came, charging nothing (ValorTotalTaxas = Embarque)", () => {
    for (const servico of [-10, 25]) {
      const [offer] = read(envelopeB([latamAward(servico)]));
      expect(offer!.discount?.amount.amount).toBe(0);
      expect(offer!.total.amount).toBe(34_747);
      const w = only(proxiedB([latamAward(servico)]));
      expect([w.Taxas.Servico, w.Taxas.Embarque, w.ValorTotalTaxas, w.ValorTotalComTaxa, w.ValorTxServico]).toEqual([servico, 60.62, 60.62, 347.47, 0]);
    }
  });

  it("Voos[].Numero: Livelo's G31660 stays G31660, GOL's G3-2053 stays G3-2053; FlightCode runs the flights together", () => {
    const livelo = { ...latamAward(0), Token: "lv", IdCia: 34, CiaParceira: { Id: 2, Nome: "Gol", Iata: "G3" }, Tarifas: null, Voos: [{ ...LATAM_FLIGHT, Numero: "G31660" }] };
    const [w] = proxiedB([livelo], 34);
    expect([w!.Voos[0]!.Numero, w!.FlightCode]).toEqual(["G31660", "G31660"]);
    const gol = only(proxiedB([{ ...latamCash, Token: "g", IdCia: 2, Voos: [{ ...LATAM_FLIGHT, Numero: "G3-2053" }] }], 2));
    expect([gol.Voos[0]!.Numero, gol.FlightCode]).toEqual(["G3-2053", "G32053"]);
  });

  it("a connection: TempoEspera on the flight before it as 01h 05m, null on the last; FlightCode G31323G39168 without '/'", () => {
    const voos = [
      { ...LATAM_FLIGHT, Numero: "G3-1323", Saida: "2025-08-01T11:00:00", Chegada: "2025-08-01T12:20:00", Destino: "CGH", TempoEspera: "01h 05m" },
      { ...LATAM_FLIGHT, Numero: "G3-9168", Saida: "2025-08-01T13:25:00", Chegada: "2025-08-01T14:30:00", Origem: "CGH", TempoEspera: null },
    ];
    const w = only(proxiedB([{ ...latamCash, Token: "c", IdCia: 2, CiaParceira: { Id: 2, Nome: "Gol", Iata: "G3" }, Voos: voos, TempoTotalStr: "03: 30" }], 2));
    expect(w.Voos.map((v) => [v.Numero, v.TempoEspera])).toEqual([
      ["G3-1323", "01h 05m"],
      ["G3-9168", null],
    ]);
    expect(w.FlightCode).toBe("G31323G39168");
    // decisions.md: TempoTotalStr is `<HH>h <MM>m` in what we produce, though this upstream wrote `03: 30`.
    expect([w.TempoTotalStr, w.Duracao]).toEqual(["03h 30m", 210]);
  });

  it("TempoTotalStr of a 10 h 35 min trip: 10h 35m (decisions.md's format), whether the upstream wrote 10: 35 or 10h 35m", () => {
    const long = (text: string) => ({ ...latamCash, Token: text, Voos: [{ ...LATAM_FLIGHT, Chegada: "2025-08-01T18:35:00", Tempo: "10:35" }], TempoTotalStr: text });
    for (const text of ["10: 35", "10h 35m"]) expect(only(proxiedB([long(text)])).TempoTotalStr).toBe("10h 35m");
  });

  it("PontosCrianca of a cash fare: LATAM's 0 stays 0, GOL's -1 stays -1", () => {
    expect(only(proxiedB([latamCash])).PontosCrianca).toBe(0);
    expect(only(proxiedB([{ ...latamCash, Token: "g", PontosCrianca: -1 }])).PontosCrianca).toBe(-1);
    expect(only(proxiedB([{ ...latamCash, Token: "n", PontosCrianca: null }])).PontosCrianca).toBe(-1);
  });

  it("Nome, Site and UrlPesquisa: null in a single-airline answer, as the upstream writes them; an agency's offer keeps them", () => {
    const w = only(proxiedB([latamCash]));
    expect([w.Nome, w.Site, w.UrlPesquisa]).toEqual([null, null, null]);
    const [agency] = read(envelopeB([{ ...latamCash, Nome: "Voaja", Site: "voaja.example", UrlPesquisa: "https://voaja.example/r" }]));
    expect(toWireSingleAirlineOffer(agency!, ONE_ADULT)).toMatchObject({ Nome: "Voaja", Site: "voaja.example", UrlPesquisa: "https://voaja.example/r" });
    // A comparison names its best offer's seller (spec 2.6), even an airline's own.
    const [own] = read(envelopeB([latamCash]));
    expect(toWireComparison({ id: own!.flightKey, main: own!, fareOptions: [], others: [], passengers: ONE_ADULT }).Nome).toBe(own!.seller.name);
  });
});

describe("members written as the upstream wrote them (Mode A)", () => {
  it("PontosCrianca of LATAM's cash segments: 0 as written (95 of them in the recorded CNF-SDU answer), GOL's -1", () => {
    const cash = (points: number, iata: string) =>
      groupA({
        validatingBy: { name: iata, iata },
        segments: [segmentA({ rateToken: `${iata}-cash`, FidelityProgram: iata === "LA" ? "LATAM" : "Gol", IdCiaResponsavel: iata === "LA" ? 1 : 2, PontosAdulto: -1, PontosCrianca: points, legs: [legA({ managedBy: { name: iata, iata } })] })],
      });
    const offers = read(envelopeA([cash(0, "LA"), cash(-1, "G3")]));
    expect(offers.map((o) => [toWireSegment(o, 0, 0).PontosAdulto, toWireSegment(o, 0, 0).PontosCrianca])).toEqual([
      [-1, 0],
      [-1, -1],
    ]);
  });
});

describe("the first answer of a legacy client's search (every group, no page asked)", () => {
  it("says 0 groups in 0 pages of 0, not a page size of 1 beside 0 pages", () => {
    const query: SearchQuery = { origin: "CNF", destination: "SDU", departureDate: "2026-12-20", passengers: ONE_ADULT, mode: { kind: "all-airlines" } };
    const s = initialSnapshot(query, [{ id: "s", name: "S" }]);
    const { body } = snapshotToEnvelope(s, { searchId: "b", requestId: "r", page: 1, pageSize: "all", airports });
    const parsed = ModeAEnvelopeSchema.parse(body);
    expect(parsed).toMatchObject({ Completed: false, TotalItens: 0, pagination: { currentPage: 1, pageSize: 0, totalPages: 0, totalItems: 0 } });
  });
});
