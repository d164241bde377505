import { describe, expect, it } from "vitest";
import type { Airport } from "../../src/domain/airport.js";
import type { FilterView, MetaView, PriceGroupView } from "../../src/views/views.js";
import { toWireFlight, toWireMeta, toWireModeAGroup } from "../../src/envelope/mode-a.js";
import { ModeAFlightSchema, ModeAMetaSchema, ModeAResultGroupSchema } from "../../src/envelope/mode-a-schema.js";
import { fare, itinerary, leg, offer, seller, smiles } from "./build-offers.js";

const GOL = { iata: "G3", name: "GOL" };
const passengers = { adults: 1, children: 0, infants: 0 };

/** A wire decimal is exact to the centavo when it is the double nearest to a whole number of centavos. */
const exactToCentavo = (n: number) => Math.round(n * 100) / 100 === n;

const direct = offer({ seller: seller("gol", "airline") });
const viaBsb = offer({
  itinerary: itinerary(
    [
      leg({ destination: "BSB", arrival: "2025-08-12T15:40:00", durationMinutes: 90 }),
      leg({ flightNumber: 1500, origin: "BSB", departure: "2025-08-12T17:00:00", arrival: "2025-08-12T18:35:00", durationMinutes: 95 }),
    ],
    265,
  ),
  miles: smiles,
});

const oneWay: PriceGroupView = { id: "g1", airlineId: 2, validatingCarrier: GOL, outbound: [direct, viaBsb], passengers };

describe("toWireFlight: one-way price group", () => {
  const flight = toWireFlight(oneWay);

  it("validates against the strict schema", () => {
    expect(ModeAFlightSchema.parse(flight)).toEqual(flight);
  });

  it("writes the group price exact to the centavo", () => {
    expect(flight.fareGroup).toEqual({
      reCharging: false,
      currency: "BRL",
      priceWithTax: 1091.96,
      priceWithoutTax: 1049.84,
      priceInCompany: 1200,
      percentualEconomia: ((120_000 - 109_196) / 120_000) * 100,
      fares: [{ passengersType: "ADT", passengersCount: 1, priceWithTax: 1091.96, priceWithoutTax: 1049.84, taxes: null }],
    });
  });

  it("is a one-way flight: typeFlight 1, segmentsBack null, FasterBack 0", () => {
    expect([flight.typeFlight, flight.typeFlightStr, flight.segmentsBack]).toEqual([1, "Ida", null]);
    expect(flight.FlyTime).toEqual({ FasterGoing: 70, FasterBack: 0, Total: 70 });
  });

  it("writes each outbound alternative as a segment with its own tokens, legs and route", () => {
    const [a, b] = flight.segments;
    expect(flight.ConfiguracoesRotas).toEqual(["CNF-GIG", "CNF-BSB_BSB-GIG"]);
    expect(a).toMatchObject({ routeRPH: 0, rph: 0, numberOfStops: 0, duration: 70, rateToken: "fare-gol", TokenConsultaSvc: "search-gol" });
    expect(b).toMatchObject({ routeRPH: 0, rph: 1, numberOfStops: 1, duration: 265, departure: "CNF", arrival: "GIG" });
    expect(b?.ConfiguracoesRotas).toBe("CNF-BSB_BSB-GIG");
    expect(b?.legs.map((l) => [l.flightNumber, l.departure, l.arrival, l.duration, l.seatClass.description])).toEqual([
      [1234, "CNF", "BSB", 90, "Economica"],
      [1500, "BSB", "GIG", 95, "Economica"],
    ]);
    expect(a?.fareProfile.services).toEqual([{ type: "HAND_LUGGAGE", isIncluded: true, description: "1 bagagem de mão", Number: 1 }]);
  });

  it("marks a cash offer with -1 points and the airline as programme; a miles offer with its points", () => {
    const [cash, miles] = flight.segments;
    expect([cash?.PontosAdulto, cash?.PontosCrianca, cash?.FidelityProgram]).toEqual([-1, -1, "GOL"]);
    expect([miles?.PontosAdulto, miles?.PontosCrianca, miles?.FidelityProgram]).toEqual([40_000, 0, "Smiles"]);
    expect(cash?.ValorSegmento).toBe(1049.84);
    expect(cash?.IdCiaResponsavel).toBe(2);
  });
});

