/**
 * Money the upstream sends signed, and sources that are not airlines: a seller's discount (`Taxas.Servico`
 * negative) is kept as a discount, so totals and the saving written match the wire to the centavo; Livelo
 * (34) is its own points programme and Interline (1200) its own source.
 */
import { describe, expect, it } from "vitest";
import { airlineById, AIRLINES, programmeSource } from "../../src/domain/airline.js";
import { savingPercent, serviceFeeOf, type Offer } from "../../src/domain/offer.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { toWireFlight } from "../../src/wire/mode-a.js";
import { ModeAFlightSchema } from "../../src/wire/mode-a-schema.js";
import { toWireSingleAirlineOffer } from "../../src/wire/mode-b.js";
import { ModeBOfferSchema } from "../../src/wire/mode-b-schema.js";
import { readUpstreamAnswer } from "../../src/wire/read/index.js";
import { envelopeA, envelopeB, groupA, offerB, segmentA, someAirports } from "./synthetic-answers.js";

const offersOf = (json: unknown): Offer[] => {
  const answer = readUpstreamAnswer(json, { airports: someAirports, sourceId: "up" });
  if (answer instanceof MalformedPayload) throw new Error(answer.detail);
  return [...answer.offers];
};

const family = { adults: 2, children: 1, infants: 0 };

/** An upstream offer for 2 adults and a child with an agency discount of R$ 5 per passenger. */
const discounted = offerB({
  IdCia: 2,
  ValorAdulto: 500,
  ValorCrianca: 400,
  ValorTotal: 1400,
  Taxas: { Embarque: 30, EmbarqueChd: 30, Servico: -5, ServicoChd: -5 },
  ValorTotalTaxas: 75,
  ValorTotalComTaxa: 1475,
  ValorAdultoNaCia: 600,
  // The airline: 600 per adult, scaled by the booking (1400 / 500), plus its boarding fees (90): 1770.
  PercentualEconomia: ((1770 - 1475) / 1770) * 100,
});

describe("a negative fee (agency discount)", () => {
  const [offer] = offersOf({ ...envelopeB([discounted]), Data: [{ TokenConsulta: "t", QntdAdulto: 2, QntdCrianca: 1, QntdBebe: 0, Ida: [discounted], Volta: [] }] });

  it("is kept as a discount in the domain, not clamped to 0", () => {
    expect(offer).toBeDefined();
    expect(offer?.total.amount).toBe(147_500);
    expect(offer?.taxes.amount).toBe(7_500);
    expect(serviceFeeOf(offer!)).toBe(-1_500);
    expect(offer?.fares.map((f) => [f.type, f.count, f.base.amount, f.taxes.amount, f.serviceFee?.amount])).toEqual([
      ["ADT", 2, 100_000, 5_000, -1_000],
      ["CHD", 1, 40_000, 2_500, -500],
    ]);
    expect(offer?.airlinePrice.amount).toBe(177_000);
  });

  it("is written back so that every money member matches the wire to the centavo", () => {
    const wire = toWireSingleAirlineOffer(offer!, family);
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    expect(wire.Taxas).toMatchObject({ Embarque: 30, EmbarqueChd: 30, Servico: -5, ServicoChd: -5 });
    expect(wire).toMatchObject({ ValorAdulto: 500, ValorCrianca: 400, ValorTotal: 1400, ValorTotalTaxas: 75, ValorTotalComTaxa: 1475, ValorAdultoNaCia: 600, ValorTxServico: -15 });
    expect(wire.PercentualEconomia).toBeCloseTo(discounted.PercentualEconomia as number, 10);
  });

  it("may exceed the fees: negative taxes, the fare and the saving still exact", () => {
    const big = offerB({ PontosAdulto: 20_000, Taxas: { Embarque: 10, Servico: -25 }, ValorAdulto: 300, ValorTotal: 300, ValorTotalTaxas: -15, ValorTotalComTaxa: 285, ValorAdultoNaCia: 400 });
    const [o] = offersOf(envelopeB([big]));
    expect([o?.total.amount, o?.taxes.amount, o?.fares[0]?.base.amount, serviceFeeOf(o!)]).toEqual([28_500, -1_500, 30_000, -2_500]);
    expect(o?.miles?.taxes.amount).toBe(-1_500);
    const wire = toWireSingleAirlineOffer(o!, { adults: 1, children: 0, infants: 0 });
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    expect(wire).toMatchObject({ ValorTotalComTaxa: 285, ValorTotalTaxas: -15, ValorTotal: 300, ValorAdultoNaCia: 400 });
    expect(wire.Taxas).toMatchObject({ Embarque: 10, Servico: -25 });
    expect(wire.PercentualEconomia).toBeCloseTo(((410 - 285) / 410) * 100, 10);
  });

  it("in Mode A (priceWithoutTax above priceWithTax) keeps the discount and the upstream's saving", () => {
    const group = groupA({ fareGroup: { currency: "BRL", priceWithTax: 290, priceWithoutTax: 300, priceInCompany: 400, percentualEconomia: 27.5, fares: [] }, segments: [segmentA()] });
    const [o] = offersOf(envelopeA([group]));
    expect([o?.total.amount, o?.taxes.amount]).toEqual([29_000, -1_000]);
    const wire = toWireFlight({ id: "g", airlineId: o!.airlineId, validatingCarrier: o!.validatingCarrier, outbound: [o!], passengers: { adults: 1, children: 0, infants: 0 } });
    expect(ModeAFlightSchema.parse(wire)).toEqual(wire);
    expect(wire.fareGroup).toMatchObject({ priceWithTax: 290, priceWithoutTax: 300, priceInCompany: 400 });
    expect(wire.fareGroup.percentualEconomia).toBeCloseTo(27.5, 10);
    expect(savingPercent(o!)).toBeCloseTo(27.5, 10);
  });
});

