import { describe, expect, it } from "vitest";
import { savingPercent } from "../../src/domain/offer.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { readUpstreamAnswer, type UpstreamAnswer } from "../../src/upstream/index.js";
import { envelopeB, noAirports, offerB, someAirports } from "./synthetic-answers.js";

const answerOf = (json: unknown, airports = someAirports): UpstreamAnswer => {
  const read = readUpstreamAnswer(json, { airports, sourceId: "b" });
  if (read instanceof MalformedPayload) throw new Error(read.message);
  return read;
};

describe("Mode B shape", () => {
  it("reads HH:MM durations when no airport zone is known", () => {
    const [offer] = answerOf(envelopeB([offerB()]), noAirports).offers;
    expect(offer?.itinerary.durationMinutes).toBe(85);
    expect(offer?.itinerary.legs[0]?.durationMinutes).toBe(85);
    expect(offer?.itinerary.legs[0]?.departureTimeZone).toBeUndefined();
  });

  it("reads `01h 05m` and `01: 05` as well", () => {
    const offer = (text: string) =>
      answerOf(envelopeB([offerB({ TempoTotalStr: text, Voos: [{ ...(offerB().Voos as object[])[0], Chegada: "2025-08-01T11:05:00", Tempo: null }] })]), noAirports)
        .offers[0];
    expect(offer("01h 05m")?.itinerary.durationMinutes).toBe(65);
    expect(offer("01: 05")?.itinerary.durationMinutes).toBe(65);
  });

  it("finds the airline from IdCia when Cia is null, or from CiaParceira", () => {
    const [byId] = answerOf(envelopeB([offerB()])).offers;
    expect(byId).toMatchObject({ airlineId: 3, validatingCarrier: { iata: "AD" }, seller: { kind: "airline", id: "azul" } });
    const partner = offerB({ IdCia: 999, CiaParceira: { Id: 1, Nome: "Latam", Iata: "LA" }, Voos: [{ ...(offerB().Voos as object[])[0], Numero: "LA3000" }] });
    expect(answerOf(envelopeB([partner])).offers[0]).toMatchObject({ airlineId: 1, itinerary: { legs: [{ carrier: { iata: "LA" }, flightNumber: 3000 }] } });
  });

  it("reads Volta as return offers, and Volta: [] as none", () => {
    const back = offerB({ Token: "tk-back", Voos: [{ Numero: "AD-4001", Saida: "2025-08-05T10:00:00", Chegada: "2025-08-05T11:25:00", Origem: "GIG", Destino: "GRU" }] });
    expect(answerOf(envelopeB([offerB()], [back])).offers.map((o) => o.itinerary.direction)).toEqual(["outbound", "return"]);
    expect(answerOf(envelopeB([offerB()], [])).offers).toHaveLength(1);
  });

  it("scales the airline's adult price to the booking and adds the taxes", () => {
    const twoAdults = offerB({ PontosAdulto: 30000, PontosCrianca: 0, ValorAdulto: 450, ValorAdultoNaCia: 600, ValorTotal: 900, ValorTotalComTaxa: 960, ValorTotalTaxas: 60 });
    const json = envelopeB([twoAdults]);
    (json.Data as [Record<string, unknown>])[0].QntdAdulto = 2;
    const [offer] = answerOf(json).offers;
    expect(offer?.airlinePrice.amount).toBe(126000);
    expect(offer?.miles).toEqual({ pointsAdult: 30000, pointsChild: 0, taxes: { amount: 6000, currency: "BRL" }, programme: "TudoAzul" });
    expect(offer?.fares).toEqual([{ type: "ADT", count: 2, base: { amount: 90000, currency: "BRL" }, taxes: { amount: 6000, currency: "BRL" } }]);
    expect(savingPercent(offer!)).toBeCloseTo(((1260 - 960) / 1260) * 100, 6);
  });

  it("counts checked bags from BagagensInclusas", () => {
    const bags = [{ Bagagem: 0, Quantidade: 1 }, { Bagagem: 1, Quantidade: 2 }];
    expect(answerOf(envelopeB([offerB({ BagagensInclusas: bags })])).offers[0]?.baggage.checked).toBe(2);
  });
});

describe("Mode B comparison (Outros)", () => {
  const compared = offerB({
    Nome: "Voa Já",
    Site: "voaja.example",
    UrlPesquisa: "https://voaja.example/busca?x=1",
    Outros: [
      { Nome: "Passagem Certa", Site: "https://www.passagemcerta.example/", Url: "https://www.passagemcerta.example/oferta/9", Valor: 545.1, Cabine: "Economica", OpcaoReserva: "Tarifa Light" },
      { Nome: "Sem Link", Site: "semlink.example", Url: "javascript:alert(1)", Valor: 20 },
      { Nome: "Sem Preço", Url: "https://x.example" },
    ],
  });

  it("gives the main offer to the named seller and one OTA offer per readable alternative", () => {
    const answer = answerOf(envelopeB([compared]));
    const [main, other, cheap] = answer.offers;
    expect(answer.offers).toHaveLength(3);
    expect(main?.seller).toEqual({ kind: "ota", id: "ota:voa-ja", name: "Voa Já", site: "voaja.example", url: "https://voaja.example/busca?x=1" });
    expect(other?.seller).toEqual({ kind: "ota", id: "ota:passagem-certa", name: "Passagem Certa", site: "www.passagemcerta.example", url: "https://www.passagemcerta.example/oferta/9" });
    expect(other).toMatchObject({ total: { amount: 54510 }, taxes: { amount: 3000 }, bookingOption: "Tarifa Light", cabin: "Economica", airlinePrice: main?.airlinePrice });
    expect(other?.miles).toBeUndefined();
    expect(other?.flightKey).toBe(main?.flightKey);
    expect(cheap).toMatchObject({ seller: { url: "", site: "semlink.example" }, total: { amount: 2000 }, taxes: { amount: 2000 } });
    expect(new Set(answer.offers.map((o) => o.id)).size).toBe(3);
    expect(answer.skipped.notes).toEqual(["Data[0].Ida[0].Outros[2]: campo Valor inválido"]);
    for (const o of answer.offers) expect(o.fares.reduce((s, f) => s + f.base.amount + f.taxes.amount, 0)).toBe(o.total.amount);
  });
});
