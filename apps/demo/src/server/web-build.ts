import { readdir, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

const demoDir = fileURLToPath(new URL("../../", import.meta.url));

/** Where the built page lives. */
export const WEB_DIST = join(demoDir, "dist/web");

/** What the page is built from: its own code and the workspace packages it bundles. */
const INPUTS = ["src/web", "src/shared", "vite.config.ts", "../../packages/http-adapter/src", "../../packages/core/src"].map((p) => join(demoDir, p));

/** Newest modification time under a path (0 when it does not exist). */
const newestMtime = async (path: string): Promise<number> => {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path, { withFileTypes: true });
  const times = await Promise.all(entries.filter((e) => e.name !== "node_modules").map((e) => newestMtime(join(path, e.name))));
  return Math.max(info.mtimeMs, ...times);
};

/** Whether the built page is missing or older than what it is built from. */
export const webBuildIsStale = async (): Promise<boolean> => {
  const built = await stat(join(WEB_DIST, "index.html")).catch(() => undefined);
  if (!built) return true;
  const inputs = await Promise.all(INPUTS.map(newestMtime));
  return Math.max(...inputs) > built.mtimeMs;
};

/**
 * Builds the page with Vite when it is missing or stale, so a fresh clone and an edited source both serve
 * the current page with no separate step. Returns whether it built.
 */
export const ensureWebBuild = async (options: { readonly force?: boolean; readonly log?: (line: string) => void } = {}): Promise<boolean> => {
  if (!options.force && !(await webBuildIsStale())) return false;
  options.log?.("Construindo a página com o Vite…");
  // Imported here, not at the top: serving an up-to-date build never loads Vite.
  const { build } = await import("vite");
  await build({ configFile: join(demoDir, "vite.config.ts"), logLevel: "warn" });
  return true;
};
