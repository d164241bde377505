/**
 * `pnpm bench` — runs every benchmark of the repo in one process, one after the other, and writes
 * BENCHMARKS.md (`--quick`: small sizes, seconds; prints the table and does not overwrite the committed file
 * unless `--write` is given). `--only=<section>[,<section>]` (engine, latency, service, cpu, upstream, variance, edge,
 * cache, calendar, load, topologies, alerts) runs those sections alone and prints their rows; with `--write` (and
 * not `--quick`) their rows and notes replace theirs in BENCHMARKS.md, the others kept (`bench/lib/merge-report.ts`).
 * Nothing here asserts absolute times: comparisons are ratios measured side by side.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { isQuick } from "./lib/measure.js";
import { machine } from "./lib/machine.js";
import { markdownTable, noteItem, summaryTable, type Row } from "./lib/report.js";
import { mergeSections, readReport } from "./lib/merge-report.js";
import { engineRows } from "./sections/engine.js";
import { latencyRows } from "./sections/latency.js";
import { upstreamRows } from "./sections/upstream.js";
import { varianceRows } from "./sections/variance.js";
import { serviceRows } from "./sections/service.js";
import { cpuRows } from "./sections/cpu.js";
import { edgeRows } from "./sections/edge.js";
import { cacheRows } from "./sections/cache.js";
import { calendarRows } from "./sections/calendar.js";
import { loadRows } from "./sections/load.js";
import { topologyRows } from "./sections/topologies.js";
import { alertRows } from "./sections/alerts.js";

/** A section of the report: its rows and its "how to read" paragraph. */
export interface Section {
  readonly title: string;
  readonly rows: readonly Row[];
  readonly notes: readonly string[];
}

const quick = isQuick();
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
const sections: Section[] = [];
const run = async (name: string, f: () => Promise<Section>, key = name) => {
  if (only && !only.includes(key)) return;
  const t0 = performance.now();
  process.stdout.write(`• ${name}… `);
  const section = await f();
  sections.push(section);
  process.stdout.write(`${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
};

await run("engine", () => engineRows(quick));
await run("time to result", () => latencyRows(quick), "latency");
await run("service", () => serviceRows(quick));
await run("a search's CPU", () => cpuRows(quick), "cpu");
await run("upstream", () => upstreamRows(quick));
await run("upstream under variance", () => varianceRows(quick), "variance");
await run("edge", () => edgeRows(quick));
await run("fewer upstream calls", () => cacheRows(quick), "cache");
await run("price calendar", () => calendarRows(quick), "calendar");
await run("load", () => loadRows(quick));
await run("Redis topologies", () => topologyRows(quick), "topologies");
await run("price watches", () => alertRows(quick), "alerts");

const m = machine();
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "BENCHMARKS.md");
const merging = only !== undefined && !quick && process.argv.includes("--write");
const written = merging ? readReport(readFileSync(out, "utf8")) : undefined;
const fresh = sections.map((s) => ({ title: s.title, rows: s.rows, notes: s.notes.map((n) => noteItem(n)).join("\n") }));
const merged = written ? mergeSections(written, fresh) : { rows: sections.flatMap((s) => s.rows), notes: fresh.map((s) => ({ title: s.title, text: s.notes })) };
const allRows = merged.rows;
const judged = (v: "met" | "missed") => allRows.filter((r) => r.verdict === v).map((r) => `${r.section.replace(/^\d+\. /, "")}: ${r.figure.trim()}`);
const inThisRun = `In ${written ? "this report" : "this run"}, met: ${judged("met").join("; ") || "none"}. Missed: ${judged("missed").join("; ") || "none"}.`;
const measuredLine = `Measured ${m.date} on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}${quick ? " (quick mode: small sizes)" : ""}.`;
const header = written
  ? [written.measured, ...written.remeasured, `Re-measured ${m.date} on the same kind of machine (Node ${m.node}): ${sections.map((s) => s.title).join(", ")}.`]
  : [measuredLine];
const doc = [
  "# Benchmarks",
  "",
  ...header,
  "Each figure is the median of at least 5 runs, with min and max; each comparison was measured side by side in the same",
  "run and is given as a ratio, because absolute times on a shared machine drift. Regenerate with `npx -y pnpm@10.34.9 bench`.",
  "",
  "## Summary",
  "",
  summaryTable(allRows),
  "",
  inThisRun,
  "",
  "## Every figure",
  "",
  markdownTable(allRows),
  "",
  ...(written?.extra ?? []).flatMap((block) => [block, ""]),
  "## How to read these figures",
  "",
  "Targets, each against an anchor measured in the same run: incremental ingestion at most 1.5x one-shot; page cost at most 3x; polling by Token (the app, request log on) at least 0.85 of what Hono alone gives an answer that carries its own request id (each against the same bare node:http server); memory per active search at most 1 MB of heap per 1,000 offers; SSE first result within 50 ms of the fastest source; workerd bundle at most 300 KB gzip; upstream requests of a Zipf mix at most 0.5x of the plain clients the service replaces and at most 1.15x of the mix's windowed floor; a cached route's first SSE result within 50 ms; a fan-out search at most 1.5x the upstream requests of one all-airlines search. The load at 1,000 concurrent searches is printed beside 200 with no target yet. The last column marks each as met or missed; where a target is missed, the notes of its section say why and what would close it.",
  "",
  ...merged.notes.flatMap((n) => [`### ${n.title}`, "", n.text, ""]),
].join("\n");

console.log(`\n${markdownTable(sections.flatMap((s) => s.rows))}\n\n${inThisRun}`);
if (merging || (!only && (!quick || process.argv.includes("--write")))) {
  writeFileSync(out, doc);
  console.log(`\nwrote ${out}`);
}
