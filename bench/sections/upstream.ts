import { runUpstreamBench, type ApproachFigures } from "../upstream.js";
import { runBreakerBench } from "../upstream-breaker.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** Section 4: the upstream's sources against the plain client they replace, their protection, and undici against fetch. */
export const upstreamRows = async (quick: boolean): Promise<Section> => {
  const f = await runUpstreamBench(quick);
  const b = await runBreakerBench();
  const s = "4. Upstream";
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const plain = f.plain.requests.median;
  const cost = (label: string, a: ApproachFigures, target?: number): Row => {
    const r = a.requests.median / plain;
    return {
      section: s,
      figure: `upstream requests per search: ${label}${a.failed > 0 ? ` (${a.failed} airlines lost over the runs)` : ""}`,
      value: cell(a.requests, "req", 0),
      ratio: x(a.requests.median, plain),
      ...(target === undefined ? {} : { target: `≤ ${target}x`, verdict: r <= target && a.failed === 0 ? ("met" as const) : ("missed" as const) }),
    };
  };
  const first = (label: string, a: ApproachFigures): Row => ({
    section: s,
    figure: `first result: ${label}`,
    value: cell(a.firstS, "sim s", 1),
    ratio: `+${(a.firstS.median - f.fastestS).toFixed(1)} sim s`,
    target: "≤ +1 sim s",
    verdict: a.firstS.median <= f.fastestS + 1 ? "met" : "missed",
  });
  const rows: Row[] = [
    { section: s, figure: "upstream requests per search: the plain client (log in, `Companhia: -1`, poll every 10 s; anchor)", value: cell(f.plain.requests, "req", 0) },
    cost("one all-airlines upstream search (default), new adapter (cold)", f.oneSearchCold, 2),
    cost("one all-airlines upstream search, airlines' times learned", f.oneSearchLearned, 1.5),
    cost("fan-out, one search per airline (option), new adapter (cold)", f.fanOutCold),
    cost("fan-out, airlines' times learned", f.fanOutLearned),
    { section: s, figure: `the fastest airline with offers on the route answers (anchor)`, value: `${f.fastestS.toFixed(1)} sim s` },
    first("one all-airlines upstream search, cold", f.oneSearchCold),
    first("one all-airlines upstream search, learned", f.oneSearchLearned),
    first("fan-out, learned", f.fanOutLearned),
    { section: s, figure: "complete: the plain client (anchor)", value: cell(f.plain.completeS, "sim s", 1) },
    { section: s, figure: "complete: one all-airlines upstream search, learned", value: cell(f.oneSearchLearned.completeS, "sim s", 1), ratio: x(f.oneSearchLearned.completeS.median, f.plain.completeS.median) },
    { section: s, figure: "complete: fan-out, learned", value: cell(f.fanOutLearned.completeS, "sim s", 1), ratio: x(f.fanOutLearned.completeS.median, f.plain.completeS.median) },
    { section: s, figure: "global fetch source throughput (anchor)", value: cell(f.throughput.fetch, "req/s", 0) },
    { section: s, figure: "undici source throughput", value: cell(f.throughput.undici, "req/s", 0), ratio: `${f.throughput.ratio.median.toFixed(2)}x (${f.throughput.ratio.min.toFixed(2)}–${f.throughput.ratio.max.toFixed(2)})`, target: "≥ 1x", verdict: f.throughput.ratio.median >= 1 ? "met" : "missed" },
    { section: s, figure: `every airline failing, ${b.searches} fan-out searches in a row: upstream requests, breakers off (anchor)`, value: `${b.off.requests} req` },
    {
      section: s,
      figure: `every airline failing, ${b.searches} fan-out searches in a row: upstream requests, breakers on (last search: ${b.on.unavailable} of ${b.on.airlines} airlines shown unavailable)`,
      value: `${b.on.requests} req`,
      ratio: x(b.on.requests, b.off.requests),
      target: "≤ 30 req",
      verdict: b.on.requests <= 30 ? "met" : "missed",
    },
    {
      section: s,
      figure: `every airline failing, ${b.searches} searches in a row through one all-airlines upstream search (default), breakers on (last search: ${b.oneSearch.unavailable} of ${b.oneSearch.airlines} airlines shown unavailable)`,
      value: `${b.oneSearch.requests} req`,
      ratio: x(b.oneSearch.requests, b.off.requests),
      target: "≤ 30 req",
      verdict: b.oneSearch.requests <= 30 ? "met" : "missed",
    },
    {
      section: s,
      figure: `/Token answering 500 to every login, ${b.searches} searches in a row: logins sent`,
      value: `${b.logins} logins`,
      target: "≤ 5",
      verdict: b.logins <= 5 ? "met" : "missed",
    },
  ];
  return {
    title: s,
    rows,
    notes: [
      `A fake upstream (the @voar/testing Hono app, over loopback) whose airlines answer as a real deployment's do: TAP 0.8, LATAM 1.2, Copa 1.6, Azul 4, American 12, GOL 25 and Iberia 45 seconds, on a domestic route (CNF-SDU: LATAM, Azul and GOL have offers); its all-airlines search is progressive, as the real one's is (each airline's flights as it answers, \`ActiveProviders\` listing the airlines still searching). Time is scaled (1 simulated second = ${f.scaleMs} ms), figures are in simulated seconds, and the engine runs as in production, scaled: 20 s of silence fail a source, 60 s deadline; so a wait of the adapter longer than the engine's timeout would show here as an airline lost (none was).`,
      "The anchor is the plain client an agency runs without the service: log in, send the query with `Companhia: -1`, poll its `LeaseId` every 10 s until `Completed`: a login and 6 requests for an upstream whose slowest airline answers in 45 s. Every request the upstream gets counts, logins included (the adapters log in once, in their first search). Cold: a new adapter, nothing learned (its own login included); learned: an adapter that ran searches before, every search on a date the upstream has not seen.",
      "One all-airlines upstream search (the default, `strategy: \"one-search\"`): every airline's source follows it, each done when the upstream's `ActiveProviders` no longer lists it. Cold, it is polled on the backoff (every second until the first offers, then 1.5x longer each time up to 10 s); learned, when the next airline expected to bring offers answers (airlines within 0.75 s fetched by one poll; an airline that brought nothing on the route lately is not polled for, its end fetched with another's poll or the last one). The fan-out (`strategy: \"fan-out\"`) runs one single-airline upstream search per airline: at least two requests per airline, for an upstream whose all-airlines search shows nothing until its slowest airline answered.",
      "Throughput: the same one-request searches, 16 at a time, through the undici source (keep-alive Pool) against global fetch.",
      "Upstream protection: a fake upstream answering HTTP 500 to every search request, searched 10 times in a row. Through the fan-out (9 airlines), breakers off, each airline costs every search 3 engine attempts of 3 requests; on (default: 3 failed requests in a row open a breaker for 30 s), the first search's third failure opens each airline's breaker and the 9 searches after it ask nothing. Through one all-airlines upstream search, one breaker (`upstream:all`) guards it: 3 requests. Logins: an upstream whose `/Token` answers 500 to every login, 10 searches: the login's breaker opens after 3 failures. Counts, not times: waits are scaled down, which changes no count.",
    ],
  };
};
