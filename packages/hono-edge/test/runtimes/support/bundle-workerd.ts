import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { PACKAGE_DIR } from "./runtime-binaries.js";

/**
 * Bundles the workerd entry as the `bundle:workerd` script does (ESM, platform neutral, the `workerd` /
 * `worker` / `browser` export conditions), into a temporary folder, and returns the script's text: the
 * test needs no prior build.
 */
export const bundleWorkerd = async (): Promise<string> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "voar-workerd-"));
  try {
    const outfile = path.join(dir, "workerd.js");
    await build({
      entryPoints: [path.join(PACKAGE_DIR, "src/entries/workerd.ts")],
      bundle: true,
      format: "esm",
      platform: "neutral",
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["browser", "module", "main"],
      outfile,
      logLevel: "error",
    });
    return await readFile(outfile, "utf8");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
