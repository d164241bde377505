/**
 * Your own supplier as a source of the engine: a charter operator's API that answers its own JSON (not the
 * ConsultaAereo wire) becomes a `SearchSource` by mapping each of its fares to core's `Offer` (money in integer
 * centavos, local times, a flight key) and its failures to core's tagged errors. It is searched beside the
 * simulator's airlines, and its offers reach the wire's envelope like any other airline's.
 */
import {
  flightKey,
  HttpStatusError,
  money,
  search,
  snapshotToEnvelope,
  TransportError,
  type Itinerary,
  type Offer,
  type SearchQuery,
  type SearchSource,
} from "@voar/core";
import { airports } from "@voar/core/airports";
import { createSimulator } from "@voar/testing/simulator";
import { lastValueFrom } from "rxjs";
import { queryOf } from "./query.js";

/** A fare as the supplier's own API writes it: reais as a decimal text, local times, minutes. */
interface SupplierFare {
  readonly flight: string; // "2Z 2201"
  readonly from: string;
  readonly to: string;
  readonly departs: string; // local time at `from`, "YYYY-MM-DDTHH:mm"
  readonly arrives: string; // local time at `to`
  readonly minutes: number;
  readonly fare: string; // "389.90", one adult, without taxes
  readonly taxes: string;
  readonly seatsLeft: number;
}

/** The supplier's API, here a function answering after 200 ms; in your code, a `fetch` with the signal. */
const supplierApi = async (from: string, to: string, date: string, signal: AbortSignal): Promise<readonly SupplierFare[]> => {
  await new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, 200);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
  return [
    { flight: "2Z 2201", from, to, departs: `${date}T07:15`, arrives: `${date}T08:20`, minutes: 65, fare: "389.90", taxes: "42.17", seatsLeft: 4 },
    { flight: "2Z 2207", from, to, departs: `${date}T18:40`, arrives: `${date}T19:45`, minutes: 65, fare: "459.90", taxes: "42.17", seatsLeft: 9 },
  ];
};

const CARRIER = { iata: "2Z", name: "Fretamento Exemplo" };
const centavos = (reais: string): number => Math.round(Number(reais) * 100);

/** One supplier fare as core's offer: every passenger of the query pays the adult fare here. */
const toOffer = (f: SupplierFare, query: SearchQuery): Offer => {
  const passengers = query.passengers.adults + query.passengers.children;
  const leg = { carrier: CARRIER, operatingCarrier: CARRIER, flightNumber: Number(f.flight.split(" ")[1]), origin: f.from, destination: f.to, departure: `${f.departs}:00`, arrival: `${f.arrives}:00`, durationMinutes: f.minutes, cabin: "Economica" };
  const itinerary: Itinerary = { direction: "outbound", legs: [leg], origin: f.from, destination: f.to, departure: leg.departure, arrival: leg.arrival, durationMinutes: f.minutes, stops: 0 };
  const base = money(centavos(f.fare) * passengers);
  const taxes = money(centavos(f.taxes) * passengers);
  const total = money(base.amount + taxes.amount);
  return {
    id: `fretamento:${f.flight.replace(" ", "")}:${f.departs}`,
    flightKey: flightKey(itinerary),
    sourceId: "fretamento",
    airlineId: 0, // not one of the contract's Companhia ids
    validatingCarrier: CARRIER,
    seller: { kind: "airline", id: "fretamento", name: CARRIER.name, site: "fretamento.example", url: `https://fretamento.example/voo/${f.flight.replace(" ", "")}` },
    itinerary,
    fares: [{ type: "ADT", count: passengers, base, taxes }],
    total,
    taxes,
    airlinePrice: total,
    cabin: "Economica",
    bookingOption: `Tarifa fretamento (${f.seatsLeft} lugares)`,
    baggage: { checked: 1, checkedText: "1 bagagem de 23 kg", cabinText: "" },
    fareToken: f.flight,
    searchToken: f.departs,
  };
};

/** The supplier as a source: one batch per search; its failures as core's tagged errors, so the engine retries what it should. */
const supplierSource: SearchSource = {
  id: "fretamento",
  name: CARRIER.name,
  kind: "airline",
  async *search(query, signal) {
    try {
      const fares = await supplierApi(query.origin, query.destination, query.departureDate, signal);
      yield fares.map((f) => toOffer(f, query));
    } catch (e) {
      if (signal.aborted) throw e;
      // An HTTP status from your client would be `new HttpStatusError({ status })` (408 and 5xx are retried).
      throw e instanceof HttpStatusError ? e : new TransportError({ detail: e instanceof Error ? e.message : String(e) });
    }
  },
};

const query = queryOf({ Origem: "CNF", Destino: "SDU", Ida: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), Adultos: 2 });
const final = await lastValueFrom(search(query, [supplierSource, ...createSimulator({ latencyMs: 300 }).sources]));
const ours = [...final.offers.values()].filter((o) => o.sourceId === "fretamento");
const { body } = snapshotToEnvelope(final, { searchId: "own-supplier", requestId: "r1", page: 1, pageSize: 100, airports });
const progress = body.Progresso?.Fontes?.find((f) => f.Nome === CARRIER.name);
const cheapest = Math.min(...ours.map((o) => o.total.amount));
console.log(`${ours.length} offers of the supplier among ${final.offers.size}; its progress: ${progress?.Estado}; cheapest ${(cheapest / 100).toFixed(2)} reais for 2 adults`);
if (ours.length !== 2 || cheapest !== (38_990 + 4_217) * 2) throw new Error("the supplier's two fares should be offers, priced for two adults in centavos");
if (!final.completed || progress?.Estado !== "concluida") throw new Error("the supplier should show as done in the progress");
