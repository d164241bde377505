import { failedSearchAnswer } from "@voar/core";
import type { Handler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { resolveSearch, type SearchRouteDeps } from "./search-request.js";
import { noneMatch } from "../http/entity-tag.js";
import { answerTagOf, serializedAnswer } from "./serialized-answer.js";
import { partedResponse, writesPartedAnswers } from "../http/parted-answer.js";

/**
 * `POST /ConsultaAereo/Consultar`: the progressive search by polling. The first request of a query starts
 * its search and answers at once with what is known; repeating it, or sending `{ "Token": id }` /
 * `{ "LeaseId": id }`, answers the accumulated snapshot for the page asked, until `Completed` is true.
 *
 * A successful answer carries a weak `ETag` (search, version, page and view asked; not the `RequestId`). A
 * poll whose `If-None-Match` names the current one is answered `304 Not Modified` without a body: the search
 * has not changed since the client's answer. Only a client that sends `If-None-Match` ever gets a 304.
 *
 * A search in which every source failed answers its error; when that error is retryable (`Erro.Retentavel`,
 * which follows the sources), `Retry-After` says in how many seconds the same query starts a new search
 * instead of receiving this failure again (see `rejoinWindowMs`).
 */
export const consultarHandler =
  (deps: SearchRouteDeps): Handler<AppEnv> =>
  async (c) => {
    const resolved = await resolveSearch(deps, c);
    const snapshot = await deps.hub.snapshot(resolved.record);
    const tag = answerTagOf(snapshot, resolved);
    // Answered with a Response of our own and its headers as a plain record (the request's id included: Hono's
    // prepared headers do not apply to it), rather than `c.body`, which builds Web `Headers` for two headers or
    // more and the Node adapter then reads them back into a record: about a tenth of a cached poll's time.
    const requestId = c.get("requestId");
    if (noneMatch(c.req.header("if-none-match"), tag)) return new Response(null, { status: 304, headers: { ETag: tag, "X-Request-Id": requestId } });
    // An entry that writes parted answers (Node) sends the shared bytes and the id as they are, uncopied.
    const parted = writesPartedAnswers(c.env);
    const { status, etag, body } = serializedAnswer(deps, snapshot, resolved, requestId, parted);
    const headers: Record<string, string> = { "content-type": "application/json; charset=UTF-8", "X-Request-Id": requestId };
    if (etag) headers["ETag"] = etag;
    // A failed search that says "retry": when the same query will really be asked of the sources again.
    if (status !== 200 && failedSearchAnswer(snapshot.sources).retentavel) {
      const wait = deps.hub.retryAfterSeconds(resolved.record, snapshot);
      if (wait !== undefined) headers["Retry-After"] = String(wait);
    }
    return body instanceof Uint8Array ? new Response(body, { status, headers }) : partedResponse(body, status, headers);
  };
