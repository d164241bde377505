import { runUpstreamBench } from "../upstream.js";
import { runBreakerBench } from "../upstream-breaker.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** Section 4: the upstream fan-out against one all-airlines upstream search, and undici against fetch. */
export const upstreamRows = async (quick: boolean): Promise<Section> => {
  const f = await runUpstreamBench(quick);
  const b = await runBreakerBench();
  const s = "4. Upstream";
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const rows: Row[] = [
    { section: s, figure: "all-airlines upstream search: first result (anchor)", value: cell(f.allAirlines.firstS, "sim s", 1) },
    { section: s, figure: "fan-out, one search per airline: first result", value: cell(f.fanOut.firstS, "sim s", 1), ratio: x(f.fanOut.firstS.median, f.allAirlines.firstS.median), target: "< 1x", verdict: f.fanOut.firstS.median < f.allAirlines.firstS.median ? "met" : "missed" },
    { section: s, figure: "all-airlines upstream search: complete (anchor)", value: cell(f.allAirlines.completeS, "sim s", 1) },
    { section: s, figure: "fan-out: complete", value: cell(f.fanOut.completeS, "sim s", 1), ratio: x(f.fanOut.completeS.median, f.allAirlines.completeS.median) },
    { section: s, figure: "client polling every 10 s: complete", value: cell(f.fixedPoll.completeS, "sim s", 1), ratio: x(f.fixedPoll.completeS.median, f.allAirlines.completeS.median) },
    { section: s, figure: "upstream requests per search: fixed 10 s polling (anchor)", value: cell(f.fixedPoll.requests, "req", 0) },
    { section: s, figure: "upstream requests per search: adapter (backoff, hints)", value: cell(f.allAirlines.requests, "req", 0), ratio: x(f.allAirlines.requests.median, f.fixedPoll.requests.median) },
    { section: s, figure: "upstream requests per search: fan-out", value: cell(f.fanOut.requests, "req", 0), ratio: x(f.fanOut.requests.median, f.fixedPoll.requests.median) },
    { section: s, figure: "global fetch source throughput (anchor)", value: cell(f.throughput.fetch, "req/s", 0) },
    { section: s, figure: "undici source throughput", value: cell(f.throughput.undici, "req/s", 0), ratio: `${f.throughput.ratio.median.toFixed(2)}x (${f.throughput.ratio.min.toFixed(2)}–${f.throughput.ratio.max.toFixed(2)})`, target: "≥ 1x", verdict: f.throughput.ratio.median >= 1 ? "met" : "missed" },
    { section: s, figure: `every airline failing, ${b.searches} fan-out searches in a row: upstream requests, breakers off (today, anchor)`, value: `${b.off.requests} req` },
    {
      section: s,
      figure: `every airline failing, ${b.searches} fan-out searches in a row: upstream requests, breakers on (last search: ${b.on.unavailable} of ${b.on.airlines} airlines shown unavailable)`,
      value: `${b.on.requests} req`,
      ratio: x(b.on.requests, b.off.requests),
      target: "≤ 30 req",
      verdict: b.on.requests <= 30 ? "met" : "missed",
    },
  ];
  return {
    title: s,
    rows,
    notes: [
      `A fake upstream (the @voar/testing Hono app, over loopback) whose airlines answer with spread latencies, from about a second to tens of seconds, as a real service's do; the all-airlines search completes only when its slowest airline has. Time is scaled (1 simulated second = ${f.scaleMs} ms) and figures are in simulated seconds.`,
      "Fan-out runs one single-airline upstream search per airline in parallel, each a source of its own: its first result comes from the fastest airline. The anchor is one all-airlines upstream search through the same adapter.",
      "Requests per completed search: the adapter polls with backoff and follows the upstream's hints; the anchor is a client polling at a fixed 10 s, as public clients of the real service do. Fan-out trades requests for an earlier first result.",
      "Throughput: the same one-request searches, 16 at a time, through the undici source (keep-alive Pool) against global fetch.",
      "Upstream protection: a fake upstream answering HTTP 500 to every search request, searched 10 times in a row through the fan-out (9 airlines), each search to its end. Breakers off, each airline costs every search 3 engine attempts of 3 requests (the request and its 2 poll retries); on (default: 3 failed requests in a row open an airline's breaker for 30 s), the first search's third failure opens each airline's breaker and the 9 searches after it ask nothing, each airline shown as unavailable. Counts, not times: waits are scaled down, which changes no count.",
    ],
  };
};
