/**
 * The fetch build must run on Deno, Bun, workerd and browsers: nothing it imports, directly or not, may be
 * undici or a Node built-in. Checked on the import graph of the sources.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";

const SRC = new URL("../../src/", import.meta.url);
const IMPORT = /(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

const importsOf = (file: URL): string[] => [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);

/** Every module reached from an entry: relative files followed, packages listed. */
const graph = (entry: string) => {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (url: URL) => {
    if (files.has(url.href)) return;
    files.add(url.href);
    for (const spec of importsOf(url)) {
      if (spec.startsWith(".")) visit(new URL(spec.replace(/\.js$/, ".ts"), url));
      else packages.add(spec);
    }
  };
  visit(new URL(entry, SRC));
  return { files, packages };
};

describe("the fetch build", () => {
  it("imports neither undici nor node:*", () => {
    const { files, packages } = graph("fetch.ts");
    expect(files.size).toBeGreaterThan(10);
    expect([...packages].filter((p) => p === "undici" || p.startsWith("node:") || p.startsWith("@hono/node-server"))).toEqual([]);
    expect([...files].some((f) => f.includes("undici"))).toBe(false);
  });

  it("the Node build does reach undici (so the check above can fail)", () => {
    expect(graph("index.ts").packages.has("undici")).toBe(true);
  });
});
