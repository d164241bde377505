/**
 * The layers of `@voar/core`'s sources and the check that keeps them: a module may import from its own folder and
 * from the folders below its own, never from one above. A search flows request → query → engine → views →
 * envelope; the folders are ordered by what each needs to know:
 *
 * - the query is the bottom of the flow: the engine runs it, the views and the envelope read its view (filters,
 *   sort), the request parser produces it;
 * - the engine runs sources; views are built from its snapshots; the envelope writes the views;
 * - request/ is the outermost layer of a search: parsing a request answers with the envelope's field errors and reads
 *   the same `Filtros` and `Ordenacao` the envelope echoes in `meta`;
 * - calendar/ sits on top of them all: a calendar is made of whole searches (their snapshots, their round-trip
 *   views, their request rules and envelope).
 *
 * Under them a shared base everyone may import (util, domain, the airport table, errors), and the tolerant reader
 * of upstream answers next to the engine, as what sources use to turn an answer into domain offers.
 */
import ts from "typescript";

/** The folders of src/, bottom first. `src/index.ts` (the public barrel) sits above them all. */
export const LAYERS = [
  "util", // leaf helpers (hash53)
  "domain", // money, airlines, airports, itineraries, offers, time zones
  "airports", // the airport table of @voar/core/airports, over domain's Airport
  "errors", // source errors, a source's progress, the error catalogue (code → HTTP status, messages)
  "query", // what a search is asked: the query, and the view of its result (filters, sort)
  "upstream", // the tolerant reader: an upstream answer → domain offers (what sources use)
  "engine", // search(): sources → events → snapshots
  "views", // a snapshot → a Mode A page, a Mode B result
  "envelope", // views → our envelope: schemas, writers, progress, Filtros and Ordenacao
  "request", // a request body → a query and a view (and back, for clients)
  "calendar", // the price calendar: day searches composed (plan, cheapest fares, the Observable, its request and answer)
  "alerts", // price watches: their request, the rule that fires them, prices per cabin, the wire of watches and alerts
] as const;

/** A module of src/: its path relative to src/ (`engine/search.ts`) and its text. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

/** One import that breaks the layering. */
export interface LayerViolation {
  readonly file: string;
  readonly specifier: string;
  readonly reason: string;
}

/** The package's own entries: importing them from inside is importing the barrel (the top). */
const SELF = new Map([
  ["@voar/core", "index.ts"],
  ["@voar/core/airports", "airports/index.ts"],
]);

const TOP = LAYERS.length;

/** The rank of a path relative to src/: its top folder's place in LAYERS; TOP for `index.ts`; -1 when unknown. */
const rankOf = (path: string): number => {
  const slash = path.indexOf("/");
  if (slash < 0) return path.replace(/\.[jt]s$/, "") === "index" ? TOP : -1;
  return (LAYERS as readonly string[]).indexOf(path.slice(0, slash));
};

const layerName = (rank: number): string => (rank === TOP ? "the public barrel (src/index.ts)" : `${LAYERS[rank]}/`);

/** `a/b/../c.js` → `a/c.js`; undefined when it leaves src/. */
const normalize = (parts: readonly string[]): string | undefined => {
  const out: string[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
};

/** The imports of each file (static, type-only, re-exports and dynamic) that reach a layer above the file's own. */
export const layerViolations = (files: readonly SourceFile[]): LayerViolation[] => {
  const violations: LayerViolation[] = [];
  for (const file of files) {
    const own = rankOf(file.path);
    if (own < 0) {
      violations.push({ file: file.path, specifier: "", reason: `its folder is not in the layer order (LAYERS in test/support/layers.ts): place it there` });
      continue;
    }
    const dir = file.path.split("/").slice(0, -1);
    for (const { fileName: specifier } of ts.preProcessFile(file.text, true, true).importedFiles) {
      const target = SELF.get(specifier) ?? (specifier.startsWith(".") ? normalize([...dir, ...specifier.split("/")]) : null);
      if (target === null) continue; // another package
      if (target === undefined) {
        violations.push({ file: file.path, specifier, reason: "it reaches outside src/" });
        continue;
      }
      const rank = rankOf(target);
      if (rank > own) {
        violations.push({ file: file.path, specifier, reason: `${layerName(own)} may not import from ${layerName(rank)}, a layer above it` });
      } else if (rank < 0) {
        violations.push({ file: file.path, specifier, reason: "it imports from a folder that is not in the layer order" });
      }
    }
  }
  return violations;
};

const fs = (await import("node:fs" as string)) as {
  readdirSync(path: string, options: { recursive: true }): string[];
  readFileSync(path: string, encoding: "utf8"): string;
};

/** The `.ts` modules under a src/ folder, paths relative to it with `/` separators. */
export const readSources = (srcDir: string): SourceFile[] =>
  fs
    .readdirSync(srcDir, { recursive: true })
    .map((f) => f.replaceAll("\\", "/"))
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((path) => ({ path, text: fs.readFileSync(`${srcDir}/${path}`, "utf8") }));
