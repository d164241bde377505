import { runCalendarBench } from "../calendar.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** Section 7: the price calendar — its speed against plain searches at once, its stream's weight, and the upstream requests it costs. */
export const calendarRows = async (quick: boolean): Promise<Section> => {
  const f = await runCalendarBench(quick);
  const s = "7. Price calendar";
  const reqs = (x: { median: number; min: number; max: number }) => `${x.median.toFixed(0)} req (${x.min.toFixed(0)}–${x.max.toFixed(0)})`;
  const kb = (x: { median: number; min: number; max: number }) => `${(x.median / 1024).toFixed(1)} KB (${(x.min / 1024).toFixed(1)}–${(x.max / 1024).toFixed(1)})`;
  const completeRatio = f.calendarComplete.median / f.sevenAtOnce.median;
  const rows: Row[] = [
    { section: s, figure: "One ordinary search over SSE: first result (the fastest airline; anchor)", value: cell(f.ordinaryFirstResult, "ms", 0) },
    {
      section: s,
      figure: "±3 calendar over SSE: first priced day",
      value: cell(f.firstPricedDay, "ms", 0),
      ratio: `${(f.firstPricedDay.median / f.ordinaryFirstResult.median).toFixed(2)}x`,
    },
    { section: s, figure: "7 ordinary searches of a week at once (a traveller's seven tabs): all complete (anchor: the slowest day's own search)", value: cell(f.sevenAtOnce, "ms", 0) },
    {
      section: s,
      figure: "±3 calendar over SSE: complete",
      value: cell(f.calendarComplete, "ms", 0),
      ratio: `${completeRatio.toFixed(2)}x`,
      target: "≤ 1.3x",
      verdict: completeRatio <= 1.3 ? "met" : "missed",
    },
    { section: s, figure: "±3 calendar's SSE stream with the whole calendar at every version (its versions times its last answer; anchor)", value: kb(f.stream.everyVersionWhole) },
    {
      section: s,
      figure: `±3 calendar's SSE stream: bytes (${f.stream.events.median.toFixed(0)} events: the whole calendar first and last, the changed days between)`,
      value: kb(f.stream.bytes),
      ratio: `${(f.stream.bytes.median / f.stream.everyVersionWhole.median).toFixed(2)}x`,
      target: "≤ 60 KB",
      verdict: f.stream.bytes.max <= 60 * 1024 ? "met" : "missed",
    },
    { section: s, figure: "Upstream requests: 7 ordinary searches at once (anchor)", value: reqs(f.requests.sevenSearches) },
    { section: s, figure: "Upstream requests: a cold ±3 calendar", value: reqs(f.requests.cold), ratio: `${(f.requests.cold.median / f.requests.sevenSearches.median).toFixed(2)}x`, target: "≤ 1.1x", verdict: f.requests.cold.median <= 1.1 * f.requests.sevenSearches.median ? "met" : "missed" },
    { section: s, figure: "Upstream requests: the same tenant's calendar two days later (5 of 7 days searched)", value: reqs(f.requests.warm), ratio: `${(f.requests.warm.median / f.requests.sevenSearches.median).toFixed(2)}x` },
    { section: s, figure: "Upstream requests: another tenant's identical calendar", value: reqs(f.requests.shared), ratio: `${(f.requests.shared.median / f.requests.sevenSearches.median).toFixed(2)}x`, target: "0", verdict: f.requests.shared.median === 0 ? "met" : "missed" },
  ];
  return {
    title: s,
    rows,
    notes: [
      `The service (createApp, in process, on a loopback socket) fans out to 4 airlines of the @voar/testing fake upstream (over loopback) answering in 200 to 1,440 ms (each airline's time spread by day, from its own up to 1.6x), behind the answer cache (as voar-server runs it); the adapter polls 150 ms after asking, up to every 600 ms. The typed client follows searches over SSE; the calendar's stream is read raw (its bytes counted) and its changes applied as the client does. ${f.runs} run(s); each run asks weeks of its own (nothing cached from the run before).`,
      "First priced day: from the calendar's request to the first event in which some day has a price. Anchor: one ordinary search's first result, on a week of its own. Complete: the calendar's last event (every day started at once), against seven ordinary searches of another week's seven days started at once, the time the last of them completes: the slowest day's own search, which the calendar should not exceed by more than 30%. The integration test measures the same against seven plain clients of the upstream polling every 10 s, with an airline of 30 to 45 s, in real time.",
      "Stream: the calendar's SSE stream as sent (the whole calendar on connecting and at the end, `dias` events with only the days that changed between, days changing within 200 ms sent together), against what the stream weighed when every version was an event carrying the whole calendar (estimated as the versions times the last answer's size).",
      "Requests: the fake upstream's search requests (logins apart) each step caused. A day of the calendar is an ordinary search, so a cold calendar costs what 7 searches cost, give or take the polls: each airline's search costs its ask and the polls until it completes, and a poll that lands just before an airline completes costs one more, which the machine's load decides (hence the 10% of the target; the integration test counts exactly 7 searches' requests against a fake upstream whose airlines all answer within the first poll). Warm: the same tenant asks the calendar two days later: five of its days are that tenant's searches of the cold calendar, still live (joined, no request) and in the answer cache. Shared: a second tenant asks the cold calendar's exact query: every day is answered by the answer cache, which every tenant shares.",
    ],
  };
};
