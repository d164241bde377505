import { describe, expect, it } from "vitest";
import type { Offer } from "../../src/domain/offer.js";
import type { SearchQuery } from "../../src/query/query.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { readUpstreamAnswer, type UpstreamAnswer } from "../../src/upstream/index.js";
import { envelopeA, groupA, legA, segmentA, someAirports } from "./synthetic-answers.js";

const ctx = { airports: someAirports, sourceId: "src" };

const query: SearchQuery = {
  origin: "GRU",
  destination: "GIG",
  departureDate: "2025-08-01",
  passengers: { adults: 2, children: 1, infants: 0 },
  mode: { kind: "all-airlines" },
};

const answerOf = (json: unknown): UpstreamAnswer => {
  const read = readUpstreamAnswer(json, ctx);
  if (read instanceof MalformedPayload) throw new Error(read.message);
  return read;
};

const faresTotal = (o: Offer) => o.fares.reduce((s, f) => s + f.base.amount + f.taxes.amount, 0);

describe("Mode A round trips", () => {
  const back = (token: string, o: Record<string, unknown> = {}) =>
    segmentA({
      rateToken: token,
      routeRPH: 1,
      ValorSegmento: 350,
      legs: [legA({ flightNumber: 3101, departure: "GIG", arrival: "GRU", departureDate: "2025-08-10T18:00:00", arrivalDate: "2025-08-10T19:30:00" })],
      ...o,
    });
  const roundTrip = (priceWithTax: number, priceWithoutTax: number, outValue: number, backValue: number) =>
    groupA({
      fareGroup: { currency: "BRL", priceWithTax, priceWithoutTax, priceInCompany: 2000.01, fares: [] },
      segments: [segmentA({ rateToken: "o1", ValorSegmento: outValue }), segmentA({ rateToken: "o2", ValorSegmento: outValue, legs: [legA({ flightNumber: 3200 })] })],
      segmentsBack: [back("b1", { ValorSegmento: backValue }), back("b2", { ValorSegmento: backValue, PontosAdulto: -1 })],
    });

  it("splits the group price so that any outbound plus any return pays it exactly", () => {
    const answer = answerOf(envelopeA([roundTrip(850.07, 750, 400, 350)]));
    const outs = answer.offers.filter((o) => o.itinerary.direction === "outbound");
    const backs = answer.offers.filter((o) => o.itinerary.direction === "return");
    expect(outs).toHaveLength(2);
    expect(backs).toHaveLength(2);
    for (const o of outs) for (const b of backs) expect(o.total.amount + b.total.amount).toBe(85007);
    // ValorSegmento add up to the base, so they are taken as they are; taxes (100.07) halve, odd centavo out.
    expect(outs[0]).toMatchObject({ total: { amount: 40000 + 5004 }, taxes: { amount: 5004 } });
    expect(backs[0]).toMatchObject({ total: { amount: 35000 + 5003 }, taxes: { amount: 5003 } });
    expect(outs[0]!.airlinePrice.amount + backs[0]!.airlinePrice.amount).toBe(200001);
    for (const o of answer.offers) expect(faresTotal(o)).toBe(o.total.amount);
    expect(backs[1]!.miles).toBeUndefined();
    expect(backs[0]!.miles?.taxes.amount).toBe(5003);
  });

  it("shares the base by ValorSegmento proportion when they do not add up, and evenly when absent", () => {
    const proportional = answerOf(envelopeA([roundTrip(1100, 1000, 300, 100)])).offers;
    expect(proportional.find((o) => o.fareToken === "o1")?.total.amount).toBe(75000 + 5000);
    const even = answerOf(envelopeA([groupA({ segments: [segmentA({ ValorSegmento: null })], segmentsBack: [back("b", { ValorSegmento: null })] })])).offers;
    expect(even.map((o) => o.total.amount)).toEqual([22528, 22527]);
  });
});

