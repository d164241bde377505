import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EDGE_DIR, ensureEdgeRuntimes } from "./edge-runtimes.js";

/** The package's root (what the runtimes run in: its sources, its `node_modules`). */
export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** A runtime's binary, or why there is none. */
export type Binary = { readonly ok: true; readonly path: string; readonly version: string } | { readonly ok: false; readonly reason: string };

const probe = (file: string): Binary => {
  const run = spawnSync(file, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (run.status === 0) return { ok: true, path: file, version: run.stdout.trim().split("\n")[0]! };
  return { ok: false, reason: `${file} --version failed (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr || run.stdout).trim().slice(0, 300)}` };
};

/**
 * Deno, from the npm package `deno` in `edge-runtimes/`. Its bin is a Node script that puts the platform package's
 * binary beside itself on first use and runs it as a child: the tests run that binary itself, so that stopping
 * the server stops Deno (stopping the script left Deno running, orphaned).
 */
export const denoBinary = (): Binary => {
  ensureEdgeRuntimes();
  const viaScript = probe(path.join(EDGE_DIR, "node_modules/.bin/deno"));
  const exe = path.join(EDGE_DIR, "node_modules/deno", process.platform === "win32" ? "deno.exe" : "deno");
  return viaScript.ok && existsSync(exe) ? { ...viaScript, path: exe } : viaScript;
};

/**
 * Bun, from the npm package `bun` in `edge-runtimes/`. Its bin is a placeholder that its postinstall script replaces, and pnpm
 * runs no dependency's scripts unless told to; so when the bin does not answer, the binary is taken from
 * the platform package the `bun` package depends on (`@oven/bun-<os>-<arch>`), which ships it as is.
 */
export const bunBinary = (): Binary => {
  ensureEdgeRuntimes();
  const bin = probe(path.join(EDGE_DIR, "node_modules/.bin/bun"));
  if (bin.ok) return bin;
  const arch = process.arch === "arm64" ? "aarch64" : process.arch;
  const platformPackage = `@oven/bun-${process.platform}-${arch}`;
  try {
    const fromBun = createRequire(createRequire(path.join(EDGE_DIR, "package.json")).resolve("bun/package.json"));
    return probe(path.join(path.dirname(fromBun.resolve(`${platformPackage}/package.json`)), "bin", "bun"));
  } catch (e) {
    return { ok: false, reason: `${bin.reason}; and ${platformPackage} is not installed: ${e instanceof Error ? e.message : String(e)}` };
  }
};

/**
 * Whether a runtime's tests run: always when its binary works; without it they fail under CI (with the
 * reason) and are skipped on a developer's machine (with the reason printed).
 */
export const runsHere = (name: string, binary: Binary): boolean => {
  if (binary.ok) return true;
  if (process.env["CI"] === "true") return true; // the start will fail with the reason
  console.warn(`skipping the ${name} runtime tests: ${binary.reason}`);
  return false;
};
