/**
 * Sources that are not airlines: Livelo (34) is its own points programme, whose award seats carry no airline
 * price and whose boarding fees are the upstream's, and Interline (1200) its own source. The seller's fee
 * rule itself is pinned in `seller-fee-rule.test.ts`.
 */
import { describe, expect, it } from "vitest";
import { airlineById, AIRLINES, programmeSource } from "../../src/domain/airline.js";
import { boardingTaxesOf, savingPercent, type Offer } from "../../src/domain/offer.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { toWireFlight } from "../../src/envelope/mode-a.js";
import { ModeAFlightSchema } from "../../src/envelope/mode-a-schema.js";
import { toWireSingleAirlineOffer } from "../../src/envelope/mode-b.js";
import { ModeBOfferSchema } from "../../src/envelope/mode-b-schema.js";
import { readUpstreamAnswer } from "../../src/upstream/index.js";
import { envelopeA, envelopeB, groupA, offerB, segmentA, someAirports } from "./synthetic-answers.js";

const offersOf = (json: unknown): Offer[] => {
  const answer = readUpstreamAnswer(json, { airports: someAirports, sourceId: "up" });
  if (answer instanceof MalformedPayload) throw new Error(answer.detail);
  return [...answer.offers];
};

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

  /** A Livelo award seat on a LATAM flight: no airline price (0), a seller's percentage the upstream does not apply to award fares. */
  const liveloAward = offerB({
    IdCia: 34,
    CiaParceira: { Id: 1, Nome: "LATAM", Iata: "LA" },
    Voos: [{ ...(offerB().Voos as object[])[0], Numero: "LA-3300" }],
    PontosAdulto: 11_200,
    Taxas: { Embarque: 81.55, EmbarqueChd: 0, Servico: 25, ServicoChd: 0 },
    Tarifas: null,
    ValorAdulto: 426.12,
    ValorAdultoNaCia: 0,
    ValorTotal: 426.12,
    ValorTotalTaxas: 81.55,
    ValorTotalComTaxa: 507.67,
    PercentualEconomia: 0,
  });

  it("reads a Livelo award seat with no airline price and the upstream's boarding fee, and writes them as sent", () => {
    const [o] = offersOf(envelopeB([liveloAward]));
    expect(o).toMatchObject({ airlineId: 34, miles: { programme: "Livelo", pointsAdult: 11_200 }, airlinePrice: { amount: 0 } });
    // The +25 % is not charged on an award fare: nothing off or on, the percentage kept to be written back.
    expect(o?.discount).toEqual({ percent: -25, amount: { amount: 0, currency: "BRL" } });
    expect([o?.total.amount, o?.taxes.amount, boardingTaxesOf(o!), savingPercent(o!)]).toEqual([50_767, 8_155, 8_155, 0]);
    const wire = toWireSingleAirlineOffer(o!, { adults: 1, children: 0, infants: 0 });
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    // Never an airline price the upstream did not give (the offer's own fare would read 451.12), never 56.55.
    expect(wire).toMatchObject({ ValorAdultoNaCia: 0, PercentualEconomia: 0, ValorAdulto: 426.12, ValorTotalTaxas: 81.55, ValorTotalComTaxa: 507.67 });
    expect([wire.Taxas.Embarque, wire.Taxas.Servico]).toEqual([81.55, 25]);
    const group = toWireFlight({ id: "g", airlineId: 34, validatingCarrier: o!.validatingCarrier, outbound: [o!], passengers: { adults: 1, children: 0, infants: 0 } });
    expect(group.fareGroup).toMatchObject({ priceWithTax: 507.67, priceInCompany: 0, percentualEconomia: 0 });
  });

  it("reads Mode A Livelo groups (priceInCompany 0) as having no airline price, and writes 0 back", () => {
    const group = groupA({
      validatingBy: { name: "LATAM", iata: "LA" },
      fareGroup: { currency: "BRL", priceWithTax: 3410.21, priceWithoutTax: 3216, priceInCompany: 0, percentualEconomia: 0, fares: [] },
      segments: [segmentA({ IdCiaResponsavel: 34, FidelityProgram: "Livelo", PontosAdulto: 80_000 })],
    });
    const [o] = offersOf(envelopeA([group]));
    expect(o?.airlinePrice.amount).toBe(0);
    const wire = toWireFlight({ id: "g", airlineId: 34, validatingCarrier: o!.validatingCarrier, outbound: [o!], passengers: { adults: 1, children: 0, infants: 0 } });
    expect(ModeAFlightSchema.parse(wire)).toEqual(wire);
    expect(wire.fareGroup).toMatchObject({ priceWithTax: 3410.21, priceWithoutTax: 3216, priceInCompany: 0, percentualEconomia: 0 });
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
