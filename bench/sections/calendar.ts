import { runCalendarBench } from "../calendar.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** Section 7: the price calendar — its speed against plain searches, and the upstream requests it costs. */
export const calendarRows = async (quick: boolean): Promise<Section> => {
  const f = await runCalendarBench(quick);
  const s = "7. Price calendar";
  const reqs = (x: { median: number; min: number; max: number }) => `${x.median.toFixed(0)} req (${x.min.toFixed(0)}–${x.max.toFixed(0)})`;
  const rows: Row[] = [
    { section: s, figure: "One ordinary search over SSE: first result (the fastest airline; anchor)", value: cell(f.ordinaryFirstResult, "ms", 0) },
    {
      section: s,
      figure: "±3 calendar over SSE: first priced day",
      value: cell(f.firstPricedDay, "ms", 0),
      ratio: `${(f.firstPricedDay.median / f.ordinaryFirstResult.median).toFixed(2)}x`,
    },
    { section: s, figure: "A plain client searching the 7 days one after another: all complete (anchor)", value: cell(f.sequentialSeven, "ms", 0) },
    {
      section: s,
      figure: "±3 calendar over SSE: complete",
      value: cell(f.calendarComplete, "ms", 0),
      ratio: `${(f.calendarComplete.median / f.sequentialSeven.median).toFixed(2)}x`,
    },
    { section: s, figure: "Upstream requests: 7 ordinary searches (anchor)", value: reqs(f.requests.sevenSearches) },
    { section: s, figure: "Upstream requests: a cold ±3 calendar", value: reqs(f.requests.cold), ratio: `${(f.requests.cold.median / f.requests.sevenSearches.median).toFixed(2)}x`, target: "≤ 1.1x", verdict: f.requests.cold.median <= 1.1 * f.requests.sevenSearches.median ? "met" : "missed" },
    { section: s, figure: "Upstream requests: the same tenant's calendar two days later (5 of 7 days searched)", value: reqs(f.requests.warm), ratio: `${(f.requests.warm.median / f.requests.sevenSearches.median).toFixed(2)}x` },
    { section: s, figure: "Upstream requests: another tenant's identical calendar", value: reqs(f.requests.shared), ratio: `${(f.requests.shared.median / f.requests.sevenSearches.median).toFixed(2)}x`, target: "0", verdict: f.requests.shared.median === 0 ? "met" : "missed" },
  ];
  return {
    title: s,
    rows,
    notes: [
      `The service (createApp, in process, on a loopback socket) fans out to 4 airlines of the @voar/testing fake upstream (over loopback) answering in 200 to 900 ms, behind the answer cache (as voar-server runs it); the adapter polls 150 ms after asking, up to every 600 ms. The typed client follows over SSE. ${f.runs} run(s); each run asks weeks of its own (nothing cached from the run before).`,
      "First priced day: from the calendar's request to the first answer in which some day has a price; the day asked is searched first, so it is that day's fastest airline. Anchor: one ordinary search's first result, on a week of its own. Complete: the calendar's last answer (its days three at once, the day asked first, then outward), against a plain client searching 7 other days one after another, each to completion.",
      "Requests: the fake upstream's search requests (logins apart) each step caused. A day of the calendar is an ordinary search, so a cold calendar costs what 7 searches cost, give or take the polls: each airline's search costs its ask and the polls until it completes, and a poll that lands just before an airline completes costs one more, which the machine's load decides (hence the 10% of the target; the integration test counts exactly 7 searches' requests against a fake upstream whose airlines all answer within the first poll). Warm: the same tenant asks the calendar two days later: five of its days are that tenant's searches of the cold calendar, still live (joined, no request) and in the answer cache. Shared: a second tenant asks the cold calendar's exact query: every day is answered by the answer cache, which every tenant shares.",
    ],
  };
};
