import { beforeAll, expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import { savingPercent } from "../../src/domain/offer.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { readDurationText, readUpstreamAnswer, type UpstreamAnswer } from "../../src/upstream/index.js";
import { describeRecorded, loadRecorded, RECORDED } from "./recorded-answers.js";

interface RawVoo {
  Numero: string;
  Saida: string;
  Chegada: string;
  Duracao: number;
}
interface RawOffer {
  Token: string;
  Cia: unknown;
  CiaParceira: unknown;
  PontosAdulto: number;
  ValorTotalComTaxa: number;
  ValorTotalTaxas: number;
  PercentualEconomia: number;
  Duracao: number;
  TempoTotalStr: string;
  BagagensInclusas: { Bagagem: number; Quantidade: number }[];
  Voos: RawVoo[];
}
interface RawResult {
  TokenConsulta: string;
  Ida: RawOffer[];
  Volta: unknown[];
}

const SOURCE = "gol";

describeRecorded("recorded single-airline answer (GOL, Mode B shape)", () => {
  let raw: { TotalItens: number; Data: [RawResult] };
  let answer: UpstreamAnswer;
  const offerOf = (o: RawOffer) => {
    const offer = answer.offers.find((x) => x.id === `${SOURCE}:${o.Token}`);
    if (!offer) throw new Error(`no offer for ${o.Token}`);
    return offer;
  };

  beforeAll(() => {
    const json = loadRecorded(RECORDED.perAirlineGol);
    raw = json as typeof raw;
    const read = readUpstreamAnswer(json, { airports, sourceId: SOURCE });
    if (read instanceof MalformedPayload) throw new Error(read.message);
    answer = read;
  });

  it("yields 58 outbound offers, miles and cash, from an answer that says TotalItens 0", () => {
    expect(raw.TotalItens).toBe(0);
    expect(raw.Data[0].Volta).toEqual([]);
    expect(answer.offers).toHaveLength(58);
    expect(answer.totalItems).toBe(58);
    expect(answer.skipped.count).toBe(0);
    expect(answer.offers.every((o) => o.itinerary.direction === "outbound")).toBe(true);
    const miles = answer.offers.filter((o) => o.miles);
    expect(miles.length).toBe(raw.Data[0].Ida.filter((o) => o.PontosAdulto >= 0).length);
    expect(miles.length).toBeGreaterThan(0);
    expect(answer.offers.length - miles.length).toBeGreaterThan(0);
    expect(answer.searchToken).toBe(raw.Data[0].TokenConsulta);
  });

  it("knows the airline with Cia null, whether CiaParceira is filled or not", () => {
    const ida = raw.Data[0].Ida;
    expect(ida.every((o) => o.Cia === null)).toBe(true);
    expect(ida.some((o) => o.CiaParceira !== null) && ida.some((o) => o.CiaParceira === null)).toBe(true);
    for (const o of ida) {
      const offer = offerOf(o);
      expect(offer.airlineId).toBe(2);
      expect(offer.validatingCarrier.iata).toBe("G3");
      expect(offer.seller).toMatchObject({ kind: "airline", id: "gol" });
      if (offer.miles) expect(offer.miles.programme).toBe("Smiles");
    }
  });

  it("counts the checked bags BagagensInclusas lists", () => {
    const ida = raw.Data[0].Ida;
    for (const o of ida) {
      const checked = o.BagagensInclusas.filter((b) => b.Bagagem === 1).reduce((n, b) => n + b.Quantidade, 0);
      expect(offerOf(o).baggage.checked).toBe(checked);
    }
    expect(answer.offers.some((o) => o.baggage.checked > 0)).toBe(true);
  });

  it("splits Numero into carrier and flight number and keeps the local times", () => {
    for (const o of raw.Data[0].Ida) {
      const { itinerary } = offerOf(o);
      expect(itinerary.legs.map((l) => `${l.carrier.iata}-${l.flightNumber}`)).toEqual(o.Voos.map((v) => v.Numero));
      expect(itinerary.legs.map((l) => [l.departure, l.arrival])).toEqual(o.Voos.map((v) => [v.Saida, v.Chegada]));
    }
  });

  it("computes the durations the upstream left at zero, agreeing with TempoTotalStr in both of its formats", () => {
    const ida = raw.Data[0].Ida;
    expect(ida.every((o) => o.Duracao === 0)).toBe(true);
    expect(ida.some((o) => /^\d+h \d+m$/.test(o.TempoTotalStr))).toBe(true);
    expect(ida.some((o) => /^\d+:\s*\d+$/.test(o.TempoTotalStr))).toBe(true);
    for (const o of ida) {
      const { itinerary } = offerOf(o);
      expect(itinerary.durationMinutes).toBeGreaterThan(0);
      expect(readDurationText(o.TempoTotalStr)).toBe(itinerary.durationMinutes);
      expect(itinerary.legs.every((l) => l.durationMinutes > 0)).toBe(true);
    }
  });

  it("takes totals and taxes to the centavo, and the airline's price behind PercentualEconomia", () => {
    for (const o of raw.Data[0].Ida) {
      const offer = offerOf(o);
      expect(offer.total.amount).toBe(Math.round(o.ValorTotalComTaxa * 100));
      expect(offer.taxes.amount).toBe(Math.round(o.ValorTotalTaxas * 100));
      expect(offer.fares.reduce((s, f) => s + f.base.amount + f.taxes.amount, 0)).toBe(offer.total.amount);
      expect(savingPercent(offer)).toBeCloseTo(o.PercentualEconomia, 2);
    }
  });
});
