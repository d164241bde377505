import { airlineByIata, type ModeAFlight, type ModeAMeta } from "@voar/core";
import type { SearchRequest } from "@voar/http-adapter/fetch";

/**
 * What the person asks of a Mode A result: filters and an order, sent to the API as `Filtros` and
 * `Ordenacao`, which apply them to the whole result (every page) of the same search.
 */

/** `Filtros` as the API writes and reads it. */
export type Filtros = NonNullable<ModeAMeta["Filtros"]>;
/** `Ordenacao` as the API writes and reads it. */
export type SortKey = ModeAMeta["Ordenacao"];

/** Parts of the day a departure falls in. */
export type DayPeriod = "madrugada" | "manha" | "tarde" | "noite";

/** The parts of the day, with their labels and the local-time window the API filters by (ends included). */
export const PERIODS: readonly { readonly id: DayPeriod; readonly label: string; readonly from: string; readonly to: string }[] = [
  { id: "madrugada", label: "Madrugada (0h–6h)", from: "00:00", to: "05:59" },
  { id: "manha", label: "Manhã (6h–12h)", from: "06:00", to: "11:59" },
  { id: "tarde", label: "Tarde (12h–18h)", from: "12:00", to: "17:59" },
  { id: "noite", label: "Noite (18h–24h)", from: "18:00", to: "23:59" },
];

/** The part of the day of a local date-time. */
export const periodOf = (iso: string): DayPeriod => {
  const hhmm = iso.slice(11, 16);
  return PERIODS.find((p) => hhmm >= p.from && hhmm <= p.to)?.id ?? "noite";
};

/** Orders the API offers, with their labels. */
export const SORTS: readonly { readonly key: SortKey; readonly label: string }[] = [
  { key: "preco", label: "Menor preço" },
  { key: "duracao", label: "Menor duração" },
  { key: "melhor", label: "Melhor (preço e duração)" },
  { key: "partida", label: "Saída mais cedo" },
  { key: "chegada", label: "Chegada mais cedo" },
];

/** How a group is paid. */
export type Payment = "milhas" | "dinheiro";

/** What the person filters by; an empty set or an absent value lets everything through. */
export interface ModeAFilters {
  /** Stops buckets of the outbound itineraries (2 means "2 or more"). */
  readonly stops: ReadonlySet<number>;
  /** Stops buckets of the return itineraries of a round trip. */
  readonly returnStops?: ReadonlySet<number> | undefined;
  /** Validating airlines, by IATA designator. */
  readonly airlines: ReadonlySet<string>;
  readonly payment?: Payment | undefined;
  /** Part of the day of the outbound departure. */
  readonly outbound?: DayPeriod | undefined;
  /** Part of the day of the return departure (round trips). */
  readonly inbound?: DayPeriod | undefined;
}

/** No filter. */
export const NO_FILTERS: ModeAFilters = { stops: new Set(), airlines: new Set() };

/** How many filters are set. */
export const activeFilters = (f: ModeAFilters): number =>
  f.stops.size + (f.returnStops?.size ?? 0) + f.airlines.size + (f.payment ? 1 : 0) + (f.outbound ? 1 : 0) + (f.inbound ? 1 : 0);

const windowOf = (period: DayPeriod) => {
  const p = PERIODS.find((x) => x.id === period)!;
  return { Saida: { De: p.from, Ate: p.to } };
};

const sorted = (set: ReadonlySet<number>) => [...set].sort((a, b) => a - b);

/**
 * The `Filtros` member asking for these filters; undefined when none is set. Stops go per leg on a round
 * trip (`ParadasIda`, `ParadasVolta`), and as `Paradas` on a one-way search (the same thing there).
 */
export const filtrosOf = (f: ModeAFilters, roundTrip = false): Filtros | undefined => {
  if (activeFilters(f) === 0) return undefined;
  const back = f.returnStops ?? new Set<number>();
  return {
    ...(f.stops.size > 0 ? (roundTrip ? { ParadasIda: sorted(f.stops) } : { Paradas: sorted(f.stops) }) : {}),
    ...(roundTrip && back.size > 0 ? { ParadasVolta: sorted(back) } : {}),
    ...(f.airlines.size > 0 ? { Companhias: [...f.airlines].sort() } : {}),
    ...(f.payment ? { Pagamento: f.payment } : {}),
    ...(f.outbound ? { Ida: windowOf(f.outbound) } : {}),
    ...(f.inbound ? { Volta: windowOf(f.inbound) } : {}),
  };
};

/**
 * The same search with another view: the filters and order given, back to page 1. The search itself
 * (route, dates, passengers, mode) is unchanged, so the service answers from the search it already runs.
 */
