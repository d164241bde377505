/**
 * Who flies and who validates, as far as an upstream answer tells: airlines are recognised by the
 * decisions.md ids (`IdCia`, `IdCiaResponsavel`) or IATA designators, and flight numbers like `G3-2053` are
 * split into carrier and number.
 */
import { airlineById, airlineByIata, type Airline } from "../domain/airline.js";
import type { Carrier } from "../domain/itinerary.js";

/** The first known airline among ids and IATA codes, tried in order; unknown and absent values are skipped. */
export const findAirline = (
  ...hints: readonly (number | string | null | undefined)[]
): Airline | undefined => {
  for (const hint of hints) {
    const found =
      typeof hint === "number" ? airlineById(hint) : typeof hint === "string" ? airlineByIata(hint.trim()) : undefined;
    if (found) return found;
  }
  return undefined;
};

/**
 * A carrier from a wire company: the IATA code upper-cased, the name as sent, else the known airline's name,
 * else the code. Undefined when there is no usable code.
 */
export const carrierOf = (
  iata: string | null | undefined,
  name: string | null | undefined,
): Carrier | undefined => {
  const code = iata?.trim().toUpperCase();
  if (!code || !/^[A-Z0-9]{2,3}$/.test(code)) return undefined;
  const label = name?.trim();
  return { iata: code, name: label ? label : (airlineByIata(code)?.name ?? code) };
};

/** A flight number split in two: `G3-2053`, `G3 2053` and `G32053` give carrier `G3`, number 2053. */
export interface FlightDesignator {
  readonly carrier?: string | undefined;
  readonly number: number;
}

/** Reads a flight designator; a bare number (`2053`) has no carrier. Undefined when unreadable. */
export const parseFlightDesignator = (text: string): FlightDesignator | undefined => {
  const m = /^\s*(?:([A-Z0-9]{2})[\s-]*)?(\d{1,5})\s*$/i.exec(text);
  if (!m) return undefined;
  return { carrier: m[1]?.toUpperCase(), number: Number(m[2]) };
};
