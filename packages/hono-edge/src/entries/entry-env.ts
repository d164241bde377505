import { createSimulator, type Simulator } from "@voar/testing/simulator";
import { ConfigError, loadConfig } from "../config/load-config.js";
import type { ServiceConfig } from "../config/config-schema.js";
import type { SimulatorIdentity } from "../config/deployment-fingerprint.js";

import { ENTRY_VARS } from "../config/entry-vars.js";

export { ENTRY_VARS };

type Env = Readonly<Record<string, unknown>>;

const text = (env: Env, name: string): string | undefined => {
  const v = env[name];
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
};

const int = (env: Env, name: string, fallback: number | undefined): number | undefined => {
  const v = text(env, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError([`${name}: "${v}" is not a whole number`]);
  return n;
};

/** What a runtime entry needs from its environment: the validated configuration, the simulator (made on first use), where to listen. */
export interface EntrySetup {
  readonly config: ServiceConfig;
  readonly simulator: Simulator;
  /** The simulator's seed and latency as set (part of the deployment's fingerprint when it answers). */
  readonly simulatorSettings: SimulatorIdentity;
  readonly port: number;
  readonly hostname: string;
}

/**
 * Reads an entry's environment (`process.env`, a Worker's bindings, `Deno.env.toObject()`): the service
 * configuration from the `VOAR_*` variables, the embedded simulator's latency and seed, the listening
 * address. Non-string bindings (a Worker's KV, secrets objects) are ignored. Throws {@link ConfigError}.
 */
export const entrySetup = (env: Env): EntrySetup => {
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === "string") strings[k] = v;
  const result = loadConfig({ env: strings });
  if (!result.ok) throw new ConfigError(result.errors);
  const latencyMs = int(env, ENTRY_VARS.simulatorLatencyMs, undefined);
  const seed = int(env, ENTRY_VARS.simulatorSeed, undefined);
  let simulator: Simulator | undefined;
  return {
    config: result.config,
    // Made when first asked for: an entry on a real upstream never builds it.
    get simulator() {
      return (simulator ??= createSimulator({ ...(latencyMs === undefined ? {} : { latencyMs }), ...(seed === undefined ? {} : { seed }) }));
    },
    simulatorSettings: { seed, latencyMs },
    port: int(env, ENTRY_VARS.port, 8787) ?? 8787,
    hostname: text(env, ENTRY_VARS.hostname) ?? "0.0.0.0",
  };
};