describe("Livelo (34) and Interline (1200)", () => {
  it("are known ids with their own names and programmes: Livelo is not GOL's Smiles", () => {
    expect(airlineById(34)).toMatchObject({ name: "Livelo", kind: "programme", programme: "Livelo" });
    expect(airlineById(1200)).toMatchObject({ name: "Interline", kind: "interline" });
    expect(airlineById(2)?.programme).toBe("Smiles");
    expect(programmeSource("livelo")?.id).toBe(34);
    expect(AIRLINES.filter((a) => a.iata === "G3").map((a) => a.id)).toEqual([2]);
  });

  it("reads a Livelo offer on a GOL flight as Livelo's: its id, its programme, its seller; GOL flies it", () => {
    const livelo = offerB({ IdCia: 34, CiaParceira: { Id: 2, Nome: "Gol", Iata: "G3" }, PontosAdulto: 25_000, Voos: [{ ...(offerB().Voos as object[])[0], Numero: "G3-2053" }] });
    const [o] = offersOf(envelopeB([livelo]));
    expect(o).toMatchObject({ airlineId: 34, validatingCarrier: { iata: "G3" }, miles: { programme: "Livelo", pointsAdult: 25_000 } });
    expect(o?.seller).toMatchObject({ id: "livelo", name: "Livelo", site: "livelo.com.br" });
    const wire = toWireSingleAirlineOffer(o!, { adults: 1, children: 0, infants: 0 });
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    // IdCia names the source; Cia the airline that flies it.
    expect([wire.IdCia, wire.Cia.Id, wire.Cia.Iata]).toEqual([34, 2, "G3"]);
    const [again] = offersOf(envelopeB([{ ...wire, Outros: undefined }]));
    expect(again).toMatchObject({ airlineId: 34, validatingCarrier: { iata: "G3" }, miles: { programme: "Livelo" } });
  });

  it("reads an Interline cash offer combining airlines as the interline source's", () => {
    const voo = (offerB().Voos as Record<string, unknown>[])[0]!;
    const interline = offerB({
      IdCia: 1200,
      Voos: [
        { ...voo, Numero: "LA-3000", Destino: "GIG", Chegada: "2025-08-01T11:25:00" },
        { ...voo, Numero: "G3-1000", Origem: "GIG", Destino: "GRU", Saida: "2025-08-01T13:00:00", Chegada: "2025-08-01T14:00:00" },
      ],
      Destino: "GRU",
    });
    const [o] = offersOf(envelopeB([interline]));
    expect(o).toMatchObject({ airlineId: 1200, validatingCarrier: { iata: "LA" }, seller: { id: "interline" } });
    expect(o?.miles).toBeUndefined();
    expect(o?.itinerary.legs.map((l) => l.carrier.iata)).toEqual(["LA", "G3"]);
  });
});
