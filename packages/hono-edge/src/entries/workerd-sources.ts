import type { SearchSource } from "@voar/core";
import { entrySetup } from "./entry-env.js";

/**
 * The engine sources of the Worker and of each search object, from the Worker's environment: THE seam for
 * the real upstream. Today: the embedded simulator (`VOAR_SIMULATOR_*`, see `entry-env.ts`). To search a
 * real upstream, return the sources of `@voar/http-adapter/fetch` here (built from the upstream section
 * of the configuration): nothing else in the Worker or its Durable Object changes. Called once per isolate
 * and once per object instance.
 */
export const sourcesFor = (env: Readonly<Record<string, unknown>>): readonly SearchSource[] => entrySetup(env).simulator.sources;
