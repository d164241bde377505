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
import { bundleWorkerd } from "../packages/hono-edge/scripts/bundle-workerd.js";
import { miniflareOptions, readWranglerToml } from "../packages/hono-edge/scripts/wrangler-miniflare.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.join(here, "..", "packages", "hono-edge");
// esbuild and miniflare are dev dependencies of @voar/hono-edge: load them from there.
const requireFromPkg = createRequire(path.join(pkg, "package.json"));
const { Miniflare } = requireFromPkg("miniflare") as typeof import("miniflare");

const KEY = "edge-bench-key-0123456789";
const bindings = { VOAR_API_KEYS: `bench:${KEY}`, VOAR_SIMULATOR_LATENCY_MS: "50" };

export interface EdgeFigures {
  readonly rawBytes: number;
  readonly gzipBytes: number;
  readonly airportBytes: number;
  readonly cold: Figure;
  readonly warm: Figure;
}

const bundle = async () => {
  const result = await bundleWorkerd();
  const text = result.text!;
  const airportBytes = Object.entries(result.metafile.outputs)
    .flatMap(([, o]) => Object.entries(o.inputs))
    .filter(([input]) => input.includes("airport-data.generated"))
    .reduce((n, [, i]) => n + i.bytesInOutput, 0);
  return { text, airportBytes };
};

const search = (url: string) =>
  fetch(`${url}api/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20" }),
  }).then((r) => r.arrayBuffer());

export const runEdgeBench = async (quick: boolean): Promise<EdgeFigures> => {
  const { text, airportBytes } = await bundle();
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
  return { rawBytes: Buffer.byteLength(text), gzipBytes: gzipSync(text, { level: 9 }).length, airportBytes, cold: summarize(cold), warm: summarize(warm) };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await runEdgeBench(process.argv.includes("--quick"));
  console.log(`workerd bundle: ${(f.rawBytes / 1024).toFixed(0)} KB raw, ${(f.gzipBytes / 1024).toFixed(0)} KB gzip (airport data ${(f.airportBytes / 1024).toFixed(0)} KB raw)`);
  console.log(`cold start + first request: ${f.cold.median.toFixed(0)} ms (${f.cold.min.toFixed(0)}–${f.cold.max.toFixed(0)}); warm request: ${f.warm.median.toFixed(1)} ms (${f.warm.min.toFixed(1)}–${f.warm.max.toFixed(1)})`);
}
