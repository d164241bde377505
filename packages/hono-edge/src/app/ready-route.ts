/**
 * `GET /ready`: whether the instance can serve searches (load balancers and orchestrators stop sending it traffic while
 * it answers 503): its session store answers, it is not shedding load (admission control: its store may answer
 * perfectly well, and it says why), and the upstream does not refuse the configured credentials (the deployment's
 * configuration: a rollout stops there). An upstream whose logins fail for a while, or that answers slower than the
 * plain client's pace, is said, and the instance stays ready: every instance asks the same upstream.
 */
import type { Context } from "hono";
import type { Admission } from "../limits/admission.js";
import type { SearchHub } from "../search/search-hub.js";
import { loginReadiness, paceReadiness } from "../sources/upstream-login.js";
import type { ResolvedDeps } from "./app-deps.js";

/** The handler of `GET /ready`. */
export const readyHandler =
  (hub: SearchHub, admission: Admission, d: Pick<ResolvedDeps, "upstreamLogin" | "upstreamPace">) =>
  async (c: Context) => {
    if (!(await hub.ready())) return c.json({ status: "unavailable" as const, store: "unreachable" as const }, 503, { "Retry-After": "1" });
    const load = admission.state();
    if (load.overloaded) return c.json({ status: "overloaded" as const, reason: load.reason, loopDelayMs: load.loopDelayMs }, 503, { "Retry-After": String(admission.retryAfterSeconds) });
    const login = d.upstreamLogin ? loginReadiness(d.upstreamLogin()) : { ready: true };
    if (!login.ready) return c.json({ status: "misconfigured" as const, upstream: login.upstream }, 503);
    const upstream = { ...login.upstream, ...(d.upstreamPace && paceReadiness(d.upstreamPace())) };
    return c.json({ status: "ready" as const, ...(Object.keys(upstream).length > 0 ? { upstream } : {}) });
  };
