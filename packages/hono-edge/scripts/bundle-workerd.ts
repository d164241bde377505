/**
 * Bundles the workerd entry for deployment (ESM, platform neutral, the `workerd`/`worker`/`browser` export
 * conditions; the airport table is core's own compact generated module). `pnpm --filter @voar/hono-edge
 * bundle:workerd` writes dist/workerd.js; tests and the bench call {@link bundleWorkerd} for the text.
 */
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

export const bundleWorkerd = async (options: { readonly minify?: boolean; readonly outfile?: string } = {}) => {
  const result = await build({
    entryPoints: [path.join(PACKAGE_DIR, "src/entries/workerd.ts")],
    bundle: true,
    minify: options.minify ?? true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    write: options.outfile !== undefined,
    ...(options.outfile ? { outfile: options.outfile } : {}),
    metafile: true,
    logLevel: "error",
  });
  return { text: result.outputFiles?.[0]?.text, metafile: result.metafile };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  await bundleWorkerd({ outfile: path.join(PACKAGE_DIR, "dist/workerd.js") });
}
