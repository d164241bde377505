import type { Leg } from "../domain/itinerary.js";
import { formatDurationHm, localAsUtcMs, zonedToUtcMs } from "../domain/time-zone.js";
import type { ModeBFlightLeg } from "./mode-b-schema.js";
import { formatHoursMinutes, wireLocalDateTime } from "./scalars.js";

/**
 * The flights of a Mode B offer (`Voos[]`) and its `FlightCode`, as real answers write them: each flight's
 * number as its source wrote it, the wait for the next flight on the flight BEFORE the connection (`01h 05m`),
 * null on the last one, and the flights' codes run together (`G31323G39168`).
 */

const strip = (s: string): string => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** Our numbering of cabins for `Classe` (the spec gives no values): 0 economy, 1 premium, 2 business, 3 first. */
export const cabinCode = (cabin: string): number => {
  const c = strip(cabin);
  if (c.includes("premium")) return 1;
  if (c.startsWith("execut") || c.startsWith("business")) return 2;
  if (c.startsWith("primeira") || c.startsWith("first")) return 3;
  return 0;
};

/** Minutes between landing from one leg and taking off on the next, at the same airport. */
const connectionMinutes = (previous: Leg, next: Leg): number => {
  const zone = next.departureTimeZone ?? previous.arrivalTimeZone;
  const ms = zone
    ? zonedToUtcMs(next.departure, zone) - zonedToUtcMs(previous.arrival, zone)
    : localAsUtcMs(next.departure) - localAsUtcMs(previous.arrival);
  return Math.max(0, Math.round(ms / 60_000));
};

/** One flight of an offer; `next` is the flight after it (the connection's wait is written here), if any. */
export const toWireVoo = (leg: Leg, next: Leg | undefined): ModeBFlightLeg => ({
  // The source's own writing (`G31660` for Livelo, `G3-2053` for GOL); ours when it gave only a number.
  Numero: leg.designator ?? `${leg.carrier.iata}-${leg.flightNumber}`,
  Saida: wireLocalDateTime(leg.departure),
  Chegada: wireLocalDateTime(leg.arrival),
  Origem: leg.origin,
  Destino: leg.destination,
  Duracao: leg.durationMinutes,
  Tempo: formatHoursMinutes(leg.durationMinutes),
  TempoEspera: next ? formatDurationHm(connectionMinutes(leg, next)) : null,
  Classe: cabinCode(leg.cabin),
  ClasseStr: leg.cabin,
});

/** The flights of an offer, in order. */
export const toWireVoos = (legs: readonly Leg[]): ModeBFlightLeg[] => legs.map((leg, i) => toWireVoo(leg, legs[i + 1]));

/** `FlightCode`: each flight as `<IATA><number>`, run together (`G32053`, `G31323G39168`). */
export const flightCodeOf = (legs: readonly Leg[]): string => legs.map((l) => `${l.carrier.iata}${l.flightNumber}`).join("");
