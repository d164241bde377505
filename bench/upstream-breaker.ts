/**
 * Upstream protection benchmark: an upstream whose every airline fails (HTTP 500 on every search request),
 * searched 10 times in a row through the fan-out (one source per airline, 9 airlines) and through one
 * all-airlines upstream search; and one whose `/Token` answers 500 to every login; over a loopback
 * socket. Prints the upstream requests of the 10 searches with the breakers on (the default) against the
 * same searches with them off (what the adapter did before), measured in the same run. The counts do not
 * depend on the machine; waits are scaled down (polling and the engine's retry backoff) so it takes
 * seconds, which changes no count.
 */
import { search, type SearchQuery, type SearchSnapshot } from "../packages/core/src/index.js";
import { createFakeUpstream, createSimulator, liveBackend, serveOnNode } from "../packages/testing/src/index.js";
import { createFanOutSources } from "../packages/http-adapter/src/index.js";

/** Searches in a row. */
const SEARCHES = 10;
const account = { username: "bench", password: "bench-secret" };
/** The adapter's polling and the engine's backoff, scaled down (1 s becomes 20 ms). */
const polling = { initialDelayMs: 20, maxDelayMs: 200, maxDurationMs: 4_000 };
const engine = { baseDelayMs: 5, maxDelayMs: 100, deadlineMs: 6_000 };

const query = (n: number): SearchQuery => ({
  origin: "CNF",
  destination: "SDU",
  departureDate: new Date(Date.now() + (30 + n) * 86_400_000).toISOString().slice(0, 10),
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
});

/** What one run of 10 searches cost and showed. */
export interface FailingRun {
  /** Upstream search requests of the 10 searches. */
  readonly requests: number;
  /** Logins they sent. */
  readonly logins: number;
  /** Airlines of the last search shown as unavailable (not asked), of all its airlines. */
  readonly unavailable: number;
  readonly airlines: number;
}

const runTen = async (breaker: boolean, strategy: "fan-out" | "one-search" = "fan-out", failing: "searches" | "logins" = "searches"): Promise<FailingRun> => {
  const fault = { at: 1, through: "end" as const, fault: { kind: "status" as const, status: 500 } };
  const upstream = createFakeUpstream({
    backend: liveBackend({ sources: createSimulator({ latencyMs: 0 }).sources }),
    auth: { accounts: [account] },
    ...(failing === "searches" ? { faults: [fault] } : { loginFaults: [fault] }),
  });
  const served = await serveOnNode(upstream.app.fetch);
  const fan = createFanOutSources({ baseUrl: `${served.origin}/api`, credentials: account, polling, connections: 16, strategy, ...(breaker ? {} : { breaker: false }) });
  let last: SearchSnapshot | undefined;
  try {
    for (let n = 0; n < SEARCHES; n++) {
      last = await new Promise<SearchSnapshot | undefined>((resolve, reject) => {
        let seen: SearchSnapshot | undefined;
        search(query(n), fan, engine).subscribe({ next: (s) => (seen = s), error: reject, complete: () => resolve(seen) });
      });
    }
  } finally {
    await fan[0]?.close();
    await served.close();
    upstream.close();
  }
  return {
    requests: upstream.stats.searches,
    logins: upstream.stats.logins,
    unavailable: last?.sources.filter((p) => p.error?.tag === "SourceUnavailable").length ?? 0,
    airlines: fan.length,
  };
};

/** What {@link runBreakerBench} measures. */
export interface BreakerFigures {
  readonly searches: number;
  /** Breakers off: every search asks every airline, with every retry (the anchor). */
  readonly off: FailingRun;
  /** Breakers on (default settings: 3 failures in a row open an airline's for 30 s). */
  readonly on: FailingRun;
  /** Breakers on, through one all-airlines upstream search (the default strategy): one breaker for it. */
  readonly oneSearch: FailingRun;
  /** Logins sent by 10 searches against a `/Token` answering 500 (the login's breaker). */
  readonly logins: number;
}

/** Runs the 10 failing searches with the breakers off, then on. */
export const runBreakerBench = async (): Promise<BreakerFigures> => ({
  searches: SEARCHES,
  off: await runTen(false),
  on: await runTen(true),
  oneSearch: await runTen(true, "one-search"),
  logins: (await runTen(true, "one-search", "logins")).logins,
});

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await runBreakerBench();
  console.log(`every airline failing, ${f.searches} fan-out searches in a row (${f.on.airlines} airlines): upstream requests`);
  console.log(`  breakers off (today): ${f.off.requests}`);
  console.log(`  breakers on:          ${f.on.requests} (${(f.on.requests / f.off.requests).toFixed(2)}x); last search: ${f.on.unavailable} of ${f.on.airlines} airlines unavailable, not asked`);
}
