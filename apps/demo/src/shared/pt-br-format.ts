/**
 * How the demo writes numbers, money, percentages, times and durations for people: one way, in pt-BR
 * (`Intl`), shared by the page and the CLI. Date-times of the wire are local to their airport and carry
 * no zone; durations are real minutes (they already account for the two airports' zones).
 */

const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
const integer = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 0 });
const weekday = new Intl.DateTimeFormat("pt-BR", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

/** `R$ 1.091,96` from a wire decimal (reais), with a no-break space after `R$` so the amount never wraps apart. */
export const formatBrl = (value: number): string => brl.format(value);

/** `14.691` (points, counts). */
export const formatPoints = (value: number): string => integer.format(value);

/** `1.234` price groups, flights... */
export const formatCount = (value: number): string => integer.format(value);

/** `38%` from a percentage of the wire (`37.83`). */
export const formatPercent = (value: number): string => percent.format(value / 100);

/** Whether a points value marks a cash ("pagante") fare: a negative value, -1 on the wire. */
export const isCash = (points: number): boolean => points < 0;

/** `14.691 milhas` per adult; outbound plus return on a round trip (`12.000 + 10.500 milhas`). */
export const formatMiles = (outbound: number, inbound?: number): string =>
  inbound === undefined ? `${formatPoints(outbound)} milhas` : `${formatPoints(outbound)} + ${formatPoints(inbound)} milhas`;

/** `5h 45min`, `50min`, `2h`, `10h 05min`. */
export const formatDuration = (minutes: number): string => {
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  if (h === 0) return `${m}min`;
  return m === 0 ? `${h}h` : `${h}h ${String(m).padStart(2, "0")}min`;
};

/** `Direto`, `1 parada`, `2 paradas`. */
export const formatStops = (stops: number): string => (stops === 0 ? "Direto" : stops === 1 ? "1 parada" : `${stops} paradas`);

/** `09:15`, read from a local date-time without converting it. */
export const formatClock = (iso: string): string => iso.slice(11, 16);

/** `20/12 09:15` from a local date-time. */
export const formatLocal = (iso: string): string => `${iso.slice(8, 10)}/${iso.slice(5, 7)} ${formatClock(iso)}`;

/** `dom., 20 de dez.` from `2026-12-20` or a date-time. */
export const formatDay = (iso: string): string => weekday.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`));

const MINUTE = 60_000;

/** Minutes since the epoch of a zone-less date-time, read as if it were UTC (only differences matter). */
const wallMinutes = (iso: string): number => Date.parse(`${iso.slice(0, 19)}Z`) / MINUTE;

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

/**
 * Cabin names as the wire writes them (`Economica`, no accent, as real upstreams and the spec's examples
 * send them) spelled for a person: `Econômica`. Other names pass as written.
 */
const CABINS: Readonly<Record<string, string>> = { economica: "Econômica", "premium economica": "Premium Econômica" };

/** A cabin as a person reads it: `Econômica` for the wire's `Economica`. */
export const formatCabin = (cabin: string): string => CABINS[cabin.trim().toLowerCase()] ?? cabin;
