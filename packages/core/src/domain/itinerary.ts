/** A company as the wire names it: display name plus IATA designator. */
export interface Carrier {
  readonly iata: string;
  readonly name: string;
}

/** One flight of an itinerary: a takeoff and a landing. */
export interface Leg {
  /** Marketing carrier (`managedBy` on the wire). */
  readonly carrier: Carrier;
  /** Operating carrier (`operatedBy`); equal to `carrier` unless codeshared. */
  readonly operatingCarrier: Carrier;
  readonly flightNumber: number;
  /**
   * The flight number as the source wrote it (`G3-2053`, or `G31660` as Livelo writes it), written back as it
   * came; absent when the source gives only a number (then it is written `<IATA>-<number>`).
   */
  readonly designator?: string | undefined;
  readonly origin: string;
  readonly destination: string;
  /** Local date-time at the origin airport, ISO 8601 without zone (`2025-07-20T10:40:00`). */
  readonly departure: string;
  /** Local date-time at the destination airport, ISO 8601 without zone. */
  readonly arrival: string;
  /** IANA time zone of the origin airport, when known. */
  readonly departureTimeZone?: string | undefined;
  /** IANA time zone of the destination airport, when known. */
  readonly arrivalTimeZone?: string | undefined;
  /** Elapsed minutes, accounting for the two airports' time zones. */
  readonly durationMinutes: number;
  /** Cabin description (`Economica`, `Executiva`, ...). */
  readonly cabin: string;
  readonly aircraft?: string | undefined;
}

/** Which way an itinerary flies. */
export type Direction = "outbound" | "return";

/** A way from origin to destination: one or more legs, flown in order. */
export interface Itinerary {
  readonly direction: Direction;
  readonly legs: readonly Leg[];
  readonly origin: string;
  readonly destination: string;
  /** Local departure of the first leg. */
  readonly departure: string;
  /** Local arrival of the last leg. */
  readonly arrival: string;
  /** Door-to-door elapsed minutes (first takeoff to last landing), time zones accounted for. */
  readonly durationMinutes: number;
  /** Number of connections: legs minus one. */
  readonly stops: number;
}

/** Route configuration string of the wire: legs joined by `_`, each as `<origin>-<destination>`. */
export const routeConfiguration = (itinerary: Pick<Itinerary, "legs">): string =>
  itinerary.legs.map((l) => `${l.origin}-${l.destination}`).join("_");

/**
 * The identity of a flight, whoever sells it: direction, then each leg's carrier, number and local departure.
 * The same flight sold by two OTAs, or by miles and by cash, has the same key.
 */
export const flightKey = (itinerary: Pick<Itinerary, "direction" | "legs">): string =>
  `${itinerary.direction === "outbound" ? "O" : "R"}:${itinerary.legs
    .map((l) => `${l.carrier.iata}${l.flightNumber}@${l.origin}${l.departure}`)
    .join("+")}`;
