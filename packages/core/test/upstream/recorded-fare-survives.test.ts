/**
 * "Nothing of the fare lost", over the real upstream answers: the fare family and the bags a buyer needs
 * survive read -> domain -> write, and what the service writes is what the upstream said.
 */
import { beforeAll, expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import type { Offer } from "../../src/domain/offer.js";
import { groupKeyOf } from "../../src/engine/result-index.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { toWireFlight, toWireSegment } from "../../src/envelope/mode-a.js";
import { ModeASegmentSchema } from "../../src/envelope/mode-a-schema.js";
import { toWireSingleAirlineOffer } from "../../src/envelope/mode-b.js";
import { ModeBOfferSchema } from "../../src/envelope/mode-b-schema.js";
import { readUpstreamAnswer, type UpstreamAnswer } from "../../src/upstream/index.js";
import { describeRecorded, loadRecorded, RECORDED } from "./recorded-answers.js";

interface RawBag {
  Bagagem: number;
  TextoBagagem: string;
  Quantidade: number;
}
interface RawTarifa {
  Tipo: string;
  ValorAdulto: number;
  TaxaEmbarque: number;
  Classe: string;
  BagagensInclusas: RawBag[];
}
interface RawOffer {
  Token: string;
  QntdBagagem: number;
  QtdBagagemInclusa: number;
  PontosAdulto: number;
  Tarifas: RawTarifa[] | null;
  BagagensInclusas: RawBag[];
  Taxas: { Embarque: number; Servico: number };
  ValorAdulto: number;
  ValorAdultoNaCia: number;
  ValorTotal: number;
  ValorTotalComTaxa: number;
  ValorTotalTaxas: number;
  PercentualEconomia: number;
  FlightCode: string;
}

const read = (json: unknown, sourceId: string): UpstreamAnswer => {
  const answer = readUpstreamAnswer(json, { airports, sourceId });
  if (answer instanceof MalformedPayload) throw new Error(answer.detail);
  return answer;
};

const byToken = (answer: UpstreamAnswer, sourceId: string, token: string): Offer => {
  const offer = answer.offers.find((o) => o.id === `${sourceId}:${token}`);
  if (!offer) throw new Error(`no offer for ${token}`);
  return offer;
};

const ONE_ADULT = { adults: 1, children: 0, infants: 0 };

describeRecorded("recorded single-airline answer: fare family and baggage survive read -> domain -> write", () => {
  let ida: RawOffer[];
  let answer: UpstreamAnswer;
  beforeAll(() => {
    const raw = loadRecorded(RECORDED.perAirlineGol) as { Data: [{ Ida: RawOffer[] }] };
    ida = raw.Data[0].Ida;
    answer = read(raw, "gol");
  });

  it("reads each offer's fare family (Tarifas[].Tipo) and bags (BagagensInclusas), and writes them back as sent", () => {
    expect(ida.filter((o) => o.Tarifas !== null).length).toBeGreaterThan(40);
    for (const o of ida) {
      const offer = byToken(answer, "gol", o.Token);
      const checked = o.BagagensInclusas.filter((b) => b.Bagagem === 1).reduce((n, b) => n + b.Quantidade, 0);
      expect(offer.fareFamily).toBe(o.Tarifas?.[0]?.Tipo);
      expect(offer.baggage.checked).toBe(checked);
      expect(offer.baggage.cabin).toBe(1);
      const wire = toWireSingleAirlineOffer(offer, ONE_ADULT);
      expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
      expect(wire.BagagensInclusas).toEqual(o.BagagensInclusas);
      // The counts as the upstream wrote them (0), though a checked bag is listed.
      expect([wire.QntdBagagem, wire.QtdBagagemInclusa]).toEqual([o.QntdBagagem, o.QtdBagagemInclusa]);
      if (o.Tarifas === null) {
        expect(wire.Tarifas).toBeNull();
      } else {
        const [t] = o.Tarifas;
        expect(wire.Tarifas).toEqual([
          { SegmentClass: null, Tipo: t?.Tipo, ValorAdulto: t?.ValorAdulto, ValorCrianca: 0, TaxaEmbarque: t?.TaxaEmbarque, Classe: t?.Classe, BagagensInclusas: t?.BagagensInclusas },
        ]);
      }
    }
  });

  it("writes the money members meaning what the upstream means: one adult without taxes, totals to the centavo", () => {
    for (const o of ida) {
      const wire = toWireSingleAirlineOffer(byToken(answer, "gol", o.Token), ONE_ADULT);
      expect(wire.ValorAdulto).toBeCloseTo(o.ValorAdulto, 2);
      expect(wire.ValorAdultoNaCia).toBeCloseTo(o.ValorAdultoNaCia, 2);
      expect(wire.ValorTotal).toBeCloseTo(o.ValorTotal, 2);
      expect(wire.ValorTotalComTaxa).toBeCloseTo(o.ValorTotalComTaxa, 2);
      expect(wire.ValorTotalTaxas).toBeCloseTo(o.ValorTotalTaxas, 2);
      expect([wire.Taxas.Embarque, wire.Taxas.Servico]).toEqual([o.Taxas.Embarque, o.Taxas.Servico]);
      expect(wire.PercentualEconomia).toBeCloseTo(o.PercentualEconomia, 6);
    }
  });

  it("keeps one flight's LIGHT, PLUS and MAX fares apart, each showing its family and bags", () => {
    const cash = ida.filter((o) => o.FlightCode === "G32053" && o.PontosAdulto < 0);
    const offers = cash.map((o) => byToken(answer, "gol", o.Token));
    expect(offers.map((o) => [o.fareFamily, o.baggage.checked]).sort()).toEqual([
      ["LIGHT", 0],
      ["MAX", 2],
      ["PLUS", 1],
    ]);
    expect(new Set(offers.map((o) => o.flightKey)).size).toBe(1);
    expect(new Set(offers.map((o) => o.id)).size).toBe(3);
    // In an all-airlines answer they are three price groups, never one group mixing fares.
    expect(new Set(offers.map((o) => groupKeyOf("price-group", o))).size).toBe(3);
    expect(new Set(offers.map((o) => toWireSingleAirlineOffer(o, ONE_ADULT).Tarifas?.[0]?.Tipo)).size).toBe(3);
  });
});

interface RawFareGroup {
  priceWithTax: number;
  priceWithoutTax: number;
  priceInCompany: number;
  percentualEconomia: number;
}

interface RawSegment {
  rateToken: string;
  TokenConsultaMBX: string;
  fareProfile: {
    baggage: { quantity: number; texto: string; type: string; isIncluded: boolean } | null;
    services: { type: string; isIncluded: boolean; description: string; Number: number }[];
    fareFamily: string | null;
  };
}

describeRecorded("recorded Mode A answer: baggage, the search token and the group's money survive read -> domain -> write", () => {
  let segments: RawSegment[];
  let flights: { fareGroup: RawFareGroup; segments: RawSegment[] }[];
  let answer: UpstreamAnswer;
  beforeAll(() => {
    const raw = loadRecorded(RECORDED.modeAComplete) as { Data: [{ flights: { fareGroup: RawFareGroup; segments: RawSegment[] }[] }] };
    flights = raw.Data[0].flights;
    segments = flights.flatMap((f) => f.segments);
    answer = read(raw, "all");
  });

  it("writes each group's prices, airline price and saving as the upstream's own figures (Livelo's 0 included)", () => {
    expect(flights.some((f) => f.fareGroup.priceInCompany === 0)).toBe(true);
    for (const f of flights) {
      const outbound = f.segments.map((s) => byToken(answer, "all", s.rateToken));
      const first = outbound[0]!;
      const wire = toWireFlight({ id: "g", airlineId: first.airlineId, validatingCarrier: first.validatingCarrier, outbound, passengers: ONE_ADULT });
      expect(wire.fareGroup.priceWithTax).toBeCloseTo(f.fareGroup.priceWithTax, 2);
      expect(wire.fareGroup.priceWithoutTax).toBeCloseTo(f.fareGroup.priceWithoutTax, 2);
      expect(wire.fareGroup.priceInCompany).toBeCloseTo(f.fareGroup.priceInCompany, 2);
      expect(wire.fareGroup.percentualEconomia).toBeCloseTo(f.fareGroup.percentualEconomia, 2);
    }
  });

  it("writes every segment's checked baggage, carry-on service and fare family as the upstream sent them", () => {
    expect(segments.filter((s) => s.fareProfile.baggage !== null).length).toBeGreaterThan(100);
    for (const s of segments) {
      const offer = byToken(answer, "all", s.rateToken);
      const wire = toWireSegment(offer, 0, 0);
      expect(ModeASegmentSchema.parse(wire)).toEqual(wire);
      const bag = s.fareProfile.baggage;
      expect(wire.fareProfile.baggage).toEqual(bag === null ? null : { isIncluded: true, type: "CHECKED_BAGGAGE", quantity: bag.quantity, texto: bag.texto });
      expect(wire.fareProfile.services).toEqual(s.fareProfile.services);
      expect(wire.fareProfile.fareFamily).toBe(s.fareProfile.fareFamily);
    }
  });

  it("writes TokenConsultaMBX, the upstream's name of the search token, beside TokenConsultaSvc", () => {
    for (const s of segments) {
      const wire = toWireSegment(byToken(answer, "all", s.rateToken), 0, 0);
      expect(wire.TokenConsultaMBX).toBe(s.TokenConsultaMBX);
      expect(wire.TokenConsultaSvc).toBe(s.TokenConsultaMBX);
    }
  });
});
