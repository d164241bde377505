/**
 * Times and durations of the wire: date-times are local to their airport and carry no zone, durations are
 * real minutes (they already account for the two airports' zones).
 */

const MINUTE = 60_000;

/** Minutes since the epoch of a zone-less date-time, read as if it were UTC (only differences matter). */
const wallMinutes = (iso: string): number => Date.parse(`${iso.slice(0, 19)}Z`) / MINUTE;

/** `09:15`. */
export const formatClock = (iso: string): string => iso.slice(11, 16);

const weekday = new Intl.DateTimeFormat("pt-BR", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

/** `dom., 20 de dez.` from `2026-12-20` or a date-time. */
export const formatDay = (iso: string): string => weekday.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`));

/** `5h 45min`, `50min`, `2h`. */
export const formatDuration = (minutes: number): string => {
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  if (h === 0) return `${m}min`;
  return m === 0 ? `${h}h` : `${h}h ${String(m).padStart(2, "0")}min`;
};

/** Calendar days between departure and arrival, in their own local dates: `+1` for an overnight arrival. */
export const dayShift = (departure: string, arrival: string): number =>
  Math.round((Date.parse(`${arrival.slice(0, 10)}T00:00:00Z`) - Date.parse(`${departure.slice(0, 10)}T00:00:00Z`)) / 86_400_000);

/**
 * How far the arrival airport's clock is from the departure airport's, in minutes: the local times'
 * difference minus the real duration. `-240` for Lisbon to São Paulo in (northern) winter.
 */
export const zoneShiftMinutes = (departure: string, arrival: string, durationMinutes: number): number =>
  wallMinutes(arrival) - wallMinutes(departure) - durationMinutes;

/** `fuso −4h`, `fuso +1h30`, or undefined when both airports share the clock. */
export const formatZoneShift = (minutes: number): string | undefined => {
  if (Math.abs(minutes) < 1) return undefined;
  const sign = minutes > 0 ? "+" : "−";
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  return `fuso ${sign}${h}h${m === 0 ? "" : String(m).padStart(2, "0")}`;
};

/** Minutes between two zone-less date-times of the same airport (a connection's wait). */
export const minutesBetween = (from: string, to: string): number => wallMinutes(to) - wallMinutes(from);

/** `1 parada`, `2 paradas`, `Direto`. */
export const formatStops = (stops: number): string => (stops === 0 ? "Direto" : stops === 1 ? "1 parada" : `${stops} paradas`);
