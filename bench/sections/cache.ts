import { runCacheBench } from "../cache.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** Section 6: fewer upstream calls — the service against the plain clients it replaces and against the windowed floor. */
export const cacheRows = async (quick: boolean): Promise<Section> => {
  const f = await runCacheBench(quick);
  const s = "6. Fewer upstream calls";
  const lookups = f.voar.lookups;
  const lag = f.sse.cached.median;
  const failed = f.plain.failed + f.voar.failed;
  const overloaded = failed > 0.02 * 2 * f.searches;
  const none = `none: ${failed} of ${2 * f.searches} searches did not complete`;
  const vsPlain = f.voar.perThousand / f.plain.perThousand;
  const vsFloor = f.voar.perThousand / f.floor;
  const rows: Row[] = [
    {
      section: s,
      figure: `Zipf mix, ${f.searches.toLocaleString("en")} searches: upstream requests (searches and logins) per 1,000 searches, the plain clients the service replaces (each logs in, sends \`Companhia: -1\`, polls every 10 s; anchor)`,
      value: `${f.plain.perThousand.toFixed(0)} req`,
    },
    {
      section: s,
      figure: `Zipf mix: the service (answer cache, one all-airlines upstream search per query, learned pacing; lookups: ${lookups.hit} hit, ${lookups.stale} stale, ${lookups.miss} miss)`,
      value: `${f.voar.perThousand.toFixed(0)} req`,
      // Searches that did not complete (the machine could not keep up) ask the upstream less: no ratio then.
      ratio: overloaded ? none : `${vsPlain.toFixed(2)}x`,
      target: "≤ 0.5x",
      verdict: !overloaded && vsPlain <= 0.5 ? "met" : "missed",
    },
    {
      section: s,
      figure: `Zipf mix: the windowed floor (anchor): the least any service with these cache windows could spend, each query searched as it comes (${f.distinctQueries} distinct queries; each airline's offers shown when it answers)`,
      value: `${f.floor.toFixed(0)} req`,
      ratio: `${(f.floor / f.plain.perThousand).toFixed(2)}x plain`,
    },
    {
      section: s,
      figure: "Zipf mix: the service against the windowed floor",
      value: `${f.voar.perThousand.toFixed(0)} / ${f.floor.toFixed(0)} req`,
      ratio: overloaded ? none : `${vsFloor.toFixed(2)}x`,
      target: "≤ 1.15x",
      verdict: !overloaded && vsFloor <= 1.15 ? "met" : "missed",
    },
    { section: s, figure: "SSE: first result of a route nobody searched, the fastest airline's latency without cache (anchor)", value: cell(f.sse.cold, "ms", 0) },
    {
      section: s,
      figure: "SSE: first result of a route another tenant searched within the freshness window",
      value: cell(f.sse.cached, "ms", 0),
      ratio: `${(lag / f.sse.cold.median).toFixed(3)}x`,
      target: "≤ 50 ms",
      verdict: lag <= 50 ? "met" : "missed",
    },
  ];
  return {
    title: s,
    rows,
    notes: [
      `Zipf mix: ${f.searches.toLocaleString("en")} Mode A searches, one starting every simulated second, each a route drawn by a Zipf law (s = 1.1) over 200 routes between 20 Brazilian airports and a date drawn by the same law over 14 dates (the nearest most asked), from one of 20 tenants (API keys) alike; each client of the service sends its query, then polls by Token every 2 simulated seconds until \`Completed\`. The @voar/testing fake upstream (over loopback) answers in 0.8 to 45 simulated seconds per airline (7 airlines), its all-airlines search progressive (each airline's flights as it answers, \`ActiveProviders\` listing those still searching), and keeps each account's completed searches for 600 simulated seconds (\`ByCache\`), as real upstreams do; 1 simulated second = 50 ms. Every request the upstream gets counts, logins included. The plain clients and the service run at the same time, on the same searches, each with its own fake upstream, so that both meet the same load of the machine${failed > 0 ? ` (${failed} searches did not complete)` : ""}.`,
      "The plain clients: what an agency runs without the service, one per search: log in, send the query with `Companhia: -1`, poll its `LeaseId` every 10 s until `Completed`. A repeated query the upstream still keeps costs such a client its login and one request; a new one its login and a request every 10 s until the slowest airline answered. The service (createApp, in process, as voar-server configures it by default): each airline's answer cached per (account, airline, query) for 300 simulated seconds and served stale, while one refresh runs, for 300 more; identical queries of any tenant sharing one run; one all-airlines upstream search per query, followed by every airline, polled when the next airline is expected to have answered (learned per airline); one login for all; the engine's inactivity timeout of 20 simulated seconds.",
      "The windowed floor, computed on the same mix: one upstream search of a query whenever the cache's last one of it is 300 simulated seconds old or more (a stale refresh or a miss); that search costs one request while the upstream still keeps its completed search, else a cold search at its least: its start, one poll per group of airlines with offers for that query answering within 0.75 simulated seconds of each other (the first-result promise allows no later), and one poll when the slowest airline has answered (to complete). Plus one login.",
      "Why the Zipf targets are missed (2026-11-27): the service's figure read 0.45x of the plain clients and 0.88x of the floor until that day, but the adapter's pacing then kept its own spans in fixed milliseconds (airlines grouped within 750 ms, at least 250 ms between polls, eager polling for 5 s), which at this bench's 50 ms per simulated second grouped airlines 15 simulated seconds apart and spaced polls by at least 5: fewer requests, and first results tens of seconds late (the upstream section's learned first result read 38 simulated seconds). With the spans as fractions of the polling's first step, as a real upstream sees them, the same mix reads 1,637 to 2,931 requests per 1,000 searches over ten runs of this section on one machine that day, while the pacing was tuned (this table's is the last; 0.4-0.7x the plain clients; the spread follows the machine's load, which decides how often a query is still running, cached or cold when the next tenant asks). Counting the adapter's polls in one run (about 2,770 requests): 550 all-airlines searches started, 1,468 polls aimed at an airline's learned time that found it done, 266 that found it not done yet (a miss, asked again after a tenth of its time), and the rest on the backoff while times were unknown. What would close it: fewer misses (aims from a time distribution per airline rather than a moving average), and not polling on a route searched for the first time for airlines that bring nothing on its market (TAP, Copa, American and Iberia on domestic Brazilian routes: the floor knows which airlines have offers, the service learns it route by route).",
      `SSE first result: one tenant streams a route nobody asked (\`POST /api/ConsultaAereo/Stream\`, over a real loopback socket; its first result is the fastest airline's, after its latency and the adapter's first poll: the anchor), until three airlines have answered; another tenant then streams the same route and gets the cached airlines' offers in its first snapshots. Airlines answer in ${f.sse.fastestS * f.sse.scaleMs} ms (the fastest) to ${45 * f.sse.scaleMs} ms here (1 simulated second = ${f.sse.scaleMs} ms).`,
    ],
  };
};
