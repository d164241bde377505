/**
 * Durations of legs and itineraries read from upstream answers. Upstreams often send `0` (`Duracao: 0`)
 * or a text (`01h 05m`, `01:25`, even `01: 05`); the wire's times are local to each airport (decisions.md),
 * so a missing duration is computed from the times and the two airports' time zones.
 */
import type { AirportDirectory } from "../domain/airport.js";
import { elapsedMinutes, localAsUtcMs, parseDurationText } from "../domain/time-zone.js";

/**
 * Reads a duration text into minutes: `01h 05m`, `1h5m`, `01:25`, and the `01: 05` real upstreams send.
 * Undefined when unreadable.
 */
export const readDurationText = (text: string | null | undefined): number | undefined =>
  typeof text === "string" ? parseDurationText(text.replace(/\s*:\s*/g, ":")) : undefined;

/** Where and when a flight, or a whole itinerary, takes off and lands (local times, airport codes). */
export interface Span {
  readonly origin: string;
  readonly destination: string;
  readonly departure: string;
  readonly arrival: string;
}

/** The IANA time zone of an airport, when the directory knows it. */
export const timeZoneOf = (airports: AirportDirectory, iata: string): string | undefined => airports.get(iata)?.timeZone;

/**
 * Minutes from takeoff to landing, time zones accounted for when both airports are known; otherwise the
 * difference of the local times (the two airports assumed to share a zone). Never negative.
 */
export const spanMinutes = (airports: AirportDirectory, span: Span): number => {
  const from = timeZoneOf(airports, span.origin);
  const to = timeZoneOf(airports, span.destination);
  const minutes =
    from !== undefined && to !== undefined
      ? elapsedMinutes(span.departure, from, span.arrival, to)
      : Math.round((localAsUtcMs(span.arrival) - localAsUtcMs(span.departure)) / 60_000);
  return Math.max(0, minutes);
};

/**
 * The duration of a leg or itinerary: the upstream's minutes when positive; else computed with the airports'
 * time zones when both are known; else the upstream's text (`TempoTotalStr`, `Tempo`); else the difference
 * of the local times.
 */
export const durationMinutes = (
  airports: AirportDirectory,
  span: Span,
  given: number | null | undefined,
  text?: string | null,
): number => {
  if (typeof given === "number" && given > 0) return Math.round(given);
  const zoned = timeZoneOf(airports, span.origin) !== undefined && timeZoneOf(airports, span.destination) !== undefined;
  if (zoned) return spanMinutes(airports, span);
  return readDurationText(text) ?? spanMinutes(airports, span);
};
