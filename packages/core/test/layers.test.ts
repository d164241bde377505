/**
 * The core's folders import only downward: request → query → engine → views → envelope reads from the folder names
 * (the order and why: test/support/layers.ts), and no module imports from a layer above its own.
 */
import { describe, expect, it } from "vitest";
import { LAYERS, layerViolations, readSources, type SourceFile } from "./support/layers.js";

const fs = (await import("node:fs" as string)) as {
  readdirSync(path: string, options: { withFileTypes: true }): { name: string; isDirectory(): boolean }[];
};

const SRC = new URL("../src", import.meta.url).pathname;
const FIXTURE = new URL("./fixtures/upward-import", import.meta.url).pathname;
const sources = readSources(SRC);

/** The sources with `line` added at the top of `path`. */
const withLine = (path: string, line: string): SourceFile[] => {
  expect(sources.some((f) => f.path === path), `${path} is a module of src/`).toBe(true);
  return sources.map((f) => (f.path === path ? { path, text: `${line}\n${f.text}` } : f));
};

describe("the layers of @voar/core's sources", () => {
  it("places every folder of src/ in the order, and names no folder src/ lacks", () => {
    const folders = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect([...folders].sort()).toEqual([...LAYERS].sort());
  });

  it("has no import from a layer above the importing module's own", () => {
    expect(sources.length).toBeGreaterThan(50);
    expect(layerViolations(sources)).toEqual([]);
  });

  it("fails on the fixture's engine module that imports from views/", () => {
    expect(layerViolations(readSources(FIXTURE))).toEqual([
      { file: "engine/run.ts", specifier: "../views/page.js", reason: "engine/ may not import from views/, a layer above it" },
    ]);
  });

  it("fails when one upward import is added to the real sources, whatever its form", () => {
    const cases: [path: string, line: string, reason: string][] = [
      ["engine/search.ts", 'import { modeAPage } from "../views/mode-a-page.js";', "engine/ may not import from views/, a layer above it"],
      ["domain/offer.ts", 'import type { SearchQuery } from "../query/query.js";', "domain/ may not import from query/, a layer above it"],
      ["views/select.ts", 'export { toWireProgress } from "../envelope/progress.js";', "views/ may not import from envelope/, a layer above it"],
      ["envelope/envelope.ts", 'const lazy = () => import("../request/request.js");', "envelope/ may not import from request/, a layer above it"],
      ["upstream/seller.ts", 'import { search } from "../engine/search.js";', "upstream/ may not import from engine/, a layer above it"],
      ["query/result-view.ts", 'import { hash53 } from "../index.js";', "query/ may not import from the public barrel (src/index.ts), a layer above it"],
      ["errors/error-catalogue.ts", 'import type { SearchQuery } from "@voar/core";', "errors/ may not import from the public barrel (src/index.ts), a layer above it"],
    ];
    for (const [path, line, reason] of cases) {
      const specifier = /["']([^"']+)["']/.exec(line)![1]!;
      expect(layerViolations(withLine(path, line)), line).toEqual([{ file: path, specifier, reason }]);
    }
  });

  it("accepts an import from a layer below, and from the module's own folder", () => {
    expect(layerViolations(withLine("views/select.ts", 'import { hash53 } from "../util/hash53.js";'))).toEqual([]);
    expect(layerViolations(withLine("request/request.ts", 'import { search } from "../engine/search.js";'))).toEqual([]);
    expect(layerViolations(withLine("engine/search.ts", 'import { reduce } from "./reduce.js";'))).toEqual([]);
  });

  it("fails on a module in a folder the order does not place", () => {
    expect(layerViolations([...sources, { path: "cache/memo.ts", text: 'export const memo = 1;\n' }])).toEqual([
      { file: "cache/memo.ts", specifier: "", reason: "its folder is not in the layer order (LAYERS in test/support/layers.ts): place it there" },
    ]);
  });
});
