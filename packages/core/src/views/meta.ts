import * as HashMap from "effect/HashMap";
import type { AirportDirectory } from "../domain/airport.js";
import type { DirectionIndex } from "../engine/result-index.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { sortedValues } from "../engine/sorted-set.js";
import type { FilterView, GroupCounts, MetaView } from "./views.js";

const filterOf = (ix: DirectionIndex): FilterView => {
  const airlines = Array.from(HashMap.entries(ix.airlines)).sort((a, b) => a[1].localeCompare(b[1]));
  return {
    stops: Array.from(HashMap.entries(ix.stops)).sort((a, b) => a[0] - b[0]),
    airlines: airlines.map(([, name]) => name),
    airlineIatas: airlines.map(([iata]) => iata).sort(),
    departures: sortedValues(ix.departures),
    arrivals: sortedValues(ix.arrivals),
    departureAirports: sortedValues(ix.departureAirports),
    arrivalAirports: sortedValues(ix.arrivalAirports),
    total: ix.flights.size,
  };
};

const metaCache = new WeakMap<SearchSnapshot, MetaView>();

/**
 * Mode A `meta` over the whole result set (not only the page). Cost grows with the number of distinct
 * filter values (departure times, airports), not with the number of offers; computed once per snapshot
 * version, since every page of that version shares it.
 */
export const metaOf = (s: SearchSnapshot, airports: AirportDirectory, totalGroups: number, counts: () => GroupCounts): MetaView => {
  const cached = metaCache.get(s);
  if (cached) return cached;
  const meta = { ...computeMeta(s, airports, totalGroups), counts: counts() };
  metaCache.set(s, meta);
  return meta;
};

const computeMeta = (s: SearchSnapshot, airports: AirportDirectory, totalGroups: number): Omit<MetaView, "counts"> => {
  const roundTrip = s.query.returnDate !== undefined;
  const originCountry = airports.get(s.query.origin)?.country;
  const endpoints = new Set([s.query.origin, s.query.destination]);
  const codes = new Set([...sortedValues(s.outbound.airports), ...(roundTrip ? sortedValues(s.inbound.airports) : [])]);
  const list: MetaView["airports"][number][] = [];
  for (const code of codes) {
    const airport = airports.get(code);
    if (!airport) continue;
    list.push({ airport, stop: !endpoints.has(code), international: originCountry !== undefined && airport.country !== originCountry });
  }
  return {
    airports: list,
    totalGroups,
    countFlights: s.outbound.flights.size + (roundTrip ? s.inbound.flights.size : 0),
    way: filterOf(s.outbound),
    back: roundTrip ? filterOf(s.inbound) : undefined,
  };
};
