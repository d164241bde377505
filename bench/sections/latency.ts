import { runLatencyBench } from "../latency.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** Section 2: time to first result and to complete, SSE against polling (hinted and fixed-interval). */
export const latencyRows = async (quick: boolean): Promise<Section> => {
  const f = await runLatencyBench(quick);
  const s = "2. Time to result";
  const fixed = `${f.fixedIntervalMs / 1000} s`;
  const rows: Row[] = [
    { section: s, figure: "fastest source's first batch, inside the engine (anchor)", value: cell(f.firstSource, "ms", 0) },
    {
      section: s,
      figure: "SSE: first result at the client",
      value: cell(f.sse.first, "ms", 0),
      ratio: `+${f.sse.lag.median.toFixed(0)} ms (${f.sse.lag.min.toFixed(0)}–${f.sse.lag.max.toFixed(0)})`,
      target: "≤ +50 ms",
      verdict: f.sse.lag.median <= 50 ? "met" : "missed",
    },
    { section: s, figure: "SSE: complete", value: cell(f.sse.complete, "ms", 0) },
    { section: s, figure: "polling at the ProximaConsultaMs hint: first result", value: cell(f.hinted.first, "ms", 0), ratio: `${(f.hinted.first.median / f.sse.first.median).toFixed(2)}x SSE` },
    { section: s, figure: "polling at the ProximaConsultaMs hint: complete", value: cell(f.hinted.complete, "ms", 0), ratio: `${(f.hinted.complete.median / f.sse.complete.median).toFixed(2)}x SSE` },
    { section: s, figure: `polling every ${fixed}: first result`, value: cell(f.fixed.first, "ms", 0), ratio: `${(f.fixed.first.median / f.sse.first.median).toFixed(2)}x SSE` },
    { section: s, figure: `polling every ${fixed}: complete`, value: cell(f.fixed.complete, "ms", 0), ratio: `${(f.fixed.complete.median / f.sse.complete.median).toFixed(2)}x SSE` },
  ];
  return {
    title: s,
    rows,
    notes: [
      "One query at a time against the service on a real loopback socket (Node, @hono/node-server), the embedded simulator with sources answering between 0.2 s and 2.4 s. Each client starts a fresh search (distinct queries), so no run reuses another's results.",
      "The anchor is the instant the fastest source yielded its first batch inside the engine (same process, same clock). Target: SSE delivers the first result within 50 ms of it.",
      `Polling at the hint follows \`Progresso.ProximaConsultaMs\` (configured at 100 ms here); the fixed-interval client polls every ${fixed}, as public clients of the real service do (10 s in a full run; 1 s in quick mode to keep it short). Its first result waits for its next poll after the data exists.`,
    ],
  };
};
