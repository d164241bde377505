#!/usr/bin/env node
/**
 * `prepack` of every workspace package: a tarball is made only when it can be right.
 *
 * - A private package (the apps, the examples, the docs) is never packed: `pnpm pack` or `npm pack` in its folder
 *   stops with a message saying how to pack the published packages. (`pnpm -r pack` does not even try: it packs only
 *   packages with a version, and the private ones have none.)
 * - A published package is packed by pnpm only. In the repository its `exports` point at the TypeScript
 *   sources; `publishConfig.exports` (the built `dist/`) replaces them in the tarball, and only pnpm applies
 *   that. npm, yarn or bun would pack a manifest whose every entry points at files the tarball does not have.
 * - The built files the published manifest names must exist (`pnpm build` first).
 *
 * Runs with plain `node`, from the package's folder (npm and pnpm run `prepack` there).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const name = manifest.name ?? path.basename(process.cwd());
const agent = process.env.npm_config_user_agent ?? "";
/** @param {readonly string[]} lines */
const stop = (lines) => {
  console.error(`\n${name}: not packed.\n  ${lines.join("\n  ")}\n`);
  process.exit(1);
};

if (manifest.private === true) {
  stop([
    "It is private (an application, an example or the documentation of this repository): it is never packed or published.",
    "The published packages: pnpm release --dry-run (packs and checks them), or pnpm -r pack (packs only them).",
  ]);
}
if (!agent.startsWith("pnpm/")) {
  stop([
    `It was asked by ${agent.split(" ")[0] || "a tool that is not pnpm"}. In the repository its exports point at TypeScript sources;`,
    "the published manifest (publishConfig.exports, pointing at dist/) is applied by pnpm only, so any other tool",
    "would make a tarball whose every entry is missing. Pack it with pnpm: pnpm pack (here), or pnpm release --dry-run.",
  ]);
}
/** @type {(exports: unknown) => string[]} */
const targets = (exports) => (typeof exports === "string" ? [exports] : exports && typeof exports === "object" ? Object.values(exports).flatMap(targets) : []);
const missing = targets(manifest.publishConfig?.exports ?? manifest.exports).filter((/** @type {string} */ file) => !existsSync(file));
if (missing.length > 0) stop([`The built files it publishes are missing (${missing.join(", ")}): run pnpm build first.`]);
