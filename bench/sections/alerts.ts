import { runHeld, runZipf, SEARCH_REQUESTS } from "../alerts.js";
import type { Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** Section 10: price watches — what their checks cost the upstream, and what 10,000 of them weigh on one instance. */
export const alertRows = async (quick: boolean): Promise<Section> => {
  const s = "10. Price watches";
  const zipf = await runZipf(quick ? 200 : 1_000);
  const held = await runHeld(quick ? 1_000 : 10_000);
  const ratio = zipf.requestsPerWatchPerDay / zipf.naivePerWatchPerDay;
  const rows: Row[] = [
    { section: s, figure: `Naive: every day of every watch searched on its own every hour (${zipf.watches} watches, ${zipf.days} watched days; anchor)`, value: `${zipf.naivePerWatchPerDay.toFixed(1)} req/watch/day` },
    {
      section: s,
      figure: `Upstream requests per watch per day, ${zipf.watches} watches over a Zipf mix of routes (${zipf.scheduled} days scheduled, ${zipf.checksPerDay} checks a day)`,
      value: `${zipf.requestsPerWatchPerDay.toFixed(2)} req/watch/day`,
      ratio: `${ratio.toFixed(3)}x`,
      target: "≤ 0.2x",
      verdict: ratio <= 0.2 ? "met" : "missed",
    },
    { section: s, figure: `${held.watches.toLocaleString("en")} watches held on one instance: heap per watch (its days' checks and results included)`, value: `${(held.heapBytesPerWatch / 1024).toFixed(2)} KiB` },
    { section: s, figure: `${held.watches.toLocaleString("en")} watches: CPU to create one (POST /Alertas through the app)`, value: `${held.createCpuMsPerWatch.toFixed(3)} ms` },
    { section: s, figure: `${held.watches.toLocaleString("en")} watches: CPU of a simulated day of their checks, per watch (${held.checksPerDay.toLocaleString("en")} checks)`, value: `${held.dayCpuMsPerWatch.toFixed(3)} ms` },
  ];
  return {
    title: s,
    rows,
    notes: [
      `Simulated time: the real schedule (createApp with priceAlerts, the memory store, the worker run every simulated minute) over a cost model of the upstream: a day's search costs ${SEARCH_REQUESTS} requests (3 airlines, an ask and a poll each), none when the answer cache (5 min fresh) has that day; a day's cheapest fare holds 6 to 48 h and then moves by up to ±15 %. Requests are counted on the second simulated day (the first checks every day at once and settles).`,
      "The mix: routes among 20 Brazilian airports' 380 pairs drawn by Zipf (s = 1) in a fixed order; each watch a day 1 to 180 days ahead (60 %), ±3 days around it (30 %) or a whole month (10 %); 50 tenants. The naive anchor is what a plain client would spend: each watched day searched on its own every hour. The saving comes from three things: watches of one route and day share one check whoever their tenant is; a day far from departure is checked less often (4 h past 4 months, 2 h past 45 days, 1 h within them, 30 min in the last two weeks, 15 min in the last 3 days); and a day whose prices stayed put is checked 2, 4, then 8 times less often.",
      "Held: one-day watches (months replaced by a day) created through POST /Alertas; heap measured after a collection (node --expose-gc), after every day was checked once (so the results are held too), divided by the watches. CPU: the process's user and system time over the creation, and over a simulated day of checks (the cost model's search is free: this is the schedule's own work: claims, leases, evaluation, writes).",
    ],
  };
};
