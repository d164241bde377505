import { beforeAll, expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import { centavosFromDecimal } from "../../src/domain/money.js";
import { savingPercent, type Offer } from "../../src/domain/offer.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { readUpstreamAnswer, type UpstreamAnswer } from "../../src/upstream/index.js";
import { describeRecorded, loadRecorded, RECORDED } from "./recorded-answers.js";

interface RawLeg {
  flightNumber: number;
  departure: string;
  arrival: string;
  departureDate: string;
  arrivalDate: string;
  duration: number;
  managedBy: { iata: string };
}
interface RawSegment {
  IdCiaResponsavel: number;
  rateToken: string;
  duration: number;
  PontosAdulto: number;
  legs: RawLeg[];
}
interface RawFlight {
  validatingBy: { iata: string };
  fareGroup: { priceWithTax: number; priceWithoutTax: number; percentualEconomia: number };
  segments: RawSegment[];
  segmentsBack: RawSegment[] | null;
}

const SOURCE = "upstream-a";

describeRecorded("recorded Mode A answer, all airlines, complete", () => {
  let flights: RawFlight[];
  let answer: UpstreamAnswer;
  const offerOf = (segment: RawSegment): Offer => {
    const offer = answer.offers.find((o) => o.id === `${SOURCE}:${segment.rateToken}`);
    if (!offer) throw new Error(`no offer for segment ${segment.rateToken}`);
    return offer;
  };

  beforeAll(() => {
    const json = loadRecorded(RECORDED.modeAComplete);
    flights = (json as { Data: [{ flights: RawFlight[] }] }).Data[0].flights;
    const read = readUpstreamAnswer(json, { airports, sourceId: SOURCE });
    if (read instanceof MalformedPayload) throw new Error(read.message);
    answer = read;
  });

  it("reads a complete, successful answer without leaving anything out", () => {
    expect(answer.success).toBe(true);
    expect(answer.completed).toBe(true);
    expect(answer.errorMessage).toBeUndefined();
    expect(answer.skipped.count).toBe(0);
    expect(answer.totalItems).toBe(flights.length);
  });

  it("makes one outbound offer per alternative segment, with unique ids", () => {
    const segments = flights.flatMap((f) => f.segments);
    expect(flights.every((f) => f.segmentsBack === null)).toBe(true);
    expect(answer.offers).toHaveLength(segments.length);
    expect(new Set(answer.offers.map((o) => o.id)).size).toBe(segments.length);
    expect(answer.offers.every((o) => o.itinerary.direction === "outbound")).toBe(true);
  });

  it("charges every offer of a one-way price group exactly the group's priceWithTax", () => {
    for (const f of flights) {
      const expected = Math.round(f.fareGroup.priceWithTax * 100);
      for (const s of f.segments) {
        const offer = offerOf(s);
        expect(offer.total.amount).toBe(expected);
        expect(offer.taxes.amount).toBe(expected - centavosFromDecimal(f.fareGroup.priceWithoutTax));
        const fares = offer.fares.reduce((sum, fare) => sum + fare.base.amount + fare.taxes.amount, 0);
        expect(fares).toBe(offer.total.amount);
      }
    }
  });

  it("reads PontosAdulto -1 as cash and other points as miles with the group's taxes", () => {
    const all = flights.flatMap((f) => f.segments);
    expect(all.some((s) => s.PontosAdulto < 0)).toBe(true);
    expect(all.some((s) => s.PontosAdulto >= 0)).toBe(true);
    for (const s of all) {
      const offer = offerOf(s);
      if (s.PontosAdulto < 0) {
        expect(offer.miles).toBeUndefined();
      } else {
        expect(offer.miles?.pointsAdult).toBe(s.PontosAdulto);
        expect(offer.miles?.taxes).toEqual(offer.taxes);
        expect(offer.miles?.programme).not.toBe("");
      }
    }
  });

  it("keeps legs, local times and carriers intact, with zones and positive durations", () => {
    for (const f of flights) {
      for (const s of f.segments) {
        const { itinerary } = offerOf(s);
        expect(itinerary.durationMinutes).toBe(s.duration);
        expect(itinerary.stops).toBe(s.legs.length - 1);
        expect(itinerary.legs.map((l) => [l.carrier.iata, l.flightNumber, l.origin, l.destination, l.departure, l.arrival])).toEqual(
          s.legs.map((l) => [l.managedBy.iata, l.flightNumber, l.departure, l.arrival, l.departureDate, l.arrivalDate]),
        );
        for (const [i, leg] of itinerary.legs.entries()) {
          expect(leg.durationMinutes).toBeGreaterThan(0);
          expect(leg.durationMinutes).toBe(s.legs[i]?.duration);
          expect(leg.departureTimeZone).toBe("America/Sao_Paulo");
          expect(leg.arrivalTimeZone).toBe("America/Sao_Paulo");
        }
      }
    }
  });

  it("names the airline of every offer and keeps third-party programmes as their own sellers", () => {
    for (const f of flights) {
      for (const s of f.segments) {
        const offer = offerOf(s);
        expect(offer.validatingCarrier.iata).toBe(f.validatingBy.iata);
        // Livelo (34) is a source of its own, whoever flies: its offers carry its id, not the carrier's.
        expect(offer.airlineId).toBe(s.IdCiaResponsavel === 34 ? 34 : { LA: 1, G3: 2, AD: 3 }[f.validatingBy.iata]);
        expect(offer.seller.kind).toBe("airline");
      }
    }
    // LATAM and GOL sell their own seats; the Livelo groups (validated by LA and AD) are Livelo's.
    const sellers = new Set(answer.offers.map((o) => o.seller.id));
    expect([...sellers].sort()).toEqual(["gol", "latam", "livelo"]);
    const livelo = answer.offers.filter((o) => o.seller.id === "livelo");
    expect(livelo.length).toBe(11);
    for (const o of livelo) {
      expect(o.miles?.programme).toBe("Livelo");
      expect(o.seller).toMatchObject({ name: "Livelo", site: "livelo.com.br" });
      expect(["LA", "AD"]).toContain(o.validatingCarrier.iata);
    }
  });

  it("reports the upstream's saving against the airline's own price", () => {
    for (const f of flights) {
      for (const s of f.segments) {
        expect(savingPercent(offerOf(s))).toBeCloseTo(f.fareGroup.percentualEconomia, 1);
      }
    }
  });

  it("gives the same flight key to the same flight sold in miles and in cash", () => {
    const keys = new Set(answer.offers.map((o) => o.flightKey));
    expect(keys.size).toBeLessThan(answer.offers.length);
    const miles = answer.offers.filter((o) => o.miles);
    expect(miles.some((m) => answer.offers.some((c) => !c.miles && c.flightKey === m.flightKey))).toBe(true);
  });
});
