/**
 * The seller's fee as upstreams mean it (docs/wire-semantics.md): `Taxas.Servico` is a PERCENTAGE of the fare
 * without taxes, applied to cash fares (`ValorTotalTaxas = Embarque + ValorTotal x Servico / 100`) and not to
 * award fares (`ValorTotalTaxas = Embarque`). Synthetic answers built to those numbers, read and written back
 * in every shape: the boarding fees stay the boarding fees, the discount is a discount of its own, and no
 * saving is invented where the upstream says 0.
 */
import { describe, expect, it } from "vitest";
import { boardingTaxesOf, discountOf, savingPercent, serviceFeeOf, type Offer } from "../../src/domain/offer.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { toWireFlight } from "../../src/envelope/mode-a.js";
import { ModeAFlightSchema } from "../../src/envelope/mode-a-schema.js";
import { toWireComparison, toWireSingleAirlineOffer } from "../../src/envelope/mode-b.js";
import { ModeBOfferSchema } from "../../src/envelope/mode-b-schema.js";
import { readUpstreamAnswer } from "../../src/upstream/index.js";
import { envelopeB, offerB, someAirports } from "./synthetic-answers.js";

type Json = Record<string, unknown>;

const ONE_ADULT = { adults: 1, children: 0, infants: 0 };

const read = (json: unknown): Offer[] => {
  const answer = readUpstreamAnswer(json, { airports: someAirports, sourceId: "up" });
  if (answer instanceof MalformedPayload) throw new Error(answer.detail);
  return [...answer.offers];
};

const only = (json: unknown): Offer => {
  const [offer, ...rest] = read(json);
  if (!offer || rest.length > 0) throw new Error("expected exactly one offer");
  return offer;
};

/** A Mode A group of one offer, as the service writes it. */
const modeA = (offer: Offer) =>
  toWireFlight({ id: "g", airlineId: offer.airlineId, validatingCarrier: offer.validatingCarrier, outbound: [offer], passengers: ONE_ADULT });

const LATAM_FLIGHT = [
  { Numero: "LA-3300", Saida: "2025-08-01T10:00:00", Chegada: "2025-08-01T11:05:00", Origem: "GRU", Destino: "GIG", Duracao: 0, Tempo: "01:05", ClasseStr: "Economica" },
];

/** A LATAM cash offer with a 5 % seller's discount, as a real answer writes one. */
const latamCash = offerB({
  IdCia: 1,
  Voos: LATAM_FLIGHT,
  PontosAdulto: -1,
  Taxas: { Embarque: 60.62, EmbarqueChd: 0, Servico: -5, ServicoChd: 0 },
  Tarifas: [{ Tipo: "LIGHT", ValorAdulto: 3803.26, ValorCrianca: 0, TaxaEmbarque: 60.62, Classe: "Economica", BagagensInclusas: [] }],
  ValorAdulto: 3803.26,
  ValorAdultoNaCia: 3803.26,
  ValorTotal: 3803.26,
  // 60.62 + 3803.26 x -5 / 100
  ValorTotalTaxas: -129.543,
  ValorTotalComTaxa: 3673.717,
  ValorTxServico: 0,
  PercentualEconomia: 0,
});

describe("a cash fare with a seller's percentage discount (LATAM, Servico -5)", () => {
  const offer = only(envelopeB([latamCash]));

  it("reads the boarding fees as the boarding fees and the discount as a discount of its own: 5 %, R$ 190.16", () => {
    expect([offer.total.amount, offer.taxes.amount]).toEqual([367_372, -12_954]);
    expect(offer.discount).toEqual({ percent: 5, amount: { amount: 19_016, currency: "BRL" } });
    expect(discountOf(offer)).toEqual(offer.discount);
    expect(boardingTaxesOf(offer)).toBe(6_062);
    expect(serviceFeeOf(offer)).toBe(-19_016);
    expect(offer.total.amount - offer.taxes.amount).toBe(380_326);
  });

  it("invents no saving: the airline's price is the fare at the same taxes, PercentualEconomia 0 as the upstream says", () => {
    expect(offer.airlinePrice.amount).toBe(offer.total.amount);
    expect(savingPercent(offer)).toBe(0);
  });

  it("writes every Mode B member from it: Embarque 60.62, Servico -5, ValorTxServico 0, PercentualEconomia 0", () => {
    const wire = toWireSingleAirlineOffer(offer, ONE_ADULT);
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    expect(wire.Taxas).toMatchObject({ Embarque: 60.62, Servico: -5, EmbarqueChd: 0, ServicoChd: 0 });
    expect(wire.Tarifas?.[0]?.TaxaEmbarque).toBe(60.62);
    expect(wire).toMatchObject({
      ValorAdulto: 3803.26,
      ValorAdultoNaCia: 3803.26,
      ValorTotal: 3803.26,
      ValorTotalTaxas: -129.54,
      ValorTotalComTaxa: 3673.72,
      ValorTxServico: 0,
      PercentualEconomia: 0,
    });
    // The rule holds on what we write, to the centavo.
    expect(wire.ValorTotalTaxas).toBeCloseTo(wire.Taxas.Embarque + (wire.ValorTotal * wire.Taxas.Servico) / 100, 2);
  });

  it("writes Mode A without a saving: priceInCompany is priceWithTax, percentualEconomia 0", () => {
    const wire = modeA(offer);
    expect(ModeAFlightSchema.parse(wire)).toEqual(wire);
    expect(wire.fareGroup).toMatchObject({ priceWithTax: 3673.72, priceWithoutTax: 3803.26, priceInCompany: 3673.72, percentualEconomia: 0 });
  });

  it("reads back what it wrote with the same numbers", () => {
    const again = only(envelopeB([toWireSingleAirlineOffer(offer, ONE_ADULT)]));
    expect([again.total, again.taxes, again.discount, again.airlinePrice]).toEqual([offer.total, offer.taxes, offer.discount, offer.airlinePrice]);
  });
});

