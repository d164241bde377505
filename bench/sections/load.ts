import { measureLoadRows } from "../service/load-rows.js";
import type { Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

const S = "7. Load";

/** Section 7: two instances under load from client processes of their own (`pnpm bench --only=load`). */
export const loadRows = async (quick: boolean): Promise<Section> => {
  const f = await measureLoadRows(quick);
  if (!f) return { title: S, rows: [{ section: S, figure: "load rows: skipped in this run (no `redis-server` on PATH)", value: "", verdict: "info" }], notes: [] };
  const rows: Row[] = f.runs.map((r) => ({
    section: S,
    figure:
      r.kind === "searches"
        ? `${r.size.toLocaleString("en")} concurrent searches on two instances, polled at the hint: completed; errors; 503s; 429s waited out; poll p50 / p99; both instances' CPU per search`
        : `${r.size.toLocaleString("en")} SSE streams of one query on two instances: ended with results; errors; 503s (or INDISPONIVEL events); 429s waited out; CPU per stream`,
    value:
      `${r.complete} of ${r.size}; ${r.errors}${r.errors > 0 ? ` (${Object.entries(r.errorKinds).map(([k, n]) => `${n}× ${k}`).join(", ")})` : ""}; ${r.unavailable}; ${r.shed}; ` +
      (r.kind === "searches" ? `${r.pollP50.toFixed(0)} / ${r.pollP99.toFixed(0)} ms; ` : "") +
      `${r.cpuPerItemMs.toFixed(1)} ms (${(r.wallMs / 1000).toFixed(1)} s)`,
    target: "0 errors, 0 × 503",
    verdict: r.errors === 0 && r.unavailable === 0 && r.complete === r.size ? "met" : "missed",
  }));
  rows.push({
    section: S,
    figure: `the largest of these loads carried with 0 errors and poll p99 under 1 s, per core (${f.cores} cores, shared with Redis and the load's clients)`,
    value: f.largestClean > 0 ? `${f.largestClean} searches: ${(f.largestClean / f.cores).toFixed(0)} searches per core` : "none of them",
    target: "info",
    verdict: "info",
  });
  return {
    title: S,
    rows,
    notes: [
      `Two \`voar-server\` processes (the embedded simulator, 400 ms per source, one deployment) on the bench's own redis-server, admission control as shipped (at most 500 searches running per instance, the loop's delay over 500 ms windows at 500 ms, or 250 ms with the loop busy 90% of the time, requests waiting 500 ms on a busy loop). The load comes from four client processes, each from a loopback address of its own (127.0.0.2 to .9: the per-address connection cap counts them apart), the same client as the integration test \`load-not-outage.integration.ts\`: each search starts within one second, is polled by Token at \`ProximaConsultaMs\`, every request to the next instance in turn (no stickiness); a 429 is waited out by its \`Retry-After\` and sent again (counted, not an error); any other status, a failed request or a search that never completes is an error. Poll percentiles are over every poll of the load; CPU per search is both instances' CPU time over the load divided by its searches. The loads run from the smallest up (24, 48, 72, 100 and 148 searches below the 200, 400 and 1,000, to find the largest load carried with no error and a poll p99 under 1 s; quick runs: 48, 100 and 200). No two searches of the loads share a query (each client searches 10 routes a day on days of its own), so none joins another or finds it in the answer cache; before 2026-11-27 the clients of the 1,000-search load overlapped, and 450 of its searches repeated another client's query (550 distinct). The SSE row: streams of one query (one search, shared by both instances through Redis), each read to its end; it must end with results, never with \`INDISPONIVEL\`. The instances, the clients and Redis share the machine's ${f.cores} cores, so "per core" counts the whole deployment with its load generator.`,
    ],
  };
};
