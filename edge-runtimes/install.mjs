#!/usr/bin/env node
/**
 * Installs the edge runtimes (this folder's `package.json`: Bun, Deno, miniflare and wrangler, with workerd) when
 * they are missing or older than this folder's lockfile, into this folder's own `node_modules`. The repository's
 * install never downloads them (about 300 MB): only what runs them calls this first, the integration tier of
 * `@voar/hono-edge`, the Cloudflare example, the edge benchmark and the Worker's scripts (`dev:worker`,
 * `deploy:worker`, `wrangler`, `start:deno`, through `run.mjs`).
 *
 * Plain Node, no dependency: `node edge-runtimes/install.mjs`, or `import { ensureEdgeRuntimes }`. It runs the
 * pnpm that runs it (a package script), else `npx -y pnpm@<the root's packageManager version>`.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** This folder: where the runtimes are installed (`node_modules/.bin/wrangler`, `deno`, ...). */
export const EDGE_DIR = path.dirname(fileURLToPath(import.meta.url));
const STAMP = path.join(EDGE_DIR, "node_modules", ".voar-edge-lock");

const lockHash = () => createHash("sha256").update(readFileSync(path.join(EDGE_DIR, "pnpm-lock.yaml"))).digest("hex");

/** The pnpm to install with: the one running this script, else the repository's version through npx. */
const pnpmCommand = () => {
  const execPath = process.env["npm_execpath"];
  if (execPath && /pnpm/.test(path.basename(execPath)) && existsSync(execPath)) return [process.execPath, [execPath]];
  const root = JSON.parse(readFileSync(path.join(EDGE_DIR, "..", "package.json"), "utf8"));
  const version = /^pnpm@([\w.-]+)/.exec(root.packageManager ?? "")?.[1] ?? "latest";
  return ["npx", ["-y", `pnpm@${version}`]];
};

/** Installs the runtimes unless the installed ones match the lockfile; throws when the install fails. */
export const ensureEdgeRuntimes = () => {
  const hash = lockHash();
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === hash) return;
  console.error("edge-runtimes: installing Bun, Deno and workerd (miniflare, wrangler) into edge-runtimes/node_modules, once");
  const [command, prefix] = pnpmCommand();
  // Its own lockfile, not the workspace's: this folder is not one of the workspace's packages.
  const args = [...prefix, "install", "--frozen-lockfile", "--ignore-workspace", "--config.confirmModulesPurge=false"];
  const result = spawnSync(command, args, { cwd: EDGE_DIR, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, npm_config_user_agent: "" } });
  if (result.status !== 0) throw new Error(`edge-runtimes: ${command} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`})`);
  writeFileSync(STAMP, hash);
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureEdgeRuntimes();
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
