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
    { section: S, figure: `${l.searches} concurrent searches, started over ${l.pollMs} ms, polled every ${l.pollMs} ms until complete: requests/s (${l.rounds} rounds)`, value: cell(l.rps, "req/s", 0) },
    { section: S, figure: "  the service's CPU time per search; busy (CPU time over wall time)", value: `${cell(l.cpuPerSearchMs, "ms", 1)}; ${ratioCell(l.busy)}` },
    { section: S, figure: "  poll latency (by Token) p50", value: cell(l.p50, "ms", 1) },
    { section: S, figure: "  poll latency (by Token) p99", value: cell(l.p99, "ms", 1), target: "≤ 50 ms", verdict: l.p99.median <= 50 ? "met" : "missed" },
    {
      section: S,
      figure: `  the same, searches started at once, polls in step (${l.inStep.rounds} rounds): poll p50; p99`,
      value: `${cell(l.inStep.p50, "ms", 1)}; ${cell(l.inStep.p99, "ms", 1)}`,
      target: "info",
    },
    { section: S, figure: `  first request (the query) p50; p99`, value: `${cell(l.startP50, "ms", 1)}; ${cell(l.startP99, "ms", 1)}` },
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
  const c = f.conditional;
  rows.push({
    section: S,
    figure: `conditional poll of an unchanged search (If-None-Match → ${c.status}), bytes on the wire against the full answer (${c.full.toLocaleString("en")} bytes)`,
    value: `${c.notModified} bytes`,
    ratio: `${(c.notModified / c.full).toFixed(3)}x`,
    target: "≤ 0.1x",
    verdict: c.status === 304 && c.notModified <= 0.1 * c.full ? "met" : "missed",
  });
  const p = f.perSearch;
  const MB = 1_000_000;
  rows.push(
    {
      section: S,
      figure: `memory per active search (the growth over ${p.searches} more searches, ${p.offers.median.toFixed(0)} offers median, with ${p.whole.searches - p.searches} active): resident, heap`,
      value: `${mib(p.rssBytes)}, heap ${mib(p.heapBytes)}`,
      target: "info",
      verdict: "info",
    },
    {
      section: S,
      figure: "  the same per 1,000 offers: resident, heap",
      value: `${(p.rssPer1000Offers / MB).toFixed(2)} MB, heap ${(p.heapPer1000Offers / MB).toFixed(2)} MB`,
      target: "≤ 1 MB",
      verdict: p.rssPer1000Offers <= MB && p.heapPer1000Offers <= MB ? "met" : "missed",
    },
    {
      section: S,
      figure: `  the same over all ${p.whole.searches} searches from the start (what the first ones paid once included): resident, heap`,
      value: `${(p.whole.rssPer1000Offers / MB).toFixed(2)} MB, heap ${(p.whole.heapPer1000Offers / MB).toFixed(2)} MB`,
      target: "info",
      verdict: "info",
    },
    {
      section: S,
      figure: "  left once their TTL passed: heap, resident (against before them)",
      value: `heap ${mib(p.heapLeftAfterTtl)}, resident ${mib(p.rssLeftAfterTtl)}`,
      target: "heap back near start",
      verdict: p.heapLeftAfterTtl <= 8 * MiB ? "met" : "missed",
    },
  );
  return {
    title: S,
    rows,
    notes: [
      `Load: ${l.searches} distinct Mode A searches per round, started over one poll interval (${l.pollMs} ms: independent clients do not start in step), each polled by Token every ${l.pollMs} ms after its answer until \`Completed\`, ${l.rounds} rounds after a whole warm-up round (code compiled, heap and socket pools at the size of the load). The service is \`voar-server\` itself (the production entry, \`packages/hono-edge/src/node.ts\`, configured by \`VOAR_*\` variables as an operator would, request log on: JSON lines on stdout, discarded by the bench after they are written; in-memory store, TTL ${l.ttlMs} ms) in its own process on 127.0.0.1; its sources are the upstream adapter's (fan-out, one per airline, and the OTA comparison) against the @voar/testing fake upstream over the simulator (${l.latencyMs} ms per source) in a third process, so the simulator's work is off the service's request path and out of its memory. The client is the bench process, sending with undici's \`request\` on a pool of one connection per search, and timing each request to the last byte of its answer (parsing it is the client's own work): with \`fetch\` the client spent 3-4 times the CPU, and its own queue of answers to parse counted as the service's latency. Requests/s is requests over the round's wall time: clients spend most of it waiting for sources, so it is not a capacity figure. Poll latency is that of the polls by Token; each search's first request (the query, which starts the search) is given apart. The in-step rows start every search of a round at the same instant, so their polls stay in step, ${l.searches} at once every ${l.pollMs} ms: a worst case for queueing, informational. CPU per search is the service process's CPU time over a round divided by its searches (following its sources through the upstream and answering its polls).`,
      "Where the load's time goes (CPU profile of the service during a round, `VOAR_BENCH_CPU_PROF=<dir>`, 2026-11-23): following the upstream is most of the service's work: reading the upstream answers (about 16% inclusive), the engine running the sources and folding their offers (about 10%), undici and Node's HTTP (about a quarter, with the poll answers), garbage collection (about 11%); the poll route itself (auth, body, store, page, answer) is about a tenth. Two costs were cut after that profile: each source batch was timed by `Effect.timeoutFail`, which forks a racing fiber per batch (about 50 µs a batch; now a plain timer cleared on the batch or on interruption, about 10 µs), and the incremental answer reader read each new entry through an envelope of its own, which made it 1.2-3.2x slower than whole reads on the fake upstream's small answers (now about 1.0x: the item checked once, each entry on its own through core's `readListEntries`). A poll that arrives during that work waits behind it: on a quiet machine the p99 stays under the target, polls in step included; when other processes take the cores it reaches hundreds of ms (the max of the rows). The earlier figure of this row (p99 190 ms) was measured with a client on `fetch`, whose own queue of answers to parse counted in the latency, every search started at once, and a warm-up of 20 searches.",
      "Memory: resident set of the service's process after a warm-up (full GC), its peak while the rounds ran, and after every session's TTL passed and a new search let the store evict them (full GC, `--expose-gc`). It must come back near the start. The verdict reads the heap: V8 and the allocator keep freed pages in the resident set for reuse, so RSS stays near its peak even when every search was released (the heap, after a full GC, shows whether anything leaked).",
      "Serving: one completed search's page answered by `voar-server` (request log, auth, rate limit, parsing, store lookup, envelope) against a bare `node:http` server answering the same bytes to the same request; autocannon, 32 connections, alternating runs. Target ≥ 0.6x. What the profile of this path showed before it was reworked (`node --cpu-prof`, wrk, 32 connections): @hono/node-server built a Web `Request` and a `ReadableStream` to read each body (about 9% of the process's time), the bearer check hashed the key with Web Crypto's async `digest` per request (about 8%, thread-pool jobs included), setting `X-Request-Id` after the answer existed made Hono copy the answer into a new streamed `Response` (about 14% with its writes), and the rest was the request log, the rate limiter and Hono's compose, each a few percent. Now: a body with a declared `Content-Length` is read at once (`arrayBuffer()`, no Web stream on Node), verified bearer tokens are remembered (bounded, an issued token until it expires), a poll's body is parsed and validated once per exact text (bounded memo), the answer's headers are set before it is built, the store's change log is not read when the snapshot kept is current, and the request log is written in batches (one write per event-loop turn). What remains against the bare server is sending the same bytes through Hono and @hono/node-server, and the work of each middleware. The poll that repeats the query (clients of the legacy API re-send their query until `Completed`, as the spec allows) was profiled the same way (2026-11-23, wrk, one completed search): beyond the poll by Token it spent about a fifth of the process's busy time parsing and validating the same body at every request (core's `parseSearchRequest` about 14%, of which formatting today's date in São Paulo with `Intl` for the past-date check about 6%; the page and view key of each new parsed object about 2%) and about 2% deriving the search's key and sources when joining it. Now a body is parsed and validated once per caller compat, day in São Paulo and exact text, queries and polls alike (bounded memo; at São Paulo's midnight the key changes and a body is judged again, so a date that became past is refused), `todayInSaoPaulo` asks `Intl` at most once a second, and joining derives the query's sources and key once per parsed query; the store is still asked at every request, so a search that expired or left its rejoin window is started anew. Measured with this section's serving comparison alone (5 runs of 3 s per row), main's sources and these alternately, 7 pairs, the machine shared (load average 2-8): the repeated query 0.34x before (0.29-0.40, medians of the pairs) and 0.52x after (0.41-0.55), the app's req/s up by about 40% in the quieter pairs; the poll by Token unchanged within the noise (0.60x, 0.49-0.67, before; 0.56x, 0.49-0.62, after), so both rows still missed 0.6x in those pairs (on a quiet machine too: bare about 22k req/s, the app 11-12.5k by Token and 9.4-9.8k repeating the query); in the full run of this table, the poll by Token measured 0.64x (0.50-0.92) and the repeated query 0.52x (0.43-0.78), so the first target sits at its edge and the second is missed. Where the app's time still goes (profile of both rows, now alike): sending the answer (the `writev` of the same bytes, about a third of the samples as in the bare server; the profile counts wall time, so on the shared machine it includes waiting for a core), Node's HTTP machinery as @hono/node-server drives it (about three times the bare server's per request: the body read through listeners and a Promise, `arrayBuffer()` copying it), @hono/node-server and Hono themselves (about 10%), the Web `Headers` of the answer (about 3%: Hono builds them for any answer with more than one header), the RequestId spliced into a copy of the written answer (about 3%), the request log (about 4%: the id, the JSON line, the batched write), then auth, rate limit, the memo and store lookups at 1-2% each. What would close the rest lies below the route: @hono/node-server reading a small body without stream listeners and a copy, and Hono writing an answer's headers without Web `Headers`; going around them for this route alone would make a second implementation of request handling.",
      "Conditional polls: a successful answer carries a weak `ETag` (search, version, page and view asked; not the RequestId); a poll that sends it in `If-None-Match` while nothing changed gets a 304 with no body. The bytes are counted on the socket, status line and headers included.",
      "Memory per active search: completed, not yet expired Mode B round-trip searches (through the fake upstream's OTA comparison) in two halves; the figure is the growth of the service's process over the second half, after a full GC, divided by its searches and by their offers: the cost of more active searches, without what the first ones paid once (code compiled again after the forced collections, about 1 MB a run; caches and pools reaching their working size). The growth over both halves from the start is given beside it. The polled answers written for reuse (about 95 KB per search here, ArrayBuffers: in the resident set, not in the heap) are kept in a budget of 16 MiB for the whole app (least recently used dropped, only the latest version of a page), not per search; RSS also keeps the pages the allocator and V8 reserved, so it reads several times the heap. Where the heap went (heap snapshots of the service process, `--heapsnapshot-signal`, before and after 50 completed searches of 8,241 offers, compared by retainer): before, 1.57 MiB per 1,000 offers, nearly all held by the search hub (the store's entries and the cached snapshots, 1,450 bytes per offer): the engine's indexes 4.3 MB, most of it effect's HashMap (a 64-byte node and a 56-byte `Option` per entry, one entry per offer in the snapshot's offers and another in its group's members); the offers 7.9 MB, 1.8 MB of it separate property stores (the interner copied objects member by member into `{}`); ids 0.9 MB (an OTA offer was named `<source>:url:<link>`, a second copy of its link). After: the snapshot's offers and each direction's groups and flights are a compact persistent hash trie (`StringMap`, each node one exactly sized array, about 40 bytes per entry; 0.63-0.72x the time of effect's HashMap to build and read 20,000 entries), a group's members a flat array up to 16, offers read as literals of their types, comparisons keep no Mode A filter values, and an OTA offer's id is a digest of its link: the hub holds 900 bytes per offer (indexes 1.2 MB, offers 6.5 MB: links 1.1, offer objects 1.4, prices 0.8, sellers and fares 1.1, ids 0.2 MB). What remains is mostly the offers' own data.",
    ],
  };
};
