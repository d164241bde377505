import type { Handler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { resolveSearch, type SearchRouteDeps } from "./search-request.js";
import { serializedAnswer } from "./serialized-answer.js";

/**
 * `POST /ConsultaAereo/Consultar`: the progressive search by polling. The first request of a query starts
 * its search and answers at once with what is known; repeating it, or sending `{ "Token": id }` /
 * `{ "LeaseId": id }`, answers the accumulated snapshot for the page asked, until `Completed` is true.
 */
export const consultarHandler =
  (deps: SearchRouteDeps): Handler<AppEnv> =>
  async (c) => {
    const resolved = await resolveSearch(deps, c);
    const snapshot = await deps.hub.snapshot(resolved.record);
    const { status, bytes } = serializedAnswer(deps, snapshot, resolved, c.get("requestId"));
    return c.body(bytes, status, { "content-type": "application/json; charset=UTF-8" });
  };
