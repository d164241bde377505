/**
 * Bundles the workerd entry for deployment (ESM, platform neutral, the `workerd`/`worker`/`browser` export
 * conditions; the airport table is core's own compact generated module). `pnpm --filter @voar/hono-edge
 * bundle:workerd` writes dist/workerd.js (`--contents`: and prints what it is made of, see
 * `bundle-contents.ts`); tests and the bench call {@link bundleWorkerd} for the text.
 */
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleContents, contentsTable } from "./bundle-contents.js";

const PACKAGE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUTFILE = path.join(PACKAGE_DIR, "dist/workerd.js");

export interface BundleOptions {
  readonly minify?: boolean;
  /** Write the bundle there; without it, nothing is written and the text is returned. */
  readonly outfile?: string;
  /** Also make the source map (returned as `sourceMap`, for {@link bundleContents}). */
  readonly sourceMap?: boolean;
}

export const bundleWorkerd = async (options: BundleOptions = {}) => {
  const result = await build({
    entryPoints: [path.join(PACKAGE_DIR, "src/entries/workerd.ts")],
    bundle: true,
    minify: options.minify ?? true,
    format: "esm",
    platform: "neutral",
    // es2015: rxjs's ES2015 build (classes, no tslib helpers) over its ES5 default.
    conditions: ["workerd", "worker", "browser", "es2015"],
    mainFields: ["browser", "module", "main"],
    write: options.outfile !== undefined,
    // An output path even when nothing is written: esbuild names the source map after it.
    outfile: options.outfile ?? OUTFILE,
    ...(options.sourceMap ? { sourcemap: "external" as const } : {}),
    metafile: true,
    logLevel: "error",
  });
  const files = result.outputFiles ?? [];
  return {
    text: files.find((f) => f.path.endsWith(".js"))?.text,
    sourceMap: files.find((f) => f.path.endsWith(".js.map"))?.text,
    metafile: result.metafile,
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const contents = process.argv.includes("--contents");
  await bundleWorkerd({ outfile: OUTFILE });
  if (contents) {
    const { text, sourceMap } = await bundleWorkerd({ sourceMap: true });
    console.log(contentsTable(bundleContents(text!, sourceMap!, path.dirname(OUTFILE)), 20));
  }
}
