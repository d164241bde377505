/**
 * The edge budget: the workerd entry bundled for deployment (esbuild, minified), its size raw and gzip
 * (budget 300 KB gzip, airport data included), and the first-request latency of a cold workerd start
 * (a new miniflare instance: isolate start plus module evaluation plus the request) against a warm one.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { summarize, type Figure } from "./lib/measure.js";
import { resolveRelativeDate } from "../packages/core/src/request/relative-date.js";
import { EDGE_DIR, ensureEdgeRuntimes } from "../edge-runtimes/install.mjs";
import { bundleContents, type BundlePart } from "../packages/hono-edge/scripts/bundle-contents.js";
import { bundleWorkerd } from "../packages/hono-edge/scripts/bundle-workerd.js";
import { miniflareOptions, readWranglerToml } from "../packages/hono-edge/scripts/wrangler-miniflare.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.join(here, "..", "packages", "hono-edge");
// miniflare (workerd) is installed apart, in edge-runtimes/ (first use installs it): load it from there.
ensureEdgeRuntimes();
const { Miniflare } = createRequire(path.join(EDGE_DIR, "package.json"))("miniflare") as { Miniflare: new (options: Record<string, unknown>) => { ready: Promise<URL>; dispose(): Promise<void> } };

const KEY = "edge-bench-key-0123456789";
const bindings = { VOAR_API_KEYS: `bench:${KEY}`, VOAR_SIMULATOR_LATENCY_MS: "50" };

export interface EdgeFigures {
  readonly rawBytes: number;
  readonly gzipBytes: number;
  /** What the bundle is made of, largest gzip share first (see `bundle-contents.ts`). */
  readonly parts: readonly BundlePart[];
  readonly cold: Figure;
  readonly warm: Figure;
}

const bundle = async () => {
  const { text, sourceMap } = await bundleWorkerd({ sourceMap: true });
  // The source map's sources are relative to the bundle's (unwritten) output file, dist/workerd.js.
  return { text: text!, parts: bundleContents(text!, sourceMap!, path.join(pkg, "dist")) };
};

const search = (url: string) =>
  fetch(`${url}api/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ Origem: "CNF", Destino: "SDU", Ida: resolveRelativeDate("+30") }),
  }).then((r) => r.arrayBuffer());

export const runEdgeBench = async (quick: boolean): Promise<EdgeFigures> => {
  const { text, parts } = await bundle();
  const toml = await readWranglerToml();
  const runs = quick ? 5 : 7;
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    // The Worker as wrangler.toml declares it: a search request goes to its Durable Object.
    const mf = new Miniflare({
      ...miniflareOptions(toml, { script: text, bindings }),
      // The worker's request logs are drained, not echoed into the bench's output.
      handleRuntimeStdio: (stdout, stderr) => {
        stdout.resume();
        stderr.resume();
      },
    });
    const url = (await mf.ready).toString();
    await search(url);
    cold.push(performance.now() - t0);
    const t1 = performance.now();
    await search(url);
    warm.push(performance.now() - t1);
    await mf.dispose();
  }
  return { rawBytes: Buffer.byteLength(text), gzipBytes: gzipSync(text, { level: 9 }).length, parts, cold: summarize(cold), warm: summarize(warm) };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await runEdgeBench(process.argv.includes("--quick"));
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`workerd bundle: ${kb(f.rawBytes)} raw, ${kb(f.gzipBytes)} gzip (${(f.gzipBytes / (300 * 1024)).toFixed(2)}x the 300 KB budget)`);
  for (const p of f.parts.slice(0, 6)) console.log(`  ${p.name}: ${kb(p.rawBytes)} raw, ${kb(p.gzipBytes)} of the gzip`);
  console.log(`cold start + first request: ${f.cold.median.toFixed(0)} ms (${f.cold.min.toFixed(0)}–${f.cold.max.toFixed(0)}); warm request: ${f.warm.median.toFixed(1)} ms (${f.warm.min.toFixed(1)}–${f.warm.max.toFixed(1)})`);
}
