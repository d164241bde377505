/**
 * Makes a self-contained production copy of `@voar/hono-edge` (the `voar-server` binary and its production
 * dependencies) in a directory: what the Docker image runs, and what the deployment test starts. Build
 * first (`pnpm --filter "@voar/hono-edge..." build`), then:
 *
 *   pnpm --filter @voar/hono-edge exec tsx scripts/deploy.ts /path/to/target
 *
 * `pnpm deploy` copies the workspace packages as they are in the repository, whose `exports` point at
 * TypeScript sources for development; it does not apply `publishConfig` (pnpm/pnpm#6693). This applies it to
 * every `@voar/*` package of the copy, as `pnpm pack` would, and checks that every export it names exists.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

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
if (!existsSync(join(packageDir, "dist", "node.js"))) {
  console.error(`${packageDir}/dist is missing: build first (pnpm --filter "@voar/hono-edge..." build)`);
  process.exit(1);
}
execFileSync("pnpm", ["--filter", "@voar/hono-edge", "--prod", "deploy", "--legacy", dir], { cwd: packageDir, stdio: ["ignore", "inherit", "inherit"] });
const missing = [join(dir, "package.json"), ...workspaceCopies(dir)].flatMap(publishManifest);
if (missing.length > 0) {
  console.error(`exports that name missing files (was every package built?):\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
console.log(`deployed @voar/hono-edge to ${dir}: run node ${join(dir, "bin", "voar-server.js")}`);
