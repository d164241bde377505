import type { ModeAFlight, ModeAMeta } from "@voar/core";

/** Parts of the day a departure falls in. */
export type DayPeriod = "madrugada" | "manha" | "tarde" | "noite";

/** Labels of the parts of the day, with their hours. */
export const PERIODS: readonly { readonly id: DayPeriod; readonly label: string; readonly from: number; readonly to: number }[] = [
  { id: "madrugada", label: "Madrugada (0h–6h)", from: 0, to: 6 },
  { id: "manha", label: "Manhã (6h–12h)", from: 6, to: 12 },
  { id: "tarde", label: "Tarde (12h–18h)", from: 12, to: 18 },
  { id: "noite", label: "Noite (18h–24h)", from: 18, to: 24 },
];

/** The part of the day of a local date-time. */
export const periodOf = (iso: string): DayPeriod => {
  const hour = Number(iso.slice(11, 13));
  return PERIODS.find((p) => hour >= p.from && hour < p.to)?.id ?? "noite";
};

/** How the rows are ordered: the API's order (price), shortest trip, or earliest departure. */
export type SortKey = "preco" | "duracao" | "partida";

/** What the person filters by; an empty set lets everything through. */
export interface ModeAFilters {
  /** Numbers of stops of the outbound itinerary (2 means "2 or more"). */
  readonly stops: ReadonlySet<number>;
  /** Validating airline names, as `meta.WayFilter.Airlines` lists them. */
  readonly airlines: ReadonlySet<string>;
  readonly periods: ReadonlySet<DayPeriod>;
}

/** No filter. */
export const NO_FILTERS: ModeAFilters = { stops: new Set(), airlines: new Set(), periods: new Set() };

/** Whether any filter is set. */
export const hasFilters = (f: ModeAFilters): boolean => f.stops.size + f.airlines.size + f.periods.size > 0;

/** A filter option with the API's count, when it gives one. */
export interface FilterOption<K> {
  readonly key: K;
  readonly label: string;
  readonly count?: number | undefined;
}

/** The filter options `meta` offers for the outbound direction: they describe the whole result, every page. */
export interface FilterOptions {
  readonly stops: readonly FilterOption<number>[];
  readonly airlines: readonly FilterOption<string>[];
  readonly periods: readonly FilterOption<DayPeriod>[];
}

const stopLabel = (n: number): string => (n === 0 ? "Direto" : n === 1 ? "1 parada" : "2 ou mais paradas");

/** Filter options from `meta.WayFilter`: stops with their counts, airlines, and the parts of the day departures fall in. */
export const filterOptionsOf = (meta: ModeAMeta | undefined): FilterOptions => {
  const way = meta?.WayFilter;
  const stops = new Map<number, number>();
  for (const s of way?.Stops ?? []) stops.set(Math.min(s.Key, 2), (stops.get(Math.min(s.Key, 2)) ?? 0) + s.Value);
  const periodCounts = new Map<DayPeriod, number>();
  for (const d of way?.DepartureDate ?? []) periodCounts.set(periodOf(d), (periodCounts.get(periodOf(d)) ?? 0) + 1);
  return {
    stops: [...stops].sort(([a], [b]) => a - b).map(([key, count]) => ({ key, label: stopLabel(key), count })),
    airlines: [...(way?.Airlines ?? [])].sort((a, b) => a.localeCompare(b, "pt-BR")).map((a) => ({ key: a, label: a })),
    periods: PERIODS.filter((p) => periodCounts.has(p.id)).map((p) => ({ key: p.id, label: p.label, count: periodCounts.get(p.id) })),
  };
};

/** Whether a price group passes the filters: its airline, and at least one outbound itinerary matching stops and time. */
export const passesFilters = (flight: ModeAFlight, f: ModeAFilters): boolean => {
  if (f.airlines.size > 0 && !f.airlines.has(flight.validatingBy.name)) return false;
  return flight.segments.some(
    (s) => (f.stops.size === 0 || f.stops.has(Math.min(s.numberOfStops, 2))) && (f.periods.size === 0 || f.periods.has(periodOf(s.departureDate))),
  );
};

const shortest = (f: ModeAFlight): number => f.FlyTime.Total || Math.min(...f.segments.map((s) => s.duration));
const earliest = (f: ModeAFlight): string => f.segments.map((s) => s.departureDate).sort()[0] ?? "";

/** The rows of a page, filtered and sorted; "preco" keeps the API's order, which is by price and stable. */
export const visibleFlights = <T extends { readonly flight: ModeAFlight }>(rows: readonly T[], filters: ModeAFilters, sort: SortKey): readonly T[] => {
  const kept = rows.filter((r) => passesFilters(r.flight, filters));
  if (sort === "preco") return kept;
  const by = sort === "duracao" ? (a: T, b: T) => shortest(a.flight) - shortest(b.flight) : (a: T, b: T) => earliest(a.flight).localeCompare(earliest(b.flight));
  // Array.prototype.sort is stable: ties keep the API's (price) order.
  return [...kept].sort(by);
};

/**
 * A stable key for each price group of a page, so that a row the person is reading keeps its place in the
 * DOM while later snapshots add rows around it. Built from the airline and the first itineraries' fare tokens.
 */
export const keyedFlights = (flights: readonly ModeAFlight[]): readonly { readonly key: string; readonly flight: ModeAFlight }[] => {
  const seen = new Map<string, number>();
  return flights.map((flight) => {
    const base = `${flight.validatingBy.iata}|${flight.segments[0]?.rateToken ?? ""}|${flight.segmentsBack?.[0]?.rateToken ?? ""}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return { key: n === 0 ? base : `${base}#${n}`, flight };
  });
};

/** Toggles a value in a set, returning a new set. */
export const toggled = <T>(set: ReadonlySet<T>, value: T): ReadonlySet<T> => {
  const next = new Set(set);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next;
};
