import { describe, expect, it } from "vitest";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { createOfferInterner, readUpstreamAnswer, type OfferInterner, type UpstreamAnswer } from "../../src/upstream/index.js";
import { envelopeB, offerB, someAirports } from "./synthetic-answers.js";

const answerOf = (json: unknown, interner?: OfferInterner): UpstreamAnswer => {
  const read = readUpstreamAnswer(json, { airports: someAirports, sourceId: "b", interner });
  if (read instanceof MalformedPayload) throw new Error(read.message);
  return read;
};

/** A comparison answer: two flights, each sold by its main seller and two others. */
const comparison = () =>
  envelopeB([
    offerB({ Token: "tk-1", Outros: [{ Nome: "Voaja", Site: "voaja.com.br", Url: "https://voaja.com.br/x", Valor: 410.5, OpcaoReserva: "Tarifa Light" }, { Nome: "Passagens Já", Site: "passagensja.com.br", Valor: 420 }] }),
    offerB({
      Token: "tk-2",
      Voos: [{ Numero: "AD-4002", Saida: "2025-08-01T12:00:00", Chegada: "2025-08-01T13:25:00", Origem: "GRU", Destino: "GIG", ClasseStr: "Executiva" }],
      Outros: [{ Nome: "Voaja", Site: "voaja.com.br", Url: "https://voaja.com.br/x", Valor: 910, OpcaoReserva: "Tarifa Light" }],
    }),
  ]);

describe("offers read with an interner", () => {
  it("are the same offers as read without one", () => {
    const plain = answerOf(comparison()).offers;
    const interner = createOfferInterner();
    answerOf(comparison(), interner);
    expect(answerOf(comparison(), interner).offers).toEqual(plain);
    expect(plain.map((o) => o.itinerary.legs[0]?.cabin)).toContain("Executiva");
  });

  it("share the values a later answer repeats instead of keeping copies of them", () => {
    const interner = createOfferInterner();
    const first = answerOf(comparison(), interner).offers;
    const later = answerOf(comparison(), interner).offers;
    expect(later).toHaveLength(first.length);
    later.forEach((offer, i) => {
      const before = first[i]!;
      expect(offer).not.toBe(before);
      expect(offer.itinerary).toBe(before.itinerary);
      expect(offer.seller).toBe(before.seller);
      expect(offer.total).toBe(before.total);
    });
    // Two sellers of the same flight share its itinerary; the same seller on two flights is one value.
    const voaja = later.filter((o) => o.seller.name === "Voaja");
    expect(voaja).toHaveLength(2);
    expect(voaja[0]!.seller).toBe(voaja[1]!.seller);
    expect(voaja[0]!.itinerary).not.toBe(voaja[1]!.itinerary);
  });

  it("stay correct when the table fills up and starts over", () => {
    const plain = answerOf(comparison()).offers;
    const tiny = createOfferInterner(5);
    for (let i = 0; i < 3; i++) expect(answerOf(comparison(), tiny).offers).toEqual(plain);
  });
});
