import { runEdgeBench } from "../edge.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** Section 5: the workerd bundle against its budget, and cold against warm first-request latency. */
export const edgeRows = async (quick: boolean): Promise<Section> => {
  const f = await runEdgeBench(quick);
  const s = "5. Edge";
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const rows: Row[] = [
    { section: s, figure: "workerd bundle, minified (raw)", value: kb(f.rawBytes) },
    { section: s, figure: "  of which the airport table (raw)", value: kb(f.airportBytes) },
    { section: s, figure: "workerd bundle, gzip", value: kb(f.gzipBytes), ratio: `${(f.gzipBytes / (300 * 1024)).toFixed(2)}x budget`, target: "≤ 300 KB", verdict: f.gzipBytes <= 300 * 1024 ? "met" : "missed" },
    { section: s, figure: "warm workerd: a search request (anchor)", value: cell(f.warm, "ms", 1) },
    { section: s, figure: "cold workerd: start + first search request", value: cell(f.cold, "ms", 0), ratio: `${(f.cold.median / f.warm.median).toFixed(0)}x warm` },
  ];
  return {
    title: s,
    rows,
    notes: [
      "The workerd entry bundled for deployment with esbuild (`pnpm --filter @voar/hono-edge bundle:workerd`: minified, ESM, the airport data set loaded as a compact table of the fields the service reads). Budget: at most 300 KB gzip, airport data included.",
      "Where it is missed: the largest parts are zod (about 440 KB raw: the whole `z` namespace, locales and the JSON-schema generator used for OpenAPI, is kept because the code imports the namespace), the airport table (about 360 KB raw for every IATA airport with a zone) and effect (about 240 KB raw). What would close it: validating with `zod/mini` in the edge entry and serving the OpenAPI document pre-generated, and keeping airports in KV (or only the airports a deployment serves).",
      "Cold start: a new miniflare (workerd) instance, the bundle evaluated, then one search request, timed together; warm: the next request to the same instance. Loopback, same machine.",
    ],
  };
};
