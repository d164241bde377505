import { BusinessError, type SearchSource } from "@voar/core";
import { createSimulator, defaultLatencyMs } from "@voar/testing/simulator";
import type { DemoOptions } from "./demo-options.js";

/** The sources the demo searches, and how to let them go. */
export interface DemoSources {
  readonly sources: readonly SearchSource[];
  readonly backend: "simulador" | "fornecedor";
  /** Simulated sources that fail on purpose. */
  readonly failing: readonly string[];
  close(): Promise<void>;
}

/** The simulator's default latencies span 300 ms to 2.5 s; the demo maps that spread onto its own. */
const DEFAULT_MIN = 300;
const DEFAULT_SPAN = 2_200;

/** Thrown when the demo names simulated sources that do not exist. */
export class UnknownSourceError extends Error {
  readonly _tag = "UnknownSourceError";
  constructor(readonly ids: readonly string[], readonly known: readonly string[]) {
    super(`VOAR_DEMO_FAILURES: fonte(s) desconhecida(s) ${ids.join(", ")}; fontes do simulador: ${known.join(", ")}`);
    this.name = "UnknownSourceError";
  }
}

/**
 * The embedded simulator, slowed to the demo's latencies (each source keeps its own place in the spread,
 * so answers arrive one after another) and with the chosen sources failing for good, with a message a
 * person can read in the page's banner.
 */
export const simulatedSources = (options: Pick<DemoOptions, "seed" | "latencyMs" | "failures">): DemoSources => {
  const [min, max] = options.latencyMs;
  const failure = { error: new BusinessError({ detail: "fornecedor em manutenção (falha simulada pela demonstração)" }) };
  const simulator = createSimulator({
    seed: options.seed,
    latencyMs: (id) => Math.round(min + ((defaultLatencyMs(id) - DEFAULT_MIN) / DEFAULT_SPAN) * (max - min)),
    failures: Object.fromEntries(options.failures.map((id) => [id, failure])),
  });
  const known = simulator.sources.map((s) => s.id);
  const unknown = options.failures.filter((id) => !known.includes(id));
  if (unknown.length > 0) throw new UnknownSourceError(unknown, known);
  return { sources: simulator.sources, backend: "simulador", failing: options.failures, close: () => Promise.resolve() };
};
