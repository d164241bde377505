/**
 * The workspace's packages depend on each other without a cycle, counting devDependencies as pnpm does:
 * a cycle makes `pnpm install` warn "There are cyclic workspace dependencies" and leaves the order of
 * workspace scripts (`pnpm -r`) to chance. A test that needs a package depending on this one lives there.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

/** Every package of the workspace's folders (pnpm-workspace.yaml: packages/*, apps/*, examples/*, docs). */
const manifests = (): Manifest[] =>
  ["packages", "apps", "examples"]
    .flatMap((folder) => readdirSync(join(ROOT, folder)).map((name) => join(ROOT, folder, name, "package.json")))
    .concat(join(ROOT, "docs", "package.json"))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, "utf8")) as Manifest);

/** A cycle of workspace dependencies as names, first name repeated at the end; undefined when there is none. */
const findCycle = (graph: ReadonlyMap<string, readonly string[]>): string[] | undefined => {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === "done") return undefined;
    if (state.get(name) === "open") return [...path.slice(path.indexOf(name)), name];
    state.set(name, "open");
    path.push(name);
    for (const next of graph.get(name) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(name, "done");
    return undefined;
  };
  for (const name of graph.keys()) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return undefined;
};

describe("the workspace's dependency graph", () => {
  it("has no cycle, devDependencies included", () => {
    const all = manifests();
    const names = new Set(all.map((m) => m.name));
    expect(names.has("@voar/http-adapter")).toBe(true);
    const graph = new Map(all.map((m) => [m.name, Object.keys({ ...m.dependencies, ...m.devDependencies, ...m.optionalDependencies }).filter((d) => names.has(d))]));
    expect(findCycle(graph)).toBeUndefined();
  });

  it("finds a cycle through a devDependency, as pnpm does", () => {
    const graph = new Map([
      ["@voar/hono-edge", ["@voar/http-adapter"]],
      ["@voar/http-adapter", ["@voar/core", "@voar/hono-edge"]],
      ["@voar/core", []],
    ]);
    expect(findCycle(graph)).toEqual(["@voar/hono-edge", "@voar/http-adapter", "@voar/hono-edge"]);
  });
});
