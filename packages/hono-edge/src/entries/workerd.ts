/**
 * The Cloudflare Workers (workerd) entry: a module Worker plus its Durable Object class, configured from
 * the Worker's bindings (`VOAR_*` variables, see `entry-env.ts`; `wrangler.toml` declares them). Bundle it
 * with `pnpm --filter @voar/hono-edge bundle:workerd` (dist/workerd.js) and deploy with wrangler.
 *
 * Flights come from the upstream of the configuration (`VOAR_UPSTREAM_*`, through `@voar/http-adapter/fetch`)
 * or, without one, the embedded simulator: see `workerd-sources.ts`.
 *
 * A Worker's isolates share no memory, so searches do not live in the Worker: each search identity has a
 * Durable Object (`SEARCHES` binding, class {@link SearchObject}) that runs its search, keeps it in its
 * storage, and serves its polls and SSE stream wherever they arrive. The Worker answers the rest itself and
 * routes search requests (see `durable/worker-front.ts`). Workers allow no random values or timers at global
 * scope and hand the bindings to each request, so the app is made on the first request.
 */
import { ConfigError } from "../config/load-config.js";
import type { ServiceConfig } from "../config/config-schema.js";
import { toErrorResponse } from "../errors/error-table.js";
import { InternalError } from "../errors/service-errors.js";
import { SearchObjectCore } from "../durable/search-object.js";
import { SharedObjectCore } from "../durable/shared-object.js";
import { systemClock } from "../clock.js";
import { createWorkerFront } from "../durable/worker-front.js";
import type { DurableObjectNamespace, DurableObjectState, WorkerContext } from "../durable/workers-types.js";
import { jsonLinesLogger } from "../logging/logger.js";
import { deploymentFingerprint } from "../config/deployment-fingerprint.js";
import { entrySetup } from "./entry-env.js";
import { sourcesFor } from "./workerd-sources.js";

/** The Worker's environment: the `VOAR_*` variables and secrets, the search objects' binding and the shared objects'. */
export type WorkerEnv = Readonly<Record<string, unknown>> & { readonly SEARCHES?: DurableObjectNamespace; readonly SHARED?: DurableObjectNamespace };

/**
 * The configuration of the Worker and its objects. Issued tokens are checked by the Worker and again by the
 * search's object, so with agencies configured they need a signing secret both share.
 */
const configOf = (env: WorkerEnv): ServiceConfig => {
  const { config } = entrySetup(env);
  if (config.agencies.length > 0 && config.tokens.secret === undefined) {
    throw new ConfigError(["VOAR_TOKEN_SECRET: required on Workers when VOAR_AGENCIES is set (the Worker and each search object check issued tokens)"]);
  }
  return config;
};

const failure = (e: unknown): Response => {
  // A deployment mistake: the detail goes to the log, the client gets ERRO_INTERNO without it.
  const requestId = crypto.randomUUID();
  jsonLinesLogger().log({ level: "error", msg: "worker.config_failed", requestId, error: e instanceof Error ? e.message : String(e) });
  const { status, headers, body } = toErrorResponse(new InternalError(e), requestId);
  return Response.json(body, { status, headers: { ...headers, "X-Request-Id": requestId } });
};

let front: { readonly fetch: (request: Request) => Response | Promise<Response> } | undefined;

/** The isolate's front, made once: it says once what the Worker searches (upstream or simulator). */
const frontOf = (env: WorkerEnv, searches: DurableObjectNamespace) => {
  const config = configOf(env);
  const { backend, sources, cache } = sourcesFor(env);
  const shared = env.SHARED;
  // Without the shared objects, rate limits and the Pagante switch hold per isolate: said once.
  const settings = shared ? "shared" : "per-isolate";
  jsonLinesLogger().log({ level: cache === "no-binding" || !shared ? "warn" : "info", msg: "worker.ready", backend, sources: sources.map((s) => s.id), limitsAndPagante: settings, ...(cache ? { answerCache: cache } : {}) });
  // What answers this Worker's searches names its objects too: a namespace shared by Workers with other
  // sources (`script_name` bindings) never joins their searches.
  const deployment = deploymentFingerprint(config, entrySetup(env).simulatorSettings);
  return createWorkerFront({ config, sources, searches, shared, deployment });
};

export default {
  async fetch(request: Request, env: WorkerEnv, _ctx: WorkerContext): Promise<Response> {
    try {
      if (!env.SEARCHES) throw new ConfigError(["SEARCHES: the Durable Object binding of SearchObject is missing (see wrangler.toml)"]);
      front ??= frontOf(env, env.SEARCHES);
    } catch (e) {
      return failure(e);
    }
    return front.fetch(request);
  },
};

/**
 * The Durable Object class of what the search objects and isolates share (wrangler.toml: `SHARED` binding,
 * `class_name = "SharedObject"`): one object per cached answer, per airline's breaker, per rate limit's bucket, and
 * one holding the Pagante switch. Without the binding the Worker searches without the answer cache, with breakers
 * per search object, and rate limits and the switch per isolate (`worker.ready` says so).
 */
export class SharedObject {
  private readonly core: SharedObjectCore;

  constructor(state: DurableObjectState, _env: WorkerEnv) {
    this.core = new SharedObjectCore(state, systemClock);
  }

  fetch(request: Request): Promise<Response> {
    return this.core.fetch(request);
  }

  alarm(): Promise<void> {
    return this.core.alarm();
  }
}

/** The Durable Object class of one search identity (wrangler.toml: `class_name = "SearchObject"`). */
export class SearchObject {
  private readonly core: SearchObjectCore;

  constructor(state: DurableObjectState, env: WorkerEnv) {
    // Its own sources, made once for the instance's life (see `sourcesFor`): on an upstream, one login
    // session for every search and poll this object runs, none made per request.
    this.core = new SearchObjectCore(state, { config: configOf(env), sources: sourcesFor(env).sources });
  }

  fetch(request: Request): Promise<Response> {
    return this.core.fetch(request);
  }

  alarm(): Promise<void> {
    return this.core.alarm();
  }
}
