import { summarize } from "../lib/measure.js";
import { cell, type Row } from "../lib/report.js";
import { CPU_PARTS } from "../service/cpu-parts.js";
import { measureCpuBreakdown } from "../service/cpu-breakdown.js";
import type { Section } from "../run-all.js";

const S = "3b. A search's CPU";

/** Section 3b: one search's CPU by part, beside a plain-Node floor doing the same upstream reading and page writing. */
export const cpuRows = async (quick: boolean): Promise<Section> => {
  const { rounds } = await measureCpuBreakdown(quick);
  const first = rounds[0]!;
  const total = summarize(rounds.map((r) => r.cpuPerSearchMs));
  const floor = summarize(rounds.map((r) => r.floorPerSearchMs));
  const ratio = summarize(rounds.map((r) => r.cpuPerSearchMs / r.floorPerSearchMs));
  const errors = rounds.reduce((n, r) => n + r.errors, 0);
  const kinds: Record<string, number> = {};
  for (const r of rounds) for (const [k, n] of Object.entries(r.errorKinds)) kinds[k] = (kinds[k] ?? 0) + n;
  const errorText = errors === 0 ? "0" : `${errors} (${Object.entries(kinds).map(([k, n]) => `${n}× ${k}`).join(", ")})`;
  const sampled = (r: (typeof rounds)[number]) => CPU_PARTS.reduce((n, p) => n + r.parts[p], 0);
  const rows: Row[] = [
    {
      section: S,
      figure: `the floor: plain Node (node:http, no framework) reading the same upstream answers over HTTP and parsing them, and writing the same pages to the same requests, per search (anchor)`,
      value: cell(floor, "ms"),
    },
    {
      section: S,
      figure: `\`voar-server\` (memory store, request log on), ${first.searches} searches started over 500 ms, polled every 500 ms, ${(first.requests / first.searches).toFixed(1)} requests, ${first.offersPerSearch.toFixed(0)} offers and ${first.upstreamAnswers.toFixed(1)} upstream answers (${(first.upstreamBytes / 1024).toFixed(0)} KB) per search; errors ${errorText}: CPU per search, profiler on`,
      value: cell(total, "ms"),
      ratio: `${ratio.median.toFixed(2)}x (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})`,
      target: "≤ 3x",
      verdict: ratio.median <= 3 ? "met" : "missed",
    },
    ...CPU_PARTS.map((p): Row => {
      const ms = summarize(rounds.map((r) => r.parts[p]));
      const share = summarize(rounds.map((r) => r.parts[p] / sampled(r)));
      return { section: S, figure: `  ${p}, per search`, value: cell(ms, "ms"), ratio: `${(share.median * 100).toFixed(0)}% of the samples`, target: "info", verdict: "info" };
    }),
  ];
  return {
    title: S,
    rows,
    notes: [
      `One search's CPU split by part, on one load: \`voar-server\` (the production entry, request log on, the memory store) searching the fake upstream in a process of its own (400 ms per source), ${first.searches} searches per round started over 500 ms and each polled every 500 ms until complete, after a warm-up round; ${rounds.length} round${rounds.length > 1 ? "s" : ""}, each from an empty service (the searches before expired). V8's CPU profiler runs in the server for each round alone (1 ms between samples) and gives every sample to the nearest frame, from the sampled function up its callers, whose script is of a part: \`packages/core/src/upstream\` is normalization; the core's engine and domain and the service's search hub are the engine; the core's views and envelopes and the service's answer writing are views and pages; session stores, snapshot caches and Redis are the store; \`packages/http-adapter\`, undici and the service's upstream sources are upstream I/O and reading; Hono, @hono/node-server, node:http and the service's routes and middleware are HTTP; the request log, metrics and tracing are logging and telemetry. Builtins (\`JSON.parse\`, \`JSON.stringify\`), effect's data structures and runtime and Node's streams pass their samples to their caller; what no classified frame called (the event loop, sockets' reads and writes, timers) is "Node I/O and event loop"; the garbage collector is a part of its own. The profiler costs some CPU of its own, so the total is read with it on, and the parts add up to the samples.`,
      "The floor, measured in the same run: the round's upstream answers (recorded by the fake upstream) served from the bench process and, in a plain Node process with no framework, read over node:http's client and parsed by `JSON.parse`, each search reading its share at its first request; and the same pages (recorded by the clients) written by node:http to the same number of requests at the same pace. It is what any service must spend to carry the same bytes in and out; target: a search's CPU within 3x of it.",
    ],
  };
};
