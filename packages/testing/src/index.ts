export {
  createSimulator,
  simulateOffers,
  defaultBatches,
  defaultLatencyMs,
  DEFAULT_SEED,
  SIMULATED_OTAS,
  CARRIER_PROFILES,
  blockMinutes,
  type SimulatedAirline,
  type Simulator,
  type SimulatedFailure,
  type SimulatorOptions,
  type SimulatedOta,
  type CarrierProfile,
  type ProgrammeEconomics,
  variableLatency,
  sellingSwitch,
  drawLatency,
  type LatencyDistribution,
  type VariableLatency,
  type VariableLatencyOptions,
  type DrawnLatency,
  type SellingSwitch,
} from "./simulator/index.js";

// Fixtures: the format, checks and the shipped files
export {
  FIXTURE_FORMAT,
  FixtureSchema,
  ExchangeSchema,
  RecordedRequestSchema,
  RecordedResponseSchema,
  isConsultar,
  isLogin,
  type Fixture,
  type Exchange,
  type RecordedRequest,
  type RecordedResponse,
} from "./fixtures/fixture-schema.js";
export { parseFixture, checkFixture } from "./fixtures/check-fixture.js";
export { serializeFixture } from "./fixtures/serialize-fixture.js";
export { loadFixture, fixtureNames, FIXTURES_DIR } from "./fixtures/load-fixture.js";

// The fake upstream
export { createFakeUpstream, type FakeUpstream, type FakeUpstreamOptions, type UpstreamStats } from "./fake-upstream/create-fake-upstream.js";
export { liveBackend, type LiveBackendOptions, type LiveSourceEvent } from "./fake-upstream/live-backend.js";
export { pacingTrial, lateness, type PacingTrial, type PacingTrialOptions, type PlainRun, type AirlineTimes } from "./fake-upstream/pacing-trial.js";
export type { ConsultarBackend, ConsultarCall } from "./fake-upstream/consultar-backend.js";
export { faultAt, type Fault, type FaultRule } from "./fake-upstream/faults.js";
export { TokenStore, type FakeAccount, type FakeAuthOptions, type IssuedToken, type TokenCheck } from "./fake-upstream/token-store.js";
export { inProcessFetch, IN_PROCESS_ORIGIN, type FetchLike, type FetchHandler } from "./fake-upstream/in-process-fetch.js";
export { toRealEnvelope, type RealEnvelopeContext } from "./fake-upstream/real-envelope.js";
export {
  FAKE_STACK_TRACE,
  businessErrorBody,
  dotNetException,
  rateLimitedBody,
  serverErrorBody,
  unauthorizedBody,
} from "./fake-upstream/real-shapes.js";
export type { UpstreamReply } from "./fake-upstream/upstream-reply.js";

// Replay
export { replayBackend, consultarAnswers } from "./replay/replay-backend.js";
export { createReplayUpstream, type ReplayUpstreamOptions } from "./replay/replay-upstream.js";
export { replaySource, type ReplaySourceOptions } from "./replay/replay-source.js";
export { replayMockAgent, type ReplayMockAgentOptions } from "./replay/replay-mock-agent.js";
export { fixtureTimeline$, type TimedAnswer } from "./replay/fixture-timeline.js";
export { recordedOutcome, type RecordedOutcome } from "./replay/recorded-outcome.js";

// Recording
export { recordFetch, type FetchRecorder, type RecordFetchOptions } from "./recorder/record-fetch.js";
export { recordSource, type SourceRecorder, type FixtureMeta } from "./recorder/record-source.js";
export { wireRequestOf } from "./recorder/wire-request.js";

// Scenarios
export { SCENARIOS, SCENARIO_EPOCH, SCENARIO_ACCOUNT, FARE_SCENARIOS, scenario, type Scenario } from "./scenarios/catalogue.js";
export { recordScenario, type AdvanceTime } from "./scenarios/record-scenario.js";
export { driveSearch, type DriveOptions, type DriveResult, type DrivenAnswer } from "./scenarios/scenario-driver.js";
export { chooseFlights, fewFlights } from "./scenarios/few-flights.js";
export { serveOnNode, type ServedOnNode, type ServeOnNodeOptions } from "./fake-upstream/serve-on-node.js";