export const withView = (request: SearchRequest, filters: ModeAFilters, sort: SortKey): SearchRequest => {
  const { Filtros: _filtros, Ordenacao: _ordenacao, ...rest } = request;
  const filtros = filtrosOf(filters, Boolean(request.Volta));
  return { ...rest, NumeroPagina: 1, ...(filtros ? { Filtros: filtros } : {}), ...(sort !== "preco" ? { Ordenacao: sort } : {}) };
};

/** A filter option with the number of price groups of the whole result it alone lets through. */
export interface FilterOption<K> {
  readonly key: K;
  readonly label: string;
  readonly count?: number | undefined;
}

/** The filter options `meta` offers: they and their counts describe the whole result, every page. */
export interface FilterOptions {
  /** Stops of the outbound leg (of every leg on a one-way search), with `Contagens.ParadasIda`. */
  readonly stops: readonly FilterOption<number>[];
  /** Stops of the return leg, with `Contagens.ParadasVolta`; empty for a one-way search. */
  readonly returnStops: readonly FilterOption<number>[];
  readonly airlines: readonly FilterOption<string>[];
  readonly payments: readonly FilterOption<Payment>[];
  readonly outbound: readonly FilterOption<DayPeriod>[];
  /** Empty for a one-way search. */
  readonly inbound: readonly FilterOption<DayPeriod>[];
}

const stopLabel = (n: number): string => (n === 0 ? "Direto" : n === 1 ? "1 parada" : "2 ou mais paradas");

/** Stops options from a leg's counts; a bucket the person has set stays listed (with 0) so it can be unset. */
const stopOptions = (counts: readonly { Key: number; Value: number }[] | null | undefined, set: ReadonlySet<number>): FilterOption<number>[] => {
  const byKey = new Map((counts ?? []).map((s) => [s.Key, s.Value]));
  for (const s of set) if (!byKey.has(s)) byKey.set(s, 0);
  return [...byKey].sort(([a], [b]) => a - b).map(([key, count]) => ({ key, label: stopLabel(key), count }));
};

const periodsIn = (departures: readonly string[] | undefined): FilterOption<DayPeriod>[] => {
  const seen = new Set((departures ?? []).map(periodOf));
  return PERIODS.filter((p) => seen.has(p.id)).map((p) => ({ key: p.id, label: p.label }));
};

/**
 * Filter options from `meta`: stops, airlines and payment with `meta.Contagens` (price groups per value over
 * the whole result, whatever filters are set), and the parts of the day that have departures. An option the
 * person has set stays listed even when the answer no longer has it, so it can be unset.
 */
export const filterOptionsOf = (meta: ModeAMeta | undefined, names: ReadonlyMap<string, string>, filters: ModeAFilters = NO_FILTERS): FilterOptions => {
  const counts = meta?.Contagens;
  const roundTrip = Boolean(meta?.ReturnFilter);
  // Per leg: each leg's counts add up to the whole result (a round-trip group has one number of stops each way).
  const stops = stopOptions(counts?.ParadasIda ?? counts?.Paradas, filters.stops);
  const returnStops = roundTrip ? stopOptions(counts?.ParadasVolta, filters.returnStops ?? new Set()) : [];
  const airlines = new Map((counts?.Companhias ?? []).map((c) => [c.Key, c.Value]));
  for (const a of filters.airlines) if (!airlines.has(a)) airlines.set(a, 0);
  const airlineName = (iata: string) => names.get(iata) ?? airlineByIata(iata)?.name ?? iata;
  const payments: FilterOption<Payment>[] = counts
    ? [
        { key: "milhas", label: "Milhas", count: counts.Milhas },
        { key: "dinheiro", label: "Dinheiro (pagante)", count: counts.Dinheiro },
      ]
    : [];
  return {
    stops,
    returnStops,
    airlines: [...airlines]
      .map(([key, count]) => ({ key, label: airlineName(key), count }))
      .sort((a, b) => a.label.localeCompare(b.label, "pt-BR")),
    payments: payments.filter((p) => (p.count ?? 0) > 0 || filters.payment === p.key),
    outbound: periodsIn(meta?.WayFilter.DepartureDate),
    inbound: meta?.ReturnFilter ? periodsIn(meta.ReturnFilter.DepartureDate) : [],
  };
};

/** Airline names by IATA designator, as the groups on screen write them. */
export const airlineNamesOf = (flights: readonly ModeAFlight[]): ReadonlyMap<string, string> =>
  new Map(flights.map((f) => [f.validatingBy.iata, f.validatingBy.name]));

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
