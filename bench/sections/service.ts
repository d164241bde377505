import { runServiceBench } from "../service.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

const S = "3. Service";
const MiB = 1024 * 1024;
const ratioCell = (r: { median: number; min: number; max: number }) => `${r.median.toFixed(2)}x (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/**
 * Memory is "back near its start" when what is left after the sessions expired (collected) is within
 * 10% of the start, or 32 MiB, whichever is larger: a runtime keeps some pages it once needed.
 */
const nearStart = (before: number, after: number) => after - before <= Math.max(0.1 * before, 32 * MiB);

/** Section 3: the HTTP service under load, its memory, and serving a cached answer against bare node:http. */
export const serviceRows = async (quick: boolean): Promise<Section> => {
  const f = await runServiceBench(quick);
  const l = f.load;
  const m = l.memory;
  const rows: Row[] = [
    { section: S, figure: `${l.searches} concurrent searches polled until complete: requests/s (${l.rounds} rounds)`, value: cell(l.rps, "req/s", 0) },
    { section: S, figure: "  their latency p50", value: cell(l.p50, "ms", 1) },
    { section: S, figure: "  their latency p99", value: cell(l.p99, "ms", 1) },
    { section: S, figure: `  errors over ${l.requests.toLocaleString("en")} requests`, value: l.errors === 0 ? "0" : `${l.errors}: ${Object.entries(l.errorKinds).map(([k, n]) => `${n}× ${k}`).join("; ")}`, target: "0", verdict: l.errors === 0 ? "met" : "missed" },
    {
      section: S,
      figure: "  resident memory: before, peak during, after the sessions expired",
      value: `${mib(m.before.rss)} → ${mib(m.peakRss)} → ${mib(m.after.rss)} (heap ${mib(m.before.heapUsed)} → ${mib(m.after.heapUsed)})`,
      target: "heap back near start",
      verdict: nearStart(m.before.heapUsed, m.after.heapUsed) ? "met" : "missed",
    },
  ];
  for (const [what, s] of [
    [`cached page of 10 flights by Token (${f.cachedPage.bytes.toLocaleString("en")} bytes)`, f.cachedPage],
    ["poll repeating the query, page of 10", f.repeatedQuery],
  ] as const) {
    rows.push(
      { section: S, figure: `${what}: bare node:http, same bytes (anchor)`, value: `${cell(s.anchor.rps, "req/s", 0)}; p50 ${s.anchor.p50.median} ms, p99 ${s.anchor.p99.median} ms` },
      {
        section: S,
        figure: `${what}: the app`,
        value: `${cell(s.subject.rps, "req/s", 0)}; p50 ${s.subject.p50.median} ms, p99 ${s.subject.p99.median} ms`,
        ratio: ratioCell(s.ratio),
        target: "≥ 0.6x",
        verdict: s.ratio.median >= 0.6 && s.subject.errors === 0 ? "met" : "missed",
      },
    );
  }
  const p = f.perSearch;
  rows.push({
    section: S,
    figure: `resident memory per active search (${p.searches} searches, ${p.offers.median.toFixed(0)} offers median)`,
    value: `${mib(p.rssBytes)} (heap ${mib(p.heapBytes)})`,
    target: "info",
    verdict: "info",
  });
  return {
    title: S,
    rows,
    notes: [
      `Load: ${l.searches} distinct Mode A searches started at once, each polled by Token every ${l.pollMs} ms until \`Completed\`, ${l.rounds} rounds; the service in its own process on 127.0.0.1 (@hono/node-server, in-memory store, the embedded simulator at ${l.latencyMs} ms per source, TTL ${l.ttlMs} ms), the client (fetch) in the bench process. Requests/s is requests over the round's wall time: clients spend most of it waiting for sources, so it is not a capacity figure. The simulator computes its offers in the service's process, so its CPU counts against the service here.`,
      "Memory: resident set of the service's process after a warm-up (full GC), its peak while the rounds ran, and after every session's TTL passed and a new search let the store evict them (full GC, `--expose-gc`). It must come back near the start. The verdict reads the heap: V8 and the allocator keep freed pages in the resident set for reuse, so RSS stays near its peak even when every search was released (the heap, after a full GC, shows whether anything leaked).",
      "Serving: one completed search's page answered by the app (auth, parsing, store lookup, envelope, JSON) against a bare `node:http` server answering the same bytes to the same request; autocannon, 32 connections, alternating runs. Target ≥ 0.6x. Where it is missed: a polled page is written once per snapshot version and page and only its RequestId is spliced in per request, so what remains is the request path itself: request log, bearer check (SHA-256 through Web Crypto), rate limit, reading and validating the body (airport lookups), the store lookup and rebuilding the hub's snapshot, each a few tens of microseconds against a bare server that does nothing. What would close it: an ETag/If-None-Match short-circuit for unchanged versions, memoizing the parsed poll body per text, and a synchronous fast path in the store for the in-memory case.",
      "Memory per active search: resident-set growth over completed, not yet expired Mode B round-trip searches, divided by their number (store log plus the hub's materialized snapshot).",
    ],
  };
};
