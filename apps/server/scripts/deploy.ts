/**
 * Makes a self-contained production copy of `@voar/server` (the `voar-server` binary and its production
 * dependencies: @voar/hono-edge, and the simulator and Redis client that hono-edge loads when configured) in a
 * directory: what the Docker image runs, and what the deployment test starts. Build first
 * (`pnpm --filter "@voar/server..." build`), then:
 *
 *   pnpm --filter @voar/server exec tsx scripts/deploy.ts /path/to/target
 *
 * `pnpm deploy` copies the workspace packages as they are in the repository, whose `exports` point at
 * TypeScript sources for development; it does not apply `publishConfig` (pnpm/pnpm#6693). This applies it to
 * every `@voar/*` package of the copy, as `pnpm pack` would, and checks that every export it names exists.
 *
 * `@voar/testing` and `ioredis` are optional peers of `@voar/hono-edge`, loaded by `import()` only when the
 * configuration needs them; pnpm links them next to hono-edge's copy because this package provides them. The
 * script checks that they resolve from there, so an image that would exit with "needs the optional package" at
 * start is not made.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** `publishConfig` fields that configure the registry, not the package. */
const REGISTRY_ONLY = new Set(["access", "registry", "tag", "provenance"]);

const targets = (exportsField: unknown): string[] =>
  typeof exportsField === "string" ? [exportsField] : typeof exportsField === "object" && exportsField !== null ? Object.values(exportsField).flatMap(targets) : [];

/** Applies `publishConfig` to one package.json; returns the export targets that do not exist. */
const publishManifest = (manifestPath: string): string[] => {
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
  const publish = manifest["publishConfig"] as Record<string, unknown> | undefined;
  if (publish) {
    for (const [k, v] of Object.entries(publish)) if (!REGISTRY_ONLY.has(k)) manifest[k] = v;
    delete manifest["publishConfig"];
    // pnpm may hard-link the copy to the workspace's file: replace the link, never write through it.
    rmSync(manifestPath);
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  const bins = typeof manifest["bin"] === "object" && manifest["bin"] !== null ? Object.values(manifest["bin"]) : [];
  return [...targets(manifest["exports"]), ...bins.map(String)].filter((t) => !t.includes("*") && !existsSync(join(dirname(manifestPath), t))).map((t) => `${manifestPath}: ${t}`);
};

/** The `@voar/*` packages pnpm copied into the target (`node_modules/.pnpm/@voar+x@file+.../node_modules/@voar/x`). */
const workspaceCopies = (target: string): string[] => {
  const store = join(target, "node_modules", ".pnpm");
  return readdirSync(store)
    .filter((d) => d.startsWith("@voar+"))
    .flatMap((d) => {
      const scope = join(store, d, "node_modules", "@voar");
      return readdirSync(scope).map((name) => join(scope, name, "package.json"));
    })
    .filter((p, i, all) => existsSync(p) && all.indexOf(p) === i);
};

const target = process.argv[2];
if (!target) {
  console.error("usage: tsx scripts/deploy.ts <target directory>");
  process.exit(2);
}
const dir = resolve(target);
const packageDir = resolve(import.meta.dirname, "..");
const honoEdgeDir = resolve(packageDir, "..", "..", "packages", "hono-edge");
if (!existsSync(join(honoEdgeDir, "dist", "node.js"))) {
  console.error(`${honoEdgeDir}/dist is missing: build first (pnpm --filter "@voar/server..." build)`);
  process.exit(1);
}
execFileSync("pnpm", ["--filter", "@voar/server", "--prod", "deploy", "--legacy", dir], { cwd: packageDir, stdio: ["ignore", "inherit", "inherit"] });
const missing = [join(dir, "package.json"), ...workspaceCopies(dir)].flatMap(publishManifest);
if (missing.length > 0) {
  console.error(`exports that name missing files (was every package built?):\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
// What hono-edge's Node entry imports, resolved as it would resolve it: from hono-edge's copy.
const resolveFrom = (from: string, specifiers: readonly string[]): string =>
  execFileSync(process.execPath, ["--input-type=module", "-e", `for (const s of ${JSON.stringify(specifiers)}) console.log(s + " -> " + import.meta.resolve(s));`], {
    cwd: from,
    encoding: "utf8",
  });
try {
  const entry = resolveFrom(join(dir, "bin"), ["@voar/hono-edge/node"]).trim().split(" -> ")[1]!;
  resolveFrom(join(fileURLToPath(entry), ".."), ["@voar/testing/simulator", "ioredis", "@voar/http-adapter", "@hono/node-server"]);
} catch (e) {
  console.error(`the copy does not resolve what voar-server may load: ${(e as { stderr?: unknown }).stderr ?? String(e)}`);
  process.exit(1);
}
console.log(`deployed @voar/server to ${dir}: run node ${join(dir, "bin", "voar-server.js")}`);
