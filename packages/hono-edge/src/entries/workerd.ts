/**
 * The Cloudflare Workers (workerd) entry: a module worker whose `fetch` serves the app on the embedded
 * simulator and the in-memory store, configured from the Worker's bindings (`VOAR_*` variables, see
 * `entry-env.ts`). Bundle it with `pnpm --filter @voar/hono-edge bundle:workerd` (dist/workerd.js).
 *
 * Workers allow no random values or timers at global scope and hand the bindings to each request, so the
 * app is made on the first request. A search runs on timers after its first answer was sent: the request
 * that started it keeps the isolate's work alive with `waitUntil` until the searches it started end.
 */
import { createApp } from "../app/create-app.js";
import { createMemorySessionStore } from "../search/memory-session-store.js";
import { systemClock } from "../clock.js";
import { entrySetup } from "./entry-env.js";
import { trackSearches } from "./track-searches.js";

/** The part of a Worker's execution context this entry uses. */
interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

let served: { readonly fetch: (request: Request) => Response | Promise<Response>; readonly idle: () => Promise<void> } | undefined;

const make = (env: Readonly<Record<string, unknown>>) => {
  const setup = entrySetup(env);
  const { config } = setup;
  const tracked = trackSearches(createMemorySessionStore({ clock: systemClock, maxSessions: config.limits.maxSessions, ttlMs: config.search.ttlMs }));
  const app = createApp({ config, sources: setup.simulator.sources, store: tracked.store });
  return { fetch: app.fetch, idle: tracked.idle };
};

export default {
  async fetch(request: Request, env: Readonly<Record<string, unknown>>, ctx: WorkerContext): Promise<Response> {
    served ??= make(env);
    const response = await served.fetch(request);
    ctx.waitUntil(served.idle());
    return response;
  },
};
