#!/usr/bin/env node
/**
 * `node edge-runtimes/run.mjs <command> [args...]`: runs one of the edge runtimes' commands (`wrangler`, `deno`,
 * `bun`, `miniflare`) from this folder's `node_modules/.bin`, installing them first when needed (`install.mjs`),
 * in the caller's folder, with its arguments, output and exit code. What the Worker's package scripts use.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { EDGE_DIR, ensureEdgeRuntimes } from "./install.mjs";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node edge-runtimes/run.mjs <wrangler|deno|bun|miniflare> [args...]");
  process.exit(2);
}
try {
  ensureEdgeRuntimes();
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
const child = spawn(path.join(EDGE_DIR, "node_modules", ".bin", command), args, { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.once("error", (e) => {
  console.error(`edge-runtimes: ${command}: ${e.message}`);
  process.exit(1);
});
child.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
