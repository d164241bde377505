import { airlineName, runVariance, type Late } from "../upstream-variance.js";
import { type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

/** The p-quantile of numbers. */
const quantile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? Number.NaN;
};

const within = (l: Late) => l.ours <= Math.max(1, l.existedAfter / 10) + 0.15;

/** Section 4b: the upstream adapter under airline times that vary per search, against the plain client it replaces. */
export const varianceRows = async (quick: boolean): Promise<Section> => {
  const waves = quick ? 6 : 40;
  const v = await runVariance(waves);
  const slow = await runVariance(quick ? 2 : 4, { slow: true });
  const s = "4b. Upstream under variance";
  const rows: Row[] = [];
  for (const id of [...new Set(v.learnedLate.map((l) => l.airline))]) {
    const mine = v.learnedLate.filter((l) => l.airline === id);
    const ours = mine.map((l) => l.ours);
    const plain = mine.map((l) => l.plain);
    const notLater = mine.filter((l) => l.ours <= l.plain + 1).length;
    rows.push({
      section: s,
      figure: `${airlineName(id)}: lateness p50; p90 (s after its offers existed), over ${mine.length} learned searches: the service against the 10 s poller (anchor)`,
      value: `${quantile(ours, 0.5).toFixed(1)}; ${quantile(ours, 0.9).toFixed(1)} s against ${quantile(plain, 0.5).toFixed(1)}; ${quantile(plain, 0.9).toFixed(1)} s`,
      ratio: `p50 ${(quantile(ours, 0.5) / quantile(plain, 0.5)).toFixed(2)}x`,
      target: "not later than the poller in 19 of 20",
      verdict: notLater >= 0.95 * mine.length ? "met" : "missed",
    });
    rows.push({
      section: s,
      figure: `${airlineName(id)}: shown within max(1 s, 10 % of its time) of existing`,
      value: `${mine.filter(within).length} of ${mine.length} searches`,
      target: "9 in 10",
      verdict: mine.filter(within).length >= 0.9 * mine.length ? "met" : "missed",
    });
  }
  const ours = v.spent.reduce((n, x) => n + x.ours, 0) + v.logins;
  const plain = v.spent.reduce((n, x) => n + x.plain, 0);
  const worst = Math.max(...v.spent.map((x) => x.ours / x.plain));
  rows.push(
    { section: s, figure: `upstream requests, ${v.spent.length} searches (${waves} waves of 3 routes, the first one cold): the plain clients (anchor)`, value: `${plain} req (${(plain / v.spent.length).toFixed(1)} per search)` },
    { section: s, figure: "upstream requests: the service (its logins included)", value: `${ours} req (${(ours / v.spent.length).toFixed(1)} per search)`, ratio: `${(ours / plain).toFixed(2)}x`, target: "≤ 1x", verdict: ours <= plain ? "met" : "missed" },
    { section: s, figure: "upstream requests: the costliest search against its plain client", value: `${v.spent.find((x) => x.ours / x.plain === worst)!.ours} req`, ratio: `${worst.toFixed(2)}x`, target: "≤ 2x", verdict: worst <= 2 ? "met" : "missed" },
  );
  const slowOurs = slow.spent.map((x) => x.oursS);
  const slowPlain = slow.spent.map((x) => x.plainS);
  const slowLost = slow.late.filter((l) => !Number.isFinite(l.ours)).length;
  rows.push(
    { section: s, figure: `every upstream answer taking 30 s, ${slow.spent.length} searches: complete, the plain client (anchor)`, value: `${quantile(slowPlain, 0.5).toFixed(1)} s, ${quantile(slow.spent.map((x) => x.plain), 0.5)} req` },
    {
      section: s,
      figure: `every upstream answer taking 30 s: complete, the service (${slowLost} airlines' offers lost)`,
      value: `${quantile(slowOurs, 0.5).toFixed(1)} s, ${quantile(slow.spent.map((x) => x.ours), 0.5)} req`,
      ratio: `${(quantile(slowOurs, 0.5) / quantile(slowPlain, 0.5)).toFixed(2)}x`,
      target: "≤ 1.2x, no offer lost",
      verdict: quantile(slowOurs, 0.5) <= 1.2 * quantile(slowPlain, 0.5) && slowLost === 0 ? "met" : "missed",
    },
  );
  return {
    title: s,
    rows,
    notes: [
      "The adapter (one all-airlines upstream search, the default) in simulated time (fake timers: the figures do not depend on how busy the machine is) against a fake upstream whose airlines take a different time in every search: LATAM 1-6 s, GOL 5-40 s, Azul 4 s (one search in seven up to 50 s), Iberia 45 s (one search in four hangs until the upstream's own 120 s deadline), American 12 s, TAP 0.5-2 s and switched on for GIG-LIS from the fourth wave, Copa 1.6 s, Livelo 1-3 s; each wave searches GIG-LIS, GRU-MIA and CNF-SDU at once. Each search is paired with a plain client (log in, `Companhia: -1`, poll the `LeaseId` every 10 s until `Completed`) on a twin upstream drawing the same times, search by search. Lateness is from the moment the upstream had an airline's offers to the moment each side showed them all; learned searches are those from the fourth wave on.",
      "The promise is two-fold: never later than the 10 s poller (the adapter polls its grid while an airline is awaited), and, once learned, within max(1 s, 10 %) of each airline's time. The second is met for airlines whose time varies little (Azul outside its tail, American) when the budget allows an aim; for an airline whose time spreads over 35 s (GOL) or 5 s near the start (LATAM), showing it within a second or a tenth of its time in 9 searches of 10 would take a poll every second or every tenth of the time across its whole range (about 20 polls for GOL alone), against the plain client's 5 or 6: not possible for the plain client's requests, which is the other promise. Those airlines are shown earlier than by the poller in the middle of the distribution, never later.",
      "A slow upstream: every answer (first ask and polls) leaves 30 s after its request, with what the search has then; LATAM 3 s, Azul 6 s, GOL 45 s. The plain client asks at 0 s (answered at 30 s), waits 10 s, asks again (answered at 70 s). The service keeps each request until it is answered (its sources tell the engine they are alive meanwhile; the request's limit grows with the upstream's answer times), sends the next poll when the last came back, and the search's deadline (60 s) waits for an answer on its way (`search.deadlineHoldMs`).",
    ],
  };
};
