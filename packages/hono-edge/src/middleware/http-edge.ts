import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { UnsupportedMediaType } from "../errors/service-errors.js";
import { writeAnswerHeaders } from "../http/answer-headers.js";

/**
 * Media types a JSON route reads: JSON itself (`application/json`, `application/*+json`), and `text/plain`,
 * which `fetch` sends for a string body when the caller sets no type. No `Content-Type` at all is read as JSON
 * too: some clients of the legacy API send their JSON without one.
 */
const JSON_LIKE = /^\s*(application\/(json|[\w.+-]+\+json)|text\/plain)\s*(;|$)/i;

/**
 * Refuses a body declared as something other than JSON with 415 (`Campos` names `Content-Type`), before it
 * is read. Clients of the legacy API (`compat: "legacy"`, after authentication) are never refused for it.
 */
export const jsonBody = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const type = c.req.header("content-type");
  const legacy = c.get("principal")?.compat === "legacy";
  if (type !== undefined && type.trim() !== "" && !legacy && !JSON_LIKE.test(type)) throw new UnsupportedMediaType();
  await next();
};

/** Answers after which the rest of the request's body is not wanted. */
const REJECTING = new Set([401, 405, 413, 415]);

/**
 * After an answer that rejects the request before (or while) reading its body — 401, 405, 413, 415 —
 * asks the client to close the connection (`Connection: close`): a server that keeps the connection alive must
 * otherwise read the whole unwanted body first (a 130 MB upload after a 401). Node closes the socket once
 * the answer is sent. A legacy client's answer counts by its real status (`X-Voar-Status`).
 */
export const closeAfterRejection = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  const status = c.get("realStatus") ?? c.res.status;
  if (REJECTING.has(status) && c.req.method !== "GET" && c.req.method !== "HEAD") writeAnswerHeaders(c, (headers) => headers.set("Connection", "close"));
};