describe("Mode A tolerance", () => {
  it("takes the search token from TokenConsultaMBX, TokenConsultaSvc or any TokenConsulta* member", () => {
    const group = groupA({
      segments: [
        segmentA({ rateToken: "a", TokenConsultaSvc: undefined, TokenConsultaMBX: "mbx-token" }),
        segmentA({ rateToken: "b", TokenConsultaSvc: "svc-token" }),
        segmentA({ rateToken: "c", TokenConsultaSvc: undefined, TokenConsultaOutro: "other-token" }),
      ],
    });
    expect(answerOf(envelopeA([group])).offers.map((o) => o.searchToken)).toEqual(["mbx-token", "svc-token", "other-token"]);
  });

  it("ignores unknown members everywhere and reads numbers sent as text", () => {
    const plain = answerOf(envelopeA([groupA()]));
    const noisy = answerOf({
      ...envelopeA([
        groupA({
          Extra: { nested: [1, 2] },
          fareGroup: { priceWithTax: "450.55", priceWithoutTax: "400", priceInCompany: 900, fares: null, novo: true },
          segments: [segmentA({ VerifyPolicy: null, legs: [legA({ flightNumber: "3100", gate: "B12" })] })],
        }),
      ]),
      Info: "anything",
      LogErros: ["x"],
      AuxiliarResponse: { a: 1 },
    });
    expect(noisy.offers[0]?.total).toEqual(plain.offers[0]?.total);
    expect(noisy.offers[0]?.itinerary).toEqual(plain.offers[0]?.itinerary);
  });

  it("computes durations sent as 0 from the local times and both airports' zones", () => {
    const leg = legA({ departure: "GRU", arrival: "LIS", departureDate: "2025-08-01T22:00:00", arrivalDate: "2025-08-02T11:30:00", duration: 0 });
    const [offer] = answerOf(envelopeA([groupA({ segments: [segmentA({ duration: 0, legs: [leg] })] })])).offers;
    // 22:00 at UTC-3 to 11:30 at UTC+1 (Lisbon summer time): 9 h 30.
    expect(offer?.itinerary.legs[0]?.durationMinutes).toBe(570);
    expect(offer?.itinerary.durationMinutes).toBe(570);
    expect(offer?.itinerary.legs[0]?.arrivalTimeZone).toBe("Europe/Lisbon");
  });

  it("leaves out an unreadable segment, notes it, and keeps its siblings", () => {
    const group = groupA({ segments: [segmentA({ rateToken: "good" }), segmentA({ rateToken: "bad", legs: [legA({ departureDate: "yesterday" })] })] });
    const answer = answerOf(envelopeA([group]));
    expect(answer.offers.map((o) => o.fareToken)).toEqual(["good"]);
    expect(answer.skipped).toEqual({ count: 1, notes: ["Data[0].flights[0].segments[1]: campo legs[0].departureDate inválido"] });
  });

  it("is a MalformedPayload when a successful answer has groups and none can be read", () => {
    const read = readUpstreamAnswer(envelopeA([groupA({ fareGroup: null }), { nothing: true }]), ctx);
    expect(read).toBeInstanceOf(MalformedPayload);
    expect((read as MalformedPayload).detail).toMatch(/nenhum dos 2 itens/);
  });

  it("gives a stable id from seller, price kind and flight when there is no rateToken", () => {
    const json = envelopeA([groupA({ segments: [segmentA({ rateToken: null }), segmentA({ rateToken: null, PontosAdulto: -1 })] })]);
    const first = answerOf(json).offers.map((o) => o.id);
    expect(first).toEqual(answerOf(structuredClone(json)).offers.map((o) => o.id));
    expect(first[0]).toMatch(/^src:latam:miles:O:LA3100@GRU2025-08-01T08:00:00$/);
    expect(first[1]).toMatch(/^src:latam:cash:/);
  });

  it("splits a group with several passenger types into fares that add up to it", () => {
    const fares = [
      { passengersType: "ADT", passengersCount: 2, priceWithTax: 900, priceWithoutTax: 800 },
      { passengersType: "CHD", passengersCount: 1, priceWithTax: 350.01, priceWithoutTax: 300 },
    ];
    const [offer] = answerOf(envelopeA([groupA({ fareGroup: { priceWithTax: 1250.01, priceWithoutTax: 1100, fares } })])).offers;
    expect(offer?.fares).toEqual([
      { type: "ADT", count: 2, base: { amount: 80000, currency: "BRL" }, taxes: { amount: 10000, currency: "BRL" } },
      { type: "CHD", count: 1, base: { amount: 30000, currency: "BRL" }, taxes: { amount: 5001, currency: "BRL" } },
    ]);
    // No priceInCompany: no airline price, never the group's own.
    expect(offer?.airlinePrice.amount).toBe(0);
  });

  it("shares a group without per-type fares among the query's passengers", () => {
    const json = envelopeA([groupA({ fareGroup: { priceWithTax: 900.01, priceWithoutTax: 750, fares: [] } })]);
    const read = readUpstreamAnswer(json, { ...ctx, query });
    if (read instanceof MalformedPayload) throw new Error(read.message);
    const fares = read.offers[0]?.fares ?? [];
    expect(fares.map((f) => [f.type, f.count])).toEqual([["ADT", 2], ["CHD", 1]]);
    expect(fares.reduce((s, f) => s + f.base.amount + f.taxes.amount, 0)).toBe(90001);
  });
});