/** A GOL award offer whose seller sends a percentage the upstream does not apply to award fares. */
const golAward = offerB({
  IdCia: 2,
  Voos: [{ ...LATAM_FLIGHT[0], Numero: "G3-2053" }],
  PontosAdulto: 56_000,
  Taxas: { Embarque: 33.56, EmbarqueChd: 0, Servico: -5, ServicoChd: 0 },
  Tarifas: null,
  ValorAdulto: 1064.14,
  ValorAdultoNaCia: 1112.14,
  ValorTotal: 1064.14,
  ValorTotalTaxas: 33.56,
  ValorTotalComTaxa: 1097.7,
  ValorTxServico: 0,
  // (1112.14 + 33.56 - 1097.70) / (1112.14 + 33.56): 4.19 %
  PercentualEconomia: 4.189578423671118,
});

describe("an award fare with a percentage the upstream does not apply (GOL, Servico -5)", () => {
  const offer = only(envelopeB([golAward]));

  it("is charged no discount (its percentage kept, taking nothing off), its taxes are the boarding fees, and its saving is the upstream's 4.19 %", () => {
    expect(offer.miles?.pointsAdult).toBe(56_000);
    expect(offer.discount).toEqual({ percent: 5, amount: { amount: 0, currency: "BRL" } });
    expect(offer.fares.every((f) => f.serviceFee === undefined)).toBe(true);
    expect([offer.taxes.amount, boardingTaxesOf(offer), offer.airlinePrice.amount]).toEqual([3_356, 3_356, 114_570]);
    expect(savingPercent(offer)).toBeCloseTo(4.19, 2);
    expect(savingPercent(offer)).toBeCloseTo(golAward.PercentualEconomia as number, 10);
  });

  it("writes Mode B and Mode A with the upstream's figures, its Servico -5 as the upstream wrote it", () => {
    const b = toWireSingleAirlineOffer(offer, ONE_ADULT);
    expect(ModeBOfferSchema.parse(b)).toEqual(b);
    expect(b.Taxas).toMatchObject({ Embarque: 33.56, Servico: -5 });
    expect(b).toMatchObject({ ValorAdultoNaCia: 1112.14, ValorTotalTaxas: 33.56, ValorTotalComTaxa: 1097.7, ValorTxServico: 0 });
    expect(b.PercentualEconomia).toBeCloseTo(golAward.PercentualEconomia as number, 10);
    const a = modeA(offer);
    expect(a.fareGroup).toMatchObject({ priceWithTax: 1097.7, priceInCompany: 1145.7 });
    expect(a.fareGroup.percentualEconomia).toBeCloseTo(4.19, 2);
  });
});

