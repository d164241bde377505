import type { SearchSource } from "@voar/core";
// The fetch build only: the Worker's bundle carries neither undici nor `node:*`.
import { createFanOutSources, createUpstreamSource } from "@voar/http-adapter/fetch";
import { upstreamSourcesFor } from "../sources/upstream-sources.js";
import { entrySetup } from "./entry-env.js";

/** The engine sources of a Worker isolate or of one search object, and what they search. */
export interface WorkerSources {
  /** `upstream` when the configuration has an `upstream` section (`VOAR_UPSTREAM_URL`...), else `simulator`. */
  readonly backend: "upstream" | "simulator";
  readonly sources: readonly SearchSource[];
  /** Lets the sources go (after their searches stopped). */
  close(): Promise<void>;
}

/**
 * The engine sources of the Worker and of each search object, from the Worker's environment: THE seam
 * between the Worker and where its flights come from. With an `upstream` section in the configuration
 * (`VOAR_UPSTREAM_URL` and `VOAR_UPSTREAM_TOKEN`, or `VOAR_UPSTREAM_USERNAME` / `VOAR_UPSTREAM_PASSWORD`;
 * `VOAR_UPSTREAM_AIRLINES`, `VOAR_UPSTREAM_OTAS`...), the real upstream through `@voar/http-adapter/fetch`:
 * one source per allowed airline plus the upstream's OTA comparison. Otherwise the embedded simulator
 * (`VOAR_SIMULATOR_*`, see `entry-env.ts`), which is then the only thing built. Throws `ConfigError`.
 *
 * Called once per isolate (the Worker's front, which never runs a search) and once per object instance
 * (which runs its identity's search), never per request: an object logs in to the upstream once, when its
 * search first asks, and keeps that session while it lives. The fetch transport owns no connections (the
 * runtime pools them), so nothing outlives the instance; `close()` is still the adapter's, for callers that
 * end their sources explicitly.
 */
export const sourcesFor = (env: Readonly<Record<string, unknown>>): WorkerSources => {
  const setup = entrySetup(env);
  const upstream = setup.config.upstream;
  if (upstream) return { backend: "upstream", ...upstreamSourcesFor(upstream, { createFanOutSources, createUpstreamSource }) };
  return { backend: "simulator", sources: setup.simulator.sources, close: () => Promise.resolve() };
};
