/**
 * Records one scenario: the simulator behind the live fake upstream, the scenario's faults, the recording
 * client polling it, and the HTTP recorder in between. Time is virtual: the caller moves it (`advance`),
 * with `@sinonjs/fake-timers` in the record script or `vi.advanceTimersByTimeAsync` in a test, so a
 * recording takes milliseconds and comes out the same every time.
 */
import { liveBackend } from "../fake-upstream/live-backend.js";
import { createFakeUpstream } from "../fake-upstream/create-fake-upstream.js";
import { checkFixture } from "../fixtures/check-fixture.js";
import { FIXTURE_FORMAT, type Fixture } from "../fixtures/fixture-schema.js";
import { recordFetch } from "../recorder/record-fetch.js";
import { createSimulator } from "../simulator/index.js";
import { SCENARIO_ACCOUNT, type Scenario } from "./catalogue.js";
import { chooseFlights, fewFlights } from "./few-flights.js";
import { driveSearch, type DriveResult } from "./scenario-driver.js";

/** Moves virtual time forward by `ms`, running what falls due. */
export type AdvanceTime = (ms: number) => Promise<void>;

/** Longest a recording may take, in virtual time. */
const MAX_VIRTUAL_MS = 10 * 60_000;
const STEP_MS = 100;

/**
 * Records a scenario as a fixture. Throws when the client's search does not end as the scenario says, or
 * when the fixture fails its checks.
 *
 * @example
 * vi.useFakeTimers({ now: SCENARIO_EPOCH });
 * const fixture = await recordScenario(scenario("rate-limited"), (ms) => vi.advanceTimersByTimeAsync(ms));
 */
export const recordScenario = async (s: Scenario, advance: AdvanceTime): Promise<Fixture> => {
  const simulator = createSimulator({ latencyMs: s.latencyMs ?? {}, batches: s.batches ?? 2 });
  const sources = simulator.sources.map((source) => fewFlights(source, (q) => chooseFlights(simulator.offers(q), s.perAirline)));
  const upstream = createFakeUpstream({
    backend: liveBackend({ sources, progressHints: s.progressHints ?? false, nextPollMs: s.pollMs }),
    auth: { accounts: [SCENARIO_ACCOUNT], tokenTtlS: 3600 },
    faults: s.faults,
  });
  const recorder = recordFetch(upstream.fetch);
  const outcome: { result?: DriveResult; error?: unknown } = {};
  driveSearch({ fetch: recorder.fetch, baseUrl: upstream.baseUrl, ...SCENARIO_ACCOUNT, request: { ...s.request }, pollMs: s.pollMs, maxFailures: 3, maxRequests: 60 }).then(
    (result) => (outcome.result = result),
    (error: unknown) => (outcome.error = error),
  );
  for (let t = 0; outcome.result === undefined && outcome.error === undefined && t < MAX_VIRTUAL_MS; t += STEP_MS) await advance(STEP_MS);
  upstream.close();
  if (outcome.error !== undefined) throw outcome.error;
  if (outcome.result !== s.ends) throw new Error(`scenario ${s.name}: the search ended ${outcome.result ?? "never"}, expected ${s.ends}`);
  const fixture: Fixture = {
    format: FIXTURE_FORMAT,
    scenario: s.name,
    description: s.description,
    recordedFrom: `simulator seed ${simulator.seed} behind the live fake upstream, recorded through recordFetch`,
    query: { ...s.request },
    exchanges: recorder.exchanges(),
  };
  const issues = checkFixture(fixture);
  if (issues.length > 0) throw new Error(`scenario ${s.name}: ${issues.join("; ")}`);
  return fixture;
};