describe("toWireFlight: round trip with children and infants", () => {
  const out = offer({ fares: [fare("ADT", 2, 200_000, 8_424), fare("CHD", 1, 80_000, 4_212), fare("INF", 1, 10_000, 1_000)], airlinePrice: 400_000 });
  const back = offer({
    itinerary: itinerary([leg({ origin: "GIG", destination: "CNF", departure: "2025-08-20T08:00:00", arrival: "2025-08-20T09:15:00", durationMinutes: 75 })], 75, "return"),
    fares: [fare("ADT", 2, 190_000, 8_000), fare("CHD", 1, 70_000, 4_000), fare("INF", 1, 9_999, 1_001)],
    airlinePrice: 300_000,
  });
  const view: PriceGroupView = {
    id: "g2",
    airlineId: 2,
    validatingCarrier: GOL,
    outbound: [out],
    inbound: [back],
    passengers: { adults: 2, children: 1, infants: 1 },
  };
  const flight = toWireFlight(view);

  it("validates and is typed as a round trip", () => {
    expect(ModeAFlightSchema.parse(flight)).toEqual(flight);
    expect([flight.typeFlight, flight.typeFlightStr]).toEqual([2, "IdaVolta"]);
    expect(flight.segmentsBack?.map((s) => [s.routeRPH, s.rph, s.departure])).toEqual([[1, 0, "GIG"]]);
    expect(flight.FlyTime).toEqual({ FasterGoing: 70, FasterBack: 75, Total: 145 });
  });

  it("sums both directions in centavos: every number exact to the centavo", () => {
    // 3036.36 + 2830.00 added as wire decimals would give 5866.360000000001.
    expect(3036.36 + 2830).not.toBe(5866.36);
    expect(flight.fareGroup.priceWithTax).toBe(5866.36);
    expect(flight.fareGroup.priceWithoutTax).toBe(5599.99);
    expect(flight.fareGroup.priceInCompany).toBe(7000);
    expect(flight.fareGroup.percentualEconomia).toBeCloseTo(((700_000 - 586_636) / 700_000) * 100, 12);
    expect(flight.fareGroup.fares).toEqual([
      { passengersType: "ADT", passengersCount: 2, priceWithTax: 4064.24, priceWithoutTax: 3900, taxes: null },
      { passengersType: "CHD", passengersCount: 1, priceWithTax: 1582.12, priceWithoutTax: 1500, taxes: null },
      { passengersType: "INF", passengersCount: 1, priceWithTax: 220, priceWithoutTax: 199.99, taxes: null },
    ]);
    const numbers = [flight.fareGroup.priceWithTax, ...flight.fareGroup.fares.flatMap((f) => [f.priceWithTax, f.priceWithoutTax])];
    expect(numbers.every(exactToCentavo)).toBe(true);
  });

  it("writes 0.1 + 0.2 as 0.3", () => {
    const tiny = (cents: number, direction: "outbound" | "return") =>
      offer({ fares: [fare("ADT", 1, cents, 0)], itinerary: itinerary([leg()], 70, direction) });
    const f = toWireFlight({ ...view, outbound: [tiny(10, "outbound")], inbound: [tiny(20, "return")] });
    expect(f.fareGroup.priceWithTax).toBe(0.3);
  });
});

const filter = (over: Partial<FilterView> = {}): FilterView => ({
  stops: [
    [0, 3],
    [1, 2],
  ],
  airlines: ["Azul", "GOL"],
  airlineIatas: ["AD", "G3"],
  departures: ["2025-08-12T06:00:00", "2025-08-12T14:10"],
  arrivals: ["2025-08-12T07:05:00"],
  departureAirports: ["CNF"],
  arrivalAirports: ["GIG"],
  total: 5,
  ...over,
});

const airport = (iata: string, city: string): Airport => ({
  iata,
  name: `${city} Airport`,
  city,
  country: "Brazil",
  latitude: 0,
  longitude: 0,
  timeZone: "America/Sao_Paulo",
});

describe("toWireMeta", () => {
  const meta: MetaView = {
    airports: [
      { airport: airport("CNF", "Belo Horizonte"), stop: false, international: false },
      { airport: airport("BSB", "Brasília"), stop: true, international: false },
    ],
    totalGroups: 12,
    countFlights: 30,
    way: filter(),
    counts: { stops: [[0, 7], [1, 6]], airlines: [["LA", 12]], miles: 5, cash: 7 },
  };

  it("writes a one-way meta with ReturnFilter null and filters in wire names", () => {
    const wire = toWireMeta(meta);
    expect(ModeAMetaSchema.parse(wire)).toEqual(wire);
    expect(wire.ReturnFilter).toBeNull();
    expect([wire.TotalGroups, wire.countPriceGroups, wire.countFlights]).toEqual([12, 12, 30]);
    expect(wire.airports[1]).toEqual({ name: "Brasília Airport", iata: "BSB", stop: true, location: { name: "Brasília" }, internacional: false });
    expect(wire.WayFilter.Stops).toEqual([
      { Key: 0, Value: 3 },
      { Key: 1, Value: 2 },
    ]);
    expect(wire.WayFilter.DepartureDate).toEqual(["2025-08-12T06:00:00", "2025-08-12T14:10:00"]);
  });

  it("writes the return filter of a round trip, and a whole Data element", () => {
    const group = toWireModeAGroup([oneWay], { ...meta, back: filter({ departureAirports: ["GIG"], arrivalAirports: ["CNF"] }) });
    expect(ModeAResultGroupSchema.parse(group)).toEqual(group);
    expect(group.meta.ReturnFilter?.Departure).toEqual(["GIG"]);
    expect(group.flights).toHaveLength(1);
  });
});