describe("a discount for several passengers", () => {
  /** Two adults and a child, cash, 10 % off the fare: 2 x 500 + 400 = 1400 of fare, 140 off, 90 of boarding fees. */
  const family = offerB({
    IdCia: 2,
    Voos: [{ ...LATAM_FLIGHT[0], Numero: "G3-2053" }],
    Taxas: { Embarque: 30, EmbarqueChd: 30, Servico: -10, ServicoChd: -10 },
    Tarifas: [{ Tipo: "LIGHT", ValorAdulto: 500, ValorCrianca: 400, TaxaEmbarque: 30, Classe: "Economica", BagagensInclusas: [] }],
    ValorAdulto: 500,
    ValorCrianca: 400,
    ValorAdultoNaCia: 500,
    ValorTotal: 1400,
    ValorTotalTaxas: -50,
    ValorTotalComTaxa: 1350,
    PercentualEconomia: 0,
  });
  const json: Json = { ...envelopeB([family]), Data: [{ TokenConsulta: "t", QntdAdulto: 2, QntdCrianca: 1, QntdBebe: 0, Ida: [family], Volta: [] }] };
  const passengers = { adults: 2, children: 1, infants: 0 };
  const offer = only(json);

  it("shares the discount by fare and the boarding fees by passenger; each passenger type adds up", () => {
    expect(offer.discount).toEqual({ percent: 10, amount: { amount: 14_000, currency: "BRL" } });
    expect(offer.fares.map((f) => [f.type, f.count, f.base.amount, f.taxes.amount, f.serviceFee?.amount])).toEqual([
      ["ADT", 2, 100_000, 6_000 - 10_000, -10_000],
      ["CHD", 1, 40_000, 3_000 - 4_000, -4_000],
    ]);
    expect(savingPercent(offer)).toBe(0);
  });

  it("writes per-passenger boarding fees, the percentage for adults and children, and the totals", () => {
    const wire = toWireSingleAirlineOffer(offer, passengers);
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    expect(wire.Taxas).toMatchObject({ Embarque: 30, EmbarqueChd: 30, Servico: -10, ServicoChd: -10 });
    expect(wire).toMatchObject({ ValorAdulto: 500, ValorCrianca: 400, ValorTotal: 1400, ValorTotalTaxas: -50, ValorTotalComTaxa: 1350, ValorAdultoNaCia: 500, PercentualEconomia: 0, ValorTxServico: 0 });
  });
});

describe("a comparison whose seller discounts (Mode B with fare options and other sellers)", () => {
  const ota = (o: Json) => ({ ...latamCash, IdCia: 1, Nome: "Bilhete Facil", Site: "bilhetefacil.example", UrlPesquisa: "https://bilhetefacil.example/r", ...o });
  const main = only(envelopeB([ota({})]));
  const plusFare = 4000;
  const plus: Offer = {
    ...main,
    id: "up:plus",
    fareToken: "plus",
    fareFamily: "PLUS",
    bookingOption: "Tarifa PLUS",
    // 4000.00 of fare, 5 % off (200.00), 60.62 of boarding fees.
    total: { amount: 400_000 - 20_000 + 6_062, currency: "BRL" },
    taxes: { amount: 6_062 - 20_000, currency: "BRL" },
    discount: { percent: 5, amount: { amount: 20_000, currency: "BRL" } },
    fares: [{ type: "ADT", count: 1, base: { amount: 400_000, currency: "BRL" }, taxes: { amount: 6_062 - 20_000, currency: "BRL" }, serviceFee: { amount: -20_000, currency: "BRL" } }],
    airlinePrice: { amount: 400_000 - 20_000 + 6_062, currency: "BRL" },
  };
  const rival: Offer = { ...main, id: "up:rival", discount: undefined, seller: { kind: "ota", id: "ota:outra", name: "Outra", site: "outra.example", url: "https://outra.example/r" }, total: { amount: 370_000, currency: "BRL" } };
  const wire = toWireComparison({ id: main.flightKey, main, fareOptions: [plus], others: [rival], passengers: ONE_ADULT });

  it("writes the boarding fee of every fare as the boarding fee, and the discount as Servico", () => {
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    expect(wire.Taxas).toMatchObject({ Embarque: 60.62, Servico: -5 });
    expect(wire.Tarifas?.map((t) => [t.Tipo, t.ValorAdulto, t.TaxaEmbarque])).toEqual([
      ["LIGHT", 3803.26, 60.62],
      ["PLUS", plusFare, 60.62],
    ]);
    expect(wire.PercentualEconomia).toBe(0);
  });

  it("reads the fare option back with its own discount and the rival without the seller's", () => {
    const offers = read(envelopeB([wire]));
    const [again, option, other] = offers;
    expect(again?.discount).toEqual(main.discount);
    expect(option).toMatchObject({ total: plus.total, taxes: plus.taxes, discount: plus.discount, fareFamily: "PLUS" });
    expect(option?.fares[0]?.base.amount).toBe(400_000);
    expect(other).toMatchObject({ total: { amount: 370_000 }, taxes: { amount: 6_062 } });
    expect(other?.discount).toBeUndefined();
  });
});
