/**
 * The embedded flight simulator: airline and OTA sources over real airports, deterministic for a seed.
 * @packageDocumentation
 */
export { createSimulator, simulateOffers, type SimulatedAirline, type Simulator } from "./create-simulator.js";
export { defaultBatches, defaultLatencyMs, DEFAULT_SEED, type SimulatedFailure, type SimulatorOptions } from "./options.js";
export { SIMULATED_OTAS, type SimulatedOta } from "./otas.js";
export { CARRIER_PROFILES, type CarrierProfile, type ProgrammeEconomics } from "./carriers.js";
export { blockMinutes } from "./timetable.js";
export {
  variableLatency,
  sellingSwitch,
  drawLatency,
  type LatencyDistribution,
  type VariableLatency,
  type VariableLatencyOptions,
  type DrawnLatency,
  type SellingSwitch,
} from "./variable-latency.js";
