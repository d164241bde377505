import type { SearchSource } from "@voar/core";
// The fetch build only: the Worker's bundle carries neither undici nor `node:*`.
import { createFanOutSources, createUpstreamSource, memoryBreakerStore, memoryLoginStore } from "@voar/http-adapter/fetch";
import { systemClock } from "../clock.js";
import { upstreamCacheOf } from "../config/deploy-schema.js";
import { deploymentFingerprint } from "../config/deployment-fingerprint.js";
import { durableAnswerStore, durableBreakerStore, durablePacingStore } from "../durable/shared-stores.js";
import type { DurableObjectNamespace } from "../durable/workers-types.js";
import { jsonLinesLogger } from "../logging/logger.js";
import { cachedUpstreamSources } from "../sources/cached-upstream.js";
import { upstreamSourcesFor } from "../sources/upstream-sources.js";
import { entrySetup } from "./entry-env.js";

/** The engine sources of a Worker isolate or of one search object, and what they search. */
export interface WorkerSources {
  /** `upstream` when the configuration has an `upstream` section (`VOAR_UPSTREAM_URL`...), else `simulator`. */
  readonly backend: "upstream" | "simulator";
  readonly sources: readonly SearchSource[];
  /**
   * Whether the upstream's answers go through the answer cache shared by the deployment's search objects (and
   * its breakers are shared by them): `off` when the configuration turns the cache off (`upstream.cache.enabled`),
   * `no-binding` when the Worker has no `SHARED` binding (wrangler.toml), undefined on the simulator.
   */
  readonly cache?: "on" | "off" | "no-binding" | undefined;
  /** Lets the sources go (after their searches stopped). */
  close(): Promise<void>;
}

/** The shared objects' binding, when the Worker has one. */
const sharedOf = (env: Readonly<Record<string, unknown>>): DurableObjectNamespace | undefined => {
  const b = env["SHARED"] as Partial<DurableObjectNamespace> | undefined;
  return typeof b?.idFromName === "function" && typeof b.get === "function" ? (b as DurableObjectNamespace) : undefined;
};

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
 *
 * On an upstream, the sources go through the answer cache (`upstream.cache`) and their breakers
 * (`upstream.breaker`) live in the shared objects of the `SHARED` binding (see `durable/shared-object.ts`):
 * every search object of the deployment, whichever tenant it serves, is answered from what another fetched
 * within the freshness window, does not ask an airline another found down, and paces its polls on what the others
 * learned of each airline's time.
 */
export const sourcesFor = (env: Readonly<Record<string, unknown>>): WorkerSources => {
  const setup = entrySetup(env);
  const upstream = setup.config.upstream;
  if (!upstream) return { backend: "simulator", sources: setup.simulator.sources, close: () => Promise.resolve() };
  const namespace = sharedOf(env);
  const deployment = namespace && deploymentFingerprint(setup.config, setup.simulatorSettings);
  const logger = jsonLinesLogger();
  const direct = upstreamSourcesFor(
    upstream,
    { createFanOutSources, createUpstreamSource, memoryBreakerStore, memoryLoginStore },
    {
      ...(namespace && deployment ? { breakerStore: durableBreakerStore({ namespace, deployment, logger }), pacingStore: durablePacingStore({ namespace, deployment }) } : {}),
      onBreakerStateChange: (sourceId, state) => logger.log({ level: state === "open" ? "warn" : "info", msg: "upstream.breaker", sourceId, state }),
    },
  );
  if (!namespace || !deployment) return { backend: "upstream", ...direct, cache: "no-binding" };
  if (!upstreamCacheOf(upstream).enabled) return { backend: "upstream", ...direct, cache: "off" };
  const { sources, cache } = cachedUpstreamSources(direct.sources, upstream, { clock: systemClock, logger, store: durableAnswerStore({ namespace, deployment }) });
  return {
    backend: "upstream",
    sources,
    cache: "on",
    close: async () => {
      cache?.close();
      await direct.close();
    },
  };
};
